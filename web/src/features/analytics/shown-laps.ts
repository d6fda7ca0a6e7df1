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

/**
 * The session's top speed on a lap the list shows as a flying lap, named as the list names it: an
 * in-lap starts at the line at full speed, and a piece is no lap, so neither names the figure. The
 * whole file's top speed where no flying lap is listed yet.
 */
export function listedTopSpeed(
  analysis: Pick<AnalysisResponse, 'topSpeedKmh' | 'topSpeedHeat' | 'topSpeedLap'> & {
    laps: readonly Pick<AnalysisResponse['laps'][number], 'heat' | 'lapCount' | 'topSpeedKmh'>[];
  },
  shown: Map<string, ShownLap>,
): { kmh: number; lap: string } {
  const seen = new Set<string>();
  let top: { kmh: number; lap: string } | null = null;
  for (const s of analysis.laps) {
    const key = `${s.heat}${s.lapCount}`;
    // A second piece under a name already seen is not the lap the list names so.
    if (seen.has(key)) continue;
    seen.add(key);
    if (shown.get(key)?.kind === 'flying' && (!top || s.topSpeedKmh > top.kmh)) top = { kmh: s.topSpeedKmh, lap: key };
  }
  return top ?? { kmh: analysis.topSpeedKmh, lap: `${analysis.topSpeedHeat ?? ''}${analysis.topSpeedLap ?? ''}` };
}
