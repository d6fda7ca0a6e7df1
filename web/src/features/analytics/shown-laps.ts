import type { AnalysisResponse, LapsResponse } from '#core/contracts/sessions.contract.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';

/** What a lap of the GPS file is in the session's one lap list: its kind and the time a rider sees (null: none). */
export interface ShownLap {
  kind: 'out' | 'flying' | 'in' | 'partial';
  seconds: number | null;
}

/**
 * Each GPS lap ('A3') as the session's lap list shows it: from the track analysis once it is
 * there; before, the lap.six's time (out-laps marked as the device marks them) and no time for a
 * piece the lap.six does not have (a piece's duration is never shown as a lap time).
 */
export function shownLaps(
  segments: AnalysisResponse['laps'],
  laps: LapsResponse | undefined,
  listed: readonly Pick<TrackAnalysisResponse['laps'][number], 'heat' | 'number' | 'kind' | 'seconds'>[] | undefined,
): Map<string, ShownLap> {
  const shown = new Map<string, ShownLap>();
  if (listed) {
    for (const l of listed) shown.set(`${l.heat}${l.number}`, { kind: l.kind, seconds: l.seconds });
    return shown;
  }
  for (const s of segments) {
    const lap = laps?.laps.find((x) => x.heat === s.heat && x.lapCount === s.lapCount);
    shown.set(`${s.heat}${s.lapCount}`, {
      kind: s.outLap ? 'out' : lap ? lap.kind : 'partial',
      seconds: lap ? lap.lapTimeMs / 1000 : null,
    });
  }
  return shown;
}
