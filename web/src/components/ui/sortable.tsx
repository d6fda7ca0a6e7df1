// The spec's sorting on every column header: the state, the sorted rows, and the header button.
import { useMemo, useState } from 'react';
import { useT } from '#web/i18n/messages.ts';

type SortDir = 'asc' | 'desc';
export interface SortState<K extends string> {
  key: K | null;
  dir: SortDir;
}

/** The spec's sorting: a newly chosen column starts ascending; choosing it again reverses. */
export function nextSort<K extends string>(state: SortState<K>, key: K): SortState<K> {
  if (state.key === key) return { key, dir: state.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

export function useSort<K extends string, T>(
  rows: readonly T[],
  accessors: Record<K, (row: T) => number | string>,
  initial: SortState<K> = { key: null, dir: 'asc' },
) {
  const [sort, setSort] = useState<SortState<K>>(initial);
  const sorted = useMemo(() => {
    if (!sort.key) return [...rows];
    const get = accessors[sort.key];
    const factor = sort.dir === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const va = get(a);
      const vb = get(b);
      return (va < vb ? -1 : va > vb ? 1 : 0) * factor;
    });
  }, [rows, sort, accessors]);
  return { sorted, sort, toggle: (key: K) => setSort((s) => nextSort(s, key)) };
}

/** A header cell that sorts on click or Enter/Space, with an arrow and aria-sort. */
export function SortHeader<K extends string>(props: {
  label: string;
  subtitle?: string;
  column: K;
  sort: SortState<K>;
  onSort: (key: K) => void;
  className?: string;
}) {
  const t = useT();
  const active = props.sort.key === props.column;
  const arrow = active ? (props.sort.dir === 'asc' ? '▲' : '▼') : '↕';
  return (
    <th
      scope="col"
      className={props.className}
      aria-sort={active ? (props.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="sort-button" onClick={() => props.onSort(props.column)}>
        {props.label}{' '}
        <span aria-hidden="true" className="sort-arrow">
          {arrow}
        </span>
        {props.subtitle && <span className="th-subtitle">{props.subtitle}</span>}
        {active && (
          <span className="visually-hidden">, {props.sort.dir === 'asc' ? t('laps.sortAsc') : t('laps.sortDesc')}</span>
        )}
      </button>
    </th>
  );
}
