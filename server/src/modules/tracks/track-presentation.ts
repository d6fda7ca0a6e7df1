import { analyzeSession } from '../../../../core/laps/lap-math';
import type { TrackAnalysisResponse } from '../../../../core/contracts/tracks.contract';
import { AppError } from '../../../../core/errors';
import type { GpsColumns } from '../../../../core/formats/gps-columns';
import type { Lap } from '../../../../core/formats/lap-six';
import { HEATS, type Heat } from '../../../../core/formats/six-lines';
import type { Gate } from '../../../../core/tracks/gate';
import { compareLaps } from '../../../../core/tracks/lap-comparison';
import type { AnalyzedLap, TrackAnalysis, TrackDefinition } from '../../../../core/tracks/track-analysis';
import type { TrackRow } from './tracks.repository';

// How a track analysis is shown: laps named as the device names them, the device's own times
// beside the GPS's, a lap against its reference. Pure; the tracks service reads and remembers.

/** A GPS lap and the device's are the same lap when both ends are this close (samples at 10 Hz: 2 s). */
const SAME_LAP_SAMPLES = 20;
/** Beyond this the GPS time and the device's are flagged as differing. */
const DIFFERS_S = 0.05;

/** Each analysed lap's heat and number within its heat, as the device numbers its laps: from 0 where a heat opens with an out-lap. */
export function numbered(analysis: TrackAnalysis, trace: GpsColumns): { heat: Heat; number: number }[] {
  const perHeat = new Map<string, { seen: number; first: number }>();
  return analysis.laps.map((l) => {
    const heat = trace.heat.length ? HEATS[trace.heat[l.start.index]!]! : HEATS[Math.min(3, l.run - 1)]!;
    const counter = perHeat.get(heat) ?? { seen: 0, first: l.kind === 'out' ? 0 : 1 };
    perHeat.set(heat, { ...counter, seen: counter.seen + 1 });
    return { heat, number: counter.first + counter.seen };
  });
}

/** The complete lap a screen names 'A3'; 404 when the session has none by that name. */
export function lapByKey(at: { analysis: TrackAnalysis; trace: GpsColumns }, key: string) {
  const names = numbered(at.analysis, at.trace);
  const k = names.findIndex((n, i) => `${n.heat}${n.number}` === key && at.analysis.laps[i]!.complete);
  if (k < 0) throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
  return { ...names[k]!, lap: at.analysis.laps[k]! };
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

/** The device's own laps by the sample ranges its lap and heat columns give them. */
function deviceLapRanges(trace: GpsColumns, laps: readonly Lap[]) {
  const ranges: { start: number; end: number; lap: Lap }[] = [];
  let start = 0;
  for (let i = 1; i <= trace.count; i++) {
    if (i < trace.count && trace.lapCount[i] === trace.lapCount[start] && trace.heat[i] === trace.heat[start]) continue;
    const heat = HEATS[trace.heat[start]!];
    const lap = laps.find((l) => l.heat === heat && l.lapCount === trace.lapCount[start]);
    if (lap) ranges.push({ start, end: i, lap });
    start = i;
  }
  return ranges;
}

export function present(
  track: TrackRow,
  definition: TrackDefinition,
  analysis: TrackAnalysis,
  trace: GpsColumns,
  deviceLaps: readonly Lap[],
  query: { lap?: number; reference?: number },
  may: { renamable: boolean; choosable: boolean },
): TrackAnalysisResponse {
  const ranges = deviceLapRanges(trace, deviceLaps);
  const names = numbered(analysis, trace);
  const laps = analysis.laps.map((l, k) => {
    const { heat, number } = names[k]!;
    const twin = l.complete
      ? ranges.find((r) => Math.abs(r.start - (l.start.index + 1)) <= SAME_LAP_SAMPLES && Math.abs(r.end - (l.end.index + 1)) <= SAME_LAP_SAMPLES)
      : undefined;
    const deviceSeconds = twin ? twin.lap.lapSeconds : null;
    return {
      index: l.number,
      heat,
      number,
      seconds: l.seconds,
      kind: l.kind,
      complete: l.complete,
      deviceSeconds,
      differs: deviceSeconds !== null && Math.abs(deviceSeconds - l.seconds) > DIFFERS_S,
      segmentSeconds: l.segmentSeconds,
      sectorSeconds: l.sectorSeconds,
      sectionSeconds: l.sectionSeconds,
    };
  });
  const byIndex = (i: number | undefined) => (i === undefined ? undefined : analysis.laps.find((l) => l.number === i && l.complete));
  const flying = analysis.laps.filter((l) => l.kind === 'flying');
  const reference = byIndex(query.reference ?? analysis.bestLap ?? undefined);
  const studied: AnalyzedLap | undefined = byIndex(query.lap) ?? (query.lap === undefined ? flying[flying.length - 1] : undefined);
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
    bestLap: analysis.bestLap,
    idealLapSeconds: analysis.ideal.seconds,
    idealLap: analysis.sections.map((s, k) => ({ corner: s.corner, ...analysis.ideal.sections[k]! })),
    theoreticalBestSeconds: theoretical === null ? null : theoretical / 1000,
    comparison: comparison ? { ...comparison, lapCorners: studied!.corners, referenceCorners: reference!.corners } : null,
  };
}
