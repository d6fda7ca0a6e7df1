// The analytics page's address: the session, the laps drawn, the map's colour and the study live in
// the search params, so a reload or a shared address opens the same view. This is their one reader
// and writer.
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { addressFromQuery, addressToQuery, type SessionAddress } from '#core/contracts/session-paths.ts';

/** What the address says (each absent or unreadable value: undefined, the page's default). */
export interface AnalyticsView {
  session: SessionAddress | null;
  /** The hardware asked for ('hw'), whether or not the rider may see it. */
  device: string | null;
  /** The laps drawn ('voltas', e.g. A3,B1); undefined: none chosen, the best lap is. */
  laps: string[] | undefined;
  /** The map coloured by lean ('cor=inclinacao'), else by speed. */
  lean: boolean;
  /** The lap studied in "Where you lose time" ('estudada', its index). */
  studiedLap: number | undefined;
  /** Its reference ('referencia'): a lap's index, the ideal lap, or the rider's record ('recorde'). */
  studyReference: number | 'ideal' | 'record' | undefined;
}

export interface StudyChoice {
  lap?: number;
  reference?: number | 'ideal' | 'record';
}

const index = (value: string | null) => (value && Number.isInteger(Number(value)) ? Number(value) : undefined);

// The record is 'recorde' in the address, as on the compare page.
const referenceOf = (value: string | null): AnalyticsView['studyReference'] =>
  value === 'ideal' ? 'ideal' : value === 'recorde' ? 'record' : index(value);

export function readAnalyticsView(params: URLSearchParams): AnalyticsView {
  const laps = params.get('voltas');
  return {
    session: addressFromQuery(params),
    device: params.get('hw'),
    laps: laps ? laps.split(',').filter(Boolean) : undefined,
    lean: params.get('cor') === 'inclinacao',
    studiedLap: index(params.get('estudada')),
    studyReference: referenceOf(params.get('referencia')),
  };
}

/**
 * The view the address holds, and its changes. Each change replaces the address (a lap toggled is
 * no step back), but for another session, which is one; the changes keep their identity between
 * renders (the page's parts are memoized on them).
 */
export function useAnalyticsAddress() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readAnalyticsView(params), [params]);
  const changes = useMemo(() => {
    const change = (edit: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          edit(next);
          return next;
        },
        { replace: true },
      );
    return {
      /** Another session: its address, and the map's colour kept. */
      openSession: (s: SessionAddress) =>
        setParams((current) => {
          const colour = current.get('cor');
          return { ...addressToQuery(s), ...(colour ? { cor: colour } : {}) };
        }),
      setLaps: (keys: readonly string[]) => change((next) => next.set('voltas', keys.join(','))),
      setLean: (lean: boolean) => change((next) => (lean ? next.set('cor', 'inclinacao') : next.delete('cor'))),
      chooseStudy: (choice: StudyChoice) =>
        change((next) => {
          if (choice.lap !== undefined) next.set('estudada', String(choice.lap));
          if (choice.reference !== undefined)
            next.set('referencia', choice.reference === 'record' ? 'recorde' : String(choice.reference));
        }),
    };
  }, [setParams]);
  return { ...view, ...changes };
}
