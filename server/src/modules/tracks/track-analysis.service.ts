// The analysis of a session's laps on the track it was ridden on (remembered per session version
// and track definition), and what is read from it: the track analysis, lap comparisons, a shared
// link's laps and map.
import type { Kysely } from 'kysely';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import { isImportCollection, type SessionAddress } from '#core/contracts/session-paths.ts';
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import { AppError } from '#core/errors.ts';
import { FIGURES_VERSION, listFigures } from '#core/laps/lap-math.ts';
import { bestOf, listLaps, type LapColumns } from '#core/laps/session-laps.ts';
import { deltaOnGrid, GRID_STEP_M, lapOnGrid } from '#core/tracks/lap-grid.ts';
import { coachingTips, type ReferenceName } from '#core/tracks/coaching-tips.ts';
import { studySession, type SessionStudy } from '#core/tracks/corner-study.ts';
import { compareLaps } from '#core/tracks/lap-comparison.ts';
import { coachLap, type CoachingReference } from '#core/tracks/lap-coaching.ts';
import type { CoachingResponse } from '#core/contracts/tracks.contract.ts';
import type { Language } from '#core/preferences.ts';
import type { Units } from '#core/units.ts';
import { translate } from '#server/lib/i18n.ts';
import { continuousTime } from '#core/tracks/lap-timing.ts';
import { analyzeTrack, type TrackAnalysis } from '#core/tracks/track-analysis.ts';
import { latLonAt } from '#core/tracks/track-line.ts';
import type { DB } from '#server/db/schema.ts';
import { LruCache } from '#server/lib/lru.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import { settleLapFigures, SYSTEM_VIEWER, type Viewer } from '../sessions/sessions.repository';
import type { TrackDefinitions } from './track-definitions.service';
import { decodeStudy, encodeStudy, STUDY_FILE, type KeptStudy } from './kept-studies';
import { cornerOf, lapByKey, present, shownGap } from './track-presentation';
import { saveSessionIdeal, trackOfSession } from './tracks.repository';

