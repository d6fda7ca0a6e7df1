// 'Onde você perde tempo': which lap is studied against which reference, and the losses section by section.
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';

type Analysis = Pick<TrackAnalysisResponse, 'laps' | 'idealLap' | 'idealLapSeconds' | 'bestLap'>;

/** What the address asks 'Onde você perde tempo' to show (?estudada, ?referencia). */
export interface StudyAsk {
  lap?: number | undefined;
  /** 'record': the rider's fastest lap at this track, in whichever session (the corner study's). */
  reference?: number | 'ideal' | 'record' | undefined;
}

/**
 * What it shows: a lap against the ideal lap (each section's best passage in the session,
 * computed here from the answer), or a lap against another lap (the server's comparison).
 * `automatic`: nobody chose it; the screen says in a line why these laps.
 */
export type Study =
  | { mode: 'ideal'; lap: number; automatic: boolean }
  | { mode: 'record'; lap: number; automatic: false }
  | { mode: 'lap'; lap?: number | undefined; reference?: number | undefined; automatic: boolean };

/** One section of a lap against the session's best passage there. */
export interface IdealLoss {
  corner: number;
  deltaSeconds: number;
  lapSeconds: number;
  idealSeconds: number;
  /** Index of the lap that rode the section best. */
  fromLap: number | null;
}

/** Losses smaller than this are GPS noise, not time to find. */
const NOISE_S = 0.005;

/** A lap against the ideal lap, section by section, largest loss first (sections the GPS timed on both). */
export function lossesToIdeal(data: Pick<Analysis, 'laps' | 'idealLap'>, lapIndex: number): IdealLoss[] {
  const lap = data.laps.find((l) => l.index === lapIndex);
  if (!lap) return [];
  const losses: IdealLoss[] = [];
  data.idealLap.forEach((part, k) => {
    const own = lap.sectionSeconds[k];
    if (own === null || own === undefined || part.seconds === null) return;
    losses.push({
      corner: part.corner,
      deltaSeconds: own - part.seconds,
      lapSeconds: own,
      idealSeconds: part.seconds,
      fromLap: part.lap,
    });
  });
  return losses.sort((a, b) => b.deltaSeconds - a.deltaSeconds);
}

/** The three sections where the most time went against the ideal lap. */
export function topIdealLosses(losses: readonly IdealLoss[]): IdealLoss[] {
  return losses.filter((d) => d.deltaSeconds > NOISE_S).slice(0, 3);
}

/** The most recent complete flying lap other than `other`. */
function recentFlyingBesides(data: Analysis, other: number | null | undefined): number | undefined {
  const flying = data.laps.filter((l) => l.kind === 'flying' && l.complete && l.index !== other);
  return flying[flying.length - 1]?.index;
}

/**
 * The first screen answers "where do I lose time?": the best lap against the ideal lap, which
 * says something as soon as a session has two flying laps (decision 029). Where the ideal lap
 * finds nothing (no clean sections, or the best lap holds every section best), the most recent
 * flying lap against the best lap; never a lap against itself.
 */
export function studyOf(data: Analysis | undefined, ask: StudyAsk): Study {
  if (typeof ask.reference === 'number') {
    return {
      mode: 'lap',
      lap: ask.lap ?? (data ? recentFlyingBesides(data, ask.reference) : undefined),
      reference: ask.reference,
      automatic: false,
    };
  }
  if (ask.reference === 'record') {
    const lap = ask.lap ?? data?.bestLap;
    if (lap !== null && lap !== undefined) return { mode: 'record', lap, automatic: false };
  }
  if (!data) return { mode: 'lap', automatic: true };
  const lap = ask.lap ?? data.bestLap;
  if (lap !== null && lap !== undefined) {
    const usable = data.idealLapSeconds !== null && topIdealLosses(lossesToIdeal(data, lap)).length > 0;
    if (usable || ask.reference === 'ideal')
      return { mode: 'ideal', lap, automatic: ask.lap === undefined && ask.reference === undefined };
  }
  return { mode: 'lap', lap: ask.lap ?? recentFlyingBesides(data, data.bestLap), automatic: ask.lap === undefined };
}

/**
 * What the server is asked for a study: nothing more for the ideal lap (the default answer has it
 * all) nor for the record (another session's lap: the corner study answers it).
 */
export function serverChoice(study: Study): { lap?: number; reference?: number } {
  if (study.mode !== 'lap') return {};
  return {
    ...(study.lap !== undefined ? { lap: study.lap } : {}),
    ...(study.reference !== undefined ? { reference: study.reference } : {}),
  };
}

/** A lap of the answer by its index, as the rider names it ('A3'); '—' for none. */
export function lapNameOf(laps: TrackAnalysisResponse['laps'], index: number | null | undefined): string {
  const lap = laps.find((l) => l.index === index);
  return lap ? `${lap.heat}${lap.number}` : '—';
}
