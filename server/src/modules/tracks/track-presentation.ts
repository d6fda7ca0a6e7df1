// Track and analysis answers as the API shapes them: summaries, corners, laps by name, shown gaps.
import { analyzeSession } from '#core/laps/lap-math.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { AppError } from '#core/errors.ts';
import { bestOf, type ListedLap } from '#core/laps/session-laps.ts';
import type { Lap } from '#core/formats/lap-six.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { compareLaps } from '#core/tracks/lap-comparison.ts';
import type { AnalyzedLap, TrackAnalysis, TrackDefinition } from '#core/tracks/track-analysis.ts';
import type { TrackRow } from './tracks.repository';

// How a track analysis is shown: the session's one lap list (core/laps/session-laps.ts) with each
// lap's segments, a lap against its reference. Pure; the tracks service reads and remembers.

/** The complete lap a screen names 'A3', with its place in the one lap list; 404 when the session has none by that name. */
export function lapByKey(at: { analysis: TrackAnalysis; list: ListedLap[] }, key: string) {
  const k = at.list.findIndex((n, i) => `${n.heat}${n.number}` === key && at.analysis.laps[i]!.complete);
  if (k < 0) throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
  return { ...at.list[k]!, lap: at.analysis.laps[k]! };
}

export function summaryOf(row: TrackRow, definition: TrackDefinition) {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    version: row.version,
    gate: JSON.parse(row.gate) as Gate,
    sectors: definition.sectors.map((s) => s.gate),
    lengthM: definition.line.length,
    shared: row.shared === 1,
  };
}

export function cornerOf(c: TrackDefinition['corners'][number]) {
  return { number: c.number, direction: c.direction, apex: c.apex, startM: c.startM, apexM: c.apexM, endM: c.endM };
}

export function present(
  track: TrackRow,
  definition: TrackDefinition,
  analysis: TrackAnalysis,
  list: readonly ListedLap[],
  deviceLaps: readonly Lap[],
  query: { lap?: number; reference?: number },
  may: { renamable: boolean; choosable: boolean },
): TrackAnalysisResponse {
  const laps = analysis.laps.map((l, k) => ({
    index: l.number,
    ...list[k]!,
    complete: l.complete,
    segmentSeconds: l.segmentSeconds,
    sectorSeconds: l.sectorSeconds,
    sectionSeconds: l.sectionSeconds,
  }));
  const best = bestOf(list);
  const bestLap = best < 0 ? null : analysis.laps[best]!.number;
  const byIndex = (i: number | undefined) =>
    i === undefined ? undefined : analysis.laps.find((l) => l.number === i && l.complete);
  const flying = analysis.laps.filter((l) => l.kind === 'flying');
  const reference = byIndex(query.reference ?? bestLap ?? undefined);
  const studied: AnalyzedLap | undefined =
    byIndex(query.lap) ?? (query.lap === undefined ? flying[flying.length - 1] : undefined);
  if ((query.lap !== undefined && !studied) || (query.reference !== undefined && !reference)) {
    throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
  }
  const comparison = studied && reference ? compareLaps(studied, reference, analysis.segments) : undefined;
  const theoretical = deviceLaps.length ? analyzeSession(deviceLaps).theoreticalBestMs : null;
  return {
    track: { ...summaryOf(track, definition), ...may },
    laps,
    corners: definition.corners.map(cornerOf),
    segments: analysis.segments,
    sections: analysis.sections,
    bestLap,
    idealLapSeconds: analysis.ideal.seconds,
    idealLap: analysis.sections.map((s, k) => ({ corner: s.corner, ...analysis.ideal.sections[k]! })),
    theoreticalBestSeconds: theoretical === null ? null : theoretical / 1000,
    comparison: comparison
      ? {
          ...comparison,
          // The gap between the two laps' times as they are shown (the segments stay GPS-timed).
          deltaSeconds: shownGap(
            list[analysis.laps.indexOf(studied!)]!,
            list[analysis.laps.indexOf(reference!)]!,
            comparison.deltaSeconds,
          ),
          lapCorners: studied!.corners,
          referenceCorners: reference!.corners,
        }
      : null,
  };
}

/** The gap between two laps by the times a rider sees (the one lap list), the GPS gap where one has none. */
export function shownGap(lap: ListedLap, reference: ListedLap, gpsGap: number): number {
  return lap.seconds === null || reference.seconds === null
    ? gpsGap
    : Number((lap.seconds - reference.seconds).toFixed(3));
}