/** Analyses remembered (per session version and track definition), the least recently used forgotten first. */
const ANALYSES_KEPT = 100;

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
  const { mayRenameTrack, mayRideTrack } = deps.rules;
  const analyses = new LruCache<string, TrackAnalysis>(ANALYSES_KEPT);
  /** Each session's corner study, by the same key as its analysis (made by the analysis job, or a first read). */
  const studies = new LruCache<string, Studied>(ANALYSES_KEPT);

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
      return { key, inputs, trace, track, definition, analysis: known, deviceLaps, list, fresh: false };
    }
    const analysis = analyzeTrack(trace, definition);
    analyses.set(key, analysis);
    const kept = await keepAnalysis(s, inputs, analysis, trace);
    return { key, inputs, trace, track, definition, analysis, ...kept, fresh: true };
  }

  /**
   * A session's corner study (each lap measured corner by corner) with what a coaching read needs of
   * its analysis, by the analysis's key: a session studied already (by the job, on any instance) is
   * read without its trace, from its row, the track it is tied to and the study kept beside its files.
   */
  async function studied(viewer: Viewer, s: SessionAddress, mayCreateTrack = true): Promise<Studied> {
    const row = await reader.figureInputs(viewer, s);
    const tied = await trackOfSession(db, row.sessionId);
    if (tied && mayRideTrack(row.ownerEmail, tied)) {
      const key = `${row.sessionId}@${row.files.gpsMd5}@${row.files.lapMd5}#${tied.id}#${shapeOf(tied)}`;
      const known = studies.get(key) ?? (await keptStudy(row, tied.id, key));
      if (known) return known;
    }
    const at = await analyzed(viewer, s, mayCreateTrack);
    const known = studies.get(at.key);
    if (known) return known;
    const made: Studied = {
      key: at.key,
      ownerEmail: at.inputs.ownerEmail,
      track: at.track,
      corners: at.definition.corners,
      analysis: at.analysis,
      list: at.list,
      study: studySession(at.trace, at.definition, at.analysis),
    };
    studies.set(at.key, made);
    // Kept for the other instances (and this one's next start); a study not kept is made again there.
    await reader.keepDerivedFile(row.sessionId, STUDY_FILE, await encodeStudy(at.key, made)).catch(() => undefined);
    return made;
  }

  /** The study another instance (or this one before a restart) kept of this version of the session, if any. */
  async function keptStudy(
    row: { sessionId: string; ownerEmail: string },
    trackId: string,
    key: string,
  ): Promise<Studied | undefined> {
    const bytes = await reader.derivedFile(row.sessionId, STUDY_FILE).catch(() => undefined);
    const kept = bytes && (await decodeStudy(bytes, key));
    if (!kept) return undefined;
    const found: Studied = { ...kept, key, ownerEmail: row.ownerEmail, track: { id: trackId } };
    studies.set(key, found);
    return found;
  }

  /** The lap the rider rode fastest at this session's circuit, in any of the owner's sessions the viewer may read. */
  async function recordOf(viewer: Viewer, owner: string, s: SessionAddress) {
    let best: { address: SessionAddress; lap: string; ms: number } | undefined;
    for (const row of await reader.ownFigures(owner, s.track)) {
      const f = row.figures;
      if (f.bestLapMs === null || !f.bestLap || (best && best.ms <= f.bestLapMs)) continue;
      best = {
        address: { device: row.device, track: row.track, date: row.date },
        lap: `${f.bestLap.heat}${f.bestLap.lapCount}`,
        ms: f.bestLapMs,
      };
    }
    if (!best) throw new AppError('storage/object-not-found', 'No record at this track yet.');
    return { ...(await studied(viewer, best.address)), lapKey: best.lap, address: best.address };
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
    await saveSessionIdeal(
      db,
      inputs.sessionId,
      analysis.ideal.seconds === null ? null : Math.round(analysis.ideal.seconds * 1000),
    );
    const deviceLaps = await inputs.laps();
    const list = listLaps(analysis.laps, trace, deviceLaps, isImportCollection(s.device));
    await keepListFigures(inputs, list, deviceLaps);
    return { deviceLaps, list };
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
    studiesCached: () => studies.size,

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

    /**
     * Studies a session that just arrived (the analysis job), so that its coaching is a read.
     * A session the job cannot study (no trace, no track) is left to its first read.
     */
    async studyArrived(s: SessionAddress): Promise<void> {
      try {
        await studied(SYSTEM_VIEWER, s, false);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    },

    /**
     * A lap against its reference corner by corner (the session's study, made once), the three
     * tips in the rider's language and units, the ideal lap's pieces, the g-g points and profiles:
     * its version (everything the answer is made of: the studies' keys, the lap, the reference,
     * the units and the language), so that callers may keep one answer per version, and how to
     * build it.
     */
    async coaching(
      viewer: Viewer,
      s: SessionAddress,
      query: { lap?: string; ref: string; units: Units },
      language: Language,
    ): Promise<{ version: string; build: () => CoachingResponse }> {
      const at = await studied(viewer, s);
      const keyOf = (n: number | null) => {
        const k = n === null ? -1 : at.analysis.laps.findIndex((l) => l.number === n);
        return k < 0 ? null : `${at.list[k]!.heat}${at.list[k]!.number}`;
      };
      const best = bestOf(at.list);
      const lapKey = query.lap ?? (best < 0 ? '' : `${at.list[best]!.heat}${at.list[best]!.number}`);
      const lap = lapByKey(at, lapKey);
      let reference: CoachingReference;
      let name: ReferenceName;
      let session: SessionAddress | null = null;
      let refKey: string | null = null;
      let refStudyKey = at.key;
      if (query.ref === 'ideal') {
        if (at.study.ideal.seconds === null)
          throw new AppError('storage/object-not-found', 'This session has no ideal lap.');
        reference = { kind: 'ideal', study: at.study };
        name = { kind: 'ideal' };
      } else if (query.ref === 'record') {
        const record = await recordOf(viewer, at.ownerEmail, s);
        if (record.track.id !== at.track.id) throw new AppError('track/different-tracks');
        const refLap = lapByKey(record, record.lapKey);
        reference = { kind: 'lap', study: record.study, lap: refLap.lap.number, sameSession: record.key === at.key };
        name = { kind: 'record' };
        session = record.address;
        refKey = record.lapKey;
        refStudyKey = record.key;
      } else {
        const refLap = lapByKey(at, query.ref);
        reference = { kind: 'lap', study: at.study, lap: refLap.lap.number, sameSession: true };
        name = refLap.lap.number === at.analysis.bestLap ? { kind: 'best' } : { kind: 'lap', lap: query.ref };
        refKey = query.ref;
      }
      const study = coachLap(at.study, lap.lap.number, reference, at.corners);
      if (!study) throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
      const version = [at.key, lapKey, query.ref, refStudyKey, refKey, query.units, language].join('|');
      const build = (): CoachingResponse => {
        const studiedLap = at.study.laps.find((l) => l.number === lap.lap.number)!;
        const refGrid =
          reference.kind === 'lap'
            ? reference.study.laps.find((l) => l.number === reference.lap)!.grid
            : idealGrid(at.study, at.analysis);
        return {
          lap: lapKey,
          ref: query.ref,
          reference: { kind: study.reference.kind, lap: refKey, session, seconds: study.reference.seconds },
          deltaSeconds: study.deltaSeconds,
          timeAccuracyS: study.timeAccuracyS,
          hz: at.study.hz,
          leanSource: study.leanSource,
          corners: study.corners.map((c) => ({
            ...c,
            apex: at.corners.find((k) => k.number === c.corner)!.apex,
            referenceLap: (reference.kind === 'lap' ? refKey : keyOf(c.referenceLap)) ?? '',
          })),
          tips: coachingTips(study, translate(language), language, query.units, name),
          ideal: {
            seconds: at.study.ideal.seconds,
            laps: at.study.ideal.laps.map(keyOf),
            joins: at.analysis.ideal.joins.map((j) => ({ ...j, from: keyOf(j.from) ?? '', to: keyOf(j.to) ?? '' })),
          },
          gg: {
            lateral: studiedLap.gg.map((p) => p[0]),
            longitudinal: studiedLap.gg.map((p) => p[1]),
            envelope: at.study.ggEnvelope,
          },
          // Every PROFILE_EVERY-th point of the grid: a phone's chart is a few hundred pixels wide.
          profile: {
            stepM: GRID_STEP_M * PROFILE_EVERY,
            speed: [thinned(studiedLap.grid.speed), thinned(refGrid.speed)],
            lean: [thinned(studiedLap.grid.lean), thinned(refGrid.lean)],
          },
          lapStartMs: lap.lap.start.ms,
        };
      };
      return { version, build };
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

/** The coaching answer's profiles keep every this-many points of the 5 m grid. */
const PROFILE_EVERY = 2;
const thinned = <T>(values: readonly T[]) => values.filter((_, k) => k % PROFILE_EVERY === 0);

/** A session's corner study and what a coaching read needs beside it (no trace). */
interface Studied extends KeptStudy {
  key: string;
  ownerEmail: string;
  track: { id: string };
}

/** The ideal lap on the position grid: each section from the lap that gave it (their grids, in the study). */
function idealGrid(
  study: SessionStudy,
  analysis: TrackAnalysis,
): { speed: (number | null)[]; lean: (number | null)[] } {
  const length = study.laps[0]?.grid.speed.length ?? 0;
  const speed: (number | null)[] = [];
  const lean: (number | null)[] = [];
  for (let g = 0; g < length; g++) {
    const d = g * GRID_STEP_M;
    const section = analysis.sections.findIndex((s) => d >= s.fromM && d < s.toM);
    const n = analysis.ideal.sections[section < 0 ? analysis.sections.length - 1 : section]?.lap;
    const lap = n == null ? undefined : study.laps.find((l) => l.number === n);
    speed.push(lap?.grid.speed[g] ?? null);
    lean.push(lap?.grid.lean[g] ?? null);
  }
  return { speed, lean };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
