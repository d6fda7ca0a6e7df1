// The analysis of a session's laps on the track it was ridden on (remembered per session version
// and track definition), and what is read from it: the track analysis, lap comparisons, a shared
// link's laps and map. Coaching reads it too (track-coaching.service.ts).
import type { Kysely } from 'kysely';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import { isImportCollection, type SessionAddress } from '#core/contracts/session-paths.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { AppError } from '#core/errors.ts';
import { FIGURES_VERSION, listFigures } from '#core/laps/lap-math.ts';
import { bestOf, listLaps, type LapColumns } from '#core/laps/session-laps.ts';
import { deltaOnGrid, lapOnGrid } from '#core/tracks/lap-grid.ts';
import { compareLaps } from '#core/tracks/lap-comparison.ts';
import { continuousTime } from '#core/tracks/lap-timing.ts';
import { analyzeTrack, byShownTimes, type TrackAnalysis } from '#core/tracks/track-analysis.ts';
import { latLonAt } from '#core/tracks/track-line.ts';
import type { DB } from '#server/db/schema.ts';
import { LruCache } from '#server/lib/lru.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import { settleLapFigures, SYSTEM_VIEWER, type Viewer } from '../sessions/sessions.repository';
import type { TrackDefinitions } from './track-definitions.service';
import { cornerOf, lapByKey, present, shownGap } from './track-presentation';
import { saveSessionIdeal } from './tracks.repository';

/** Analyses remembered (per session version and track definition), the least recently used forgotten first. */
export const ANALYSES_KEPT = 100;

/** One lap to compare: a session read as `viewer` may, and the lap ('A3'); `shared` hides its device. */
export interface LapAt {
  viewer: Viewer;
  address: SessionAddress;
  lap: string;
  shared: boolean;
}

