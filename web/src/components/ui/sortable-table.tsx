// A sortable table of a query's rows, with its loading, error and empty states.
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryStatus } from './query-status';
import { SortHeader, useSort } from './sortable';

export interface Column<T> {
  key: string;
  label: string;
  /** A second line under the label (the spec's label kept, with what it now means). */
  subtitle?: string;
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
  /** Default true: the spec's tables sort on every header. */
  sortable?: boolean;
}

type TableProps<T> = {
  label: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
  rowClass?: (row: T) => string;
};

/** A list's table: loading and error states, then its rows, sortable. */
export function SortableTable<T>({ query, ...props }: TableProps<T> & { query: UseQueryResult<readonly T[]> }) {
  return <QueryStatus query={query}>{(rows) => <SortableRows {...props} rows={rows} />}</QueryStatus>;
}

/** A table whose headers sort (new column ascending, again reverses); scrolls inside its own box on a phone. */
export function SortableRows<T>(props: TableProps<T> & { rows: readonly T[] }) {
  const accessors = Object.fromEntries(props.columns.map((c) => [c.key, c.value])) as Record<
    string,
    (row: T) => string | number
  >;
  const { sorted, sort, toggle } = useSort(props.rows, accessors);
  if (props.rows.length === 0) return <p className="empty-state">{props.empty}</p>;
  return (
    <div className="table-scroll" role="region" aria-label={props.label} tabIndex={0}>
      <table className="data-table sortable-table">
        <thead>
          <tr>
            {props.columns.map((c) =>
              c.sortable === false ? (
                <th key={c.key} scope="col">
                  {c.label}
                  {c.subtitle && <span className="th-subtitle">{c.subtitle}</span>}
                </th>
              ) : (
                <SortHeader
                  key={c.key}
                  label={c.label}
                  subtitle={c.subtitle}
                  column={c.key}
                  sort={sort}
                  onSort={toggle}
                />
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={props.rowKey(row)} className={props.rowClass?.(row)}>
              {props.columns.map((c) => (
                <td key={c.key}>{c.render ? c.render(row) : c.value(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