export function createTrackAnalysis(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  definitions: TrackDefinitions;
  rules: TrackRules;
}) {
  const { db, reader } = deps;
  const { trackFor, definitionOf, shapeOf } = deps.definitions;
  const { mayRenameTrack } = deps.rules;
  const analyses = new LruCache<string, TrackAnalysis>(ANALYSES_KEPT);

  /** A session's trace, the track it was ridden on, and the analysis of its laps there (remembered). */
  async function analyzed(viewer: Viewer, s: SessionAddress, mayCreateTrack = true) {
    const inputs = await reader.trackInputs(viewer, s);
    const trace = await inputs.columns();
    const track = await trackFor(inputs.sessionId, inputs.ownerEmail, trace, mayCreateTrack);
    const definition = definitionOf(track);
    const key = `${inputs.version}#${track.id}#${shapeOf(track)}`;
    const known = analyses.get(key);
    if (known) {
      const deviceLaps = await inputs.laps();
      const list = listLaps(known.laps, trace, deviceLaps, isImportCollection(s.device));
      const analysis = byShownTimes(
        known,
        list.map((l) => l.seconds),
      );
      return { key, inputs, trace, track, definition, analysis, deviceLaps, list, fresh: false };
    }
    const analysis = analyzeTrack(trace, definition);
    analyses.set(key, analysis);
    const kept = await keepAnalysis(s, inputs, analysis, trace);
    return { key, inputs, trace, track, definition, ...kept, fresh: true };
  }

  /**
   * Keeps beside a session what the lists show of a fresh analysis of it: its ideal lap ('Minhas
   * sessões' and 'Evolução' show it without analysing) and its figures by its one lap list, so
   * every screen shows the same best lap (decision 028).
   */
  async function keepAnalysis(
    s: SessionAddress,
    inputs: Awaited<ReturnType<SessionReader['figureInputs']>>,
    analysis: TrackAnalysis,
    trace: LapColumns,
  ) {
    const deviceLaps = await inputs.laps();
    const list = listLaps(analysis.laps, trace, deviceLaps, isImportCollection(s.device));
    // The ideal lap by the times the list shows (never slower than its best lap).
    const shown = byShownTimes(
      analysis,
      list.map((l) => l.seconds),
    );
    await saveSessionIdeal(
      db,
      inputs.sessionId,
      shown.ideal.seconds === null ? null : Math.round(shown.ideal.seconds * 1000),
    );
    await keepListFigures(inputs, list, deviceLaps);
    return { deviceLaps, list, analysis: shown };
  }

  async function keepListFigures(
    inputs: { sessionId: string; files: { lapMd5: string; gpsMd5: string } },
    list: Parameters<typeof listFigures>[0],
    deviceLaps: Parameters<typeof listFigures>[1],
  ) {
    await settleLapFigures(
      db,
      inputs.sessionId,
      inputs.files,
      JSON.stringify(listFigures(list, deviceLaps)),
      FIGURES_VERSION,
    );
  }

  return {
    analyzed,
    keepListFigures,
    cached: () => analyses.size,

    /**
     * An import's analysis of the trace it just stored (`laps`: that trace's heat and lap columns),
     * kept as the session's first analysis would keep it: neither its first read nor the job that
     * follows its arrival analyses the same trace again.
     */
    async keepImported(s: SessionAddress, analysis: TrackAnalysis, laps: LapColumns): Promise<void> {
      await keepAnalysis(s, await reader.figureInputs(SYSTEM_VIEWER, s), analysis, laps);
    },

    async analysis(
      viewer: Viewer,
      s: SessionAddress,
      query: { lap?: number; reference?: number },
    ): Promise<TrackAnalysisResponse> {
      const { inputs, track, definition, analysis, deviceLaps, list } = await analyzed(viewer, s);
      const may = {
        renamable: track.source === 'derived' && mayRenameTrack(viewer, track),
        choosable: viewer.admin || inputs.ownerEmail === viewer.email,
      };
      return present(track, definition, analysis, list, deviceLaps, query, may);
    },

    /**
     * Two complete laps of one track, whatever their sessions (each read as its own viewer may:
     * a shared link's is read through the link), against position along the track's line.
     */
    async compare(a: LapAt, b: LapAt): Promise<CompareResponse> {
      const [one, other] = await Promise.all([analyzed(a.viewer, a.address), analyzed(b.viewer, b.address)]);
      if (one.track.id !== other.track.id) throw new AppError('track/different-tracks');
      const lap = lapByKey(one, a.lap);
      const reference = lapByKey(other, b.lap);
      const gridA = lapOnGrid(one.trace, continuousTime(one.trace), one.definition.line, lap.lap);
      const gridB = lapOnGrid(other.trace, continuousTime(other.trace), other.definition.line, reference.lap);
      const c = compareLaps(lap.lap, reference.lap, one.analysis.segments);
      const described = (at: LapAt, l: ReturnType<typeof lapByKey>) => ({
        track: at.address.track,
        date: at.address.date,
        device: at.shared ? null : at.address.device,
        heat: l.heat,
        number: l.number,
        seconds: l.seconds ?? l.gpsSeconds,
        shared: at.shared,
      });
      return {
        track: { id: one.track.id, name: one.track.name, lengthM: one.definition.line.length },
        lap: described(a, lap),
        reference: described(b, reference),
        x: gridA.x,
        speed: [gridA.speed, gridB.speed],
        lean: [gridA.lean, gridB.lean],
        delta: deltaOnGrid(gridA, gridB),
        corners: one.definition.corners.map(cornerOf),
        comparison: {
          deltaSeconds: shownGap(lap, reference, c.deltaSeconds),
          lapCorners: lap.lap.corners,
          referenceCorners: reference.lap.corners,
          segments: c.segments,
        },
      };
    },

    /** Each corner's best time in a session (its section, as in the ideal lap), and the track it is timed on. */
    async cornerBests(viewer: Viewer, s: SessionAddress) {
      const { track, analysis } = await analyzed(viewer, s);
      return {
        trackId: track.id,
        corners: analysis.sections.map((section, k) => ({
          corner: section.corner,
          seconds: analysis.ideal.sections[k]!.seconds,
        })),
      };
    },

    /** A session's laps as a shared link shows them: timed on its track, with the ideal lap and the corners. */
    async sharedSession(s: SessionAddress) {
      const { definition, analysis, list } = await analyzed(SYSTEM_VIEWER, s);
      const best = bestOf(list);
      const name = (k: number) => (list[k] ? `${list[k].heat}${list[k].number}` : '');
      return {
        // Pieces of one lap (a stop in a device's out-lap, a roll in the paddock before an import's)
        // are one row: its last, the one that reaches the line.
        laps: list
          .map((l, k) => {
            const timed = analysis.laps[k]!;
            return {
              heat: l.heat,
              number: l.number,
              seconds: l.seconds,
              kind: l.kind,
              complete: timed.complete,
              best: k === best,
              sectorSeconds: timed.complete ? timed.sectorSeconds : [],
              topKmh: timed.complete && timed.segmentTopKmh.length ? Math.max(...timed.segmentTopKmh) : null,
            };
          })
          .filter((_, k) => name(k) !== name(k + 1)),
        bestLapSeconds: best < 0 ? null : list[best]!.seconds,
        idealLapSeconds: analysis.ideal.seconds,
        corners: definition.corners.map(cornerOf),
        lengthM: definition.line.length,
      };
    },

    /** One complete lap of a shared session on the position grid, with its path for the map. */
    async sharedLap(s: SessionAddress, key: string | undefined) {
      const at = await analyzed(SYSTEM_VIEWER, s);
      const best = at.list[bestOf(at.list)];
      const chosen = lapByKey(at, key ?? (best ? `${best.heat}${best.number}` : ''));
      const grid = lapOnGrid(at.trace, continuousTime(at.trace), at.definition.line, chosen.lap);
      const path: [number, number][] = [];
      for (let i = chosen.lap.start.index; i <= chosen.lap.end.index; i += 5)
        path.push([round6(at.trace.lat[i]!), round6(at.trace.lon[i]!)]);
      return {
        heat: chosen.heat,
        number: chosen.number,
        seconds: chosen.seconds ?? chosen.gpsSeconds,
        x: grid.x,
        speed: grid.speed,
        lean: grid.lean,
        path,
      };
    },

    /** The outline of the track a session was ridden on (every ~10 m), for a link's preview image. */
    async outline(s: SessionAddress): Promise<[number, number][]> {
      const { definition } = await analyzed(SYSTEM_VIEWER, s);
      const line: [number, number][] = [];
      for (let k = 0; k < definition.line.x.length; k += 5) {
        const p = latLonAt(definition.line, k);
        line.push([p.lat, p.lon]);
      }
      return line;
    },
  };
}

export type TrackAnalyses = ReturnType<typeof createTrackAnalysis>;

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
