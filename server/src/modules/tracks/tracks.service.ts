import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { moveGateBodySchema, TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import type { CompareResponse } from '#core/contracts/progress.contract.ts';
import { deltaOnGrid, lapOnGrid } from '#core/tracks/lap-grid.ts';
import { continuousTime, type Trace } from '#core/tracks/lap-timing.ts';
import type { TrackGeometry } from '#core/sim/session-generator.ts';
import type { Gate } from '#core/tracks/gate.ts';
import { compareLaps } from '#core/tracks/lap-comparison.ts';
import { isImportCollection } from '#core/contracts/session-paths.ts';
import { bestOf, listLaps } from '#core/laps/session-laps.ts';
import { FIGURES_VERSION, listFigures, type LapFigures } from '#core/laps/lap-math.ts';
import { analyzeTrack, type TrackAnalysis, type TrackDefinition } from '#core/tracks/track-analysis.ts';
import { definitionFromOutline } from '#core/tracks/track-definition.ts';
import { latLonAt } from '#core/tracks/track-line.ts';
import { fitOutline, movingSamples } from '#core/tracks/track-match.ts';
import { catalogueStartFinish } from '#core/tracks/start-finish.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { LruCache } from '#server/lib/lru.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { TrackRules } from '#server/plugins/policy.ts';
import { recordAudit } from '../audit/audit.repository';
import type { SessionReader } from '../sessions/session-reader.service';
import { ownSessionFigures, settleLapFigures, unsettledFigures, type Viewer } from '../sessions/sessions.repository';
import type { TrackCatalogue } from './track-catalogue';
import { boxOf, circuitTrackFor, derivedTrackFor, fits } from './new-track';
import { cornerOf, lapByKey, present, shownGap, summaryOf } from './track-presentation';
import {
  findTrack,
  insertTrack,
  listTracks,
  saveSessionIdeal,
  setTrackOfSession,
  trackOfSession,
  tracksNear,
  updateTrack,
  type TrackRow,
} from './tracks.repository';

/** Known tracks looked at for a new trace: those within ~1 km of its middle (degrees). */
const NEAR_DEG = 0.01;
/** Analyses remembered (per session version and track definition), the least recently used forgotten first. */
const ANALYSES_KEPT = 100;
/** Track definitions remembered, one per track (its latest gates): a long derived track's is ~0.3 MB. */
const DEFINITIONS_KEPT = 100;
/**
 * Sessions analysed in the background as they arrive, up to this size (8 h at 10 Hz): a larger one
 * (a 100 MB day) would hold its whole trace in memory for it; its ideal lap comes with its first read.
 */
const BACKGROUND_MAX_SAMPLES = 300_000;
/** Sessions whose kept figures follow an older rule, settled at a time by the start-up sweep. */
const SETTLE_BATCH = 4;

/**
 * Tracks: which track a session was ridden on (a real circuit first: a bundled outline or a
 * catalogue circuit; then a derived track an admin shared; then one derived from the rider's own
 * traces, or a new one derived from this trace and kept as the rider's own), its definition, and
 * the analysis of a session's laps on it. Definitions and analyses are remembered (bounded) per
 * track definition, so an admin moving a gate recomputes every session at that track on its next
 * read, and a rename recomputes nothing.
 */
export function createTracksService(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  catalogue: () => TrackCatalogue;
  bundled: TrackGeometry[];
  /** Who may ride, rename and share which track (the policy's). */
  rules: TrackRules;
}) {
  const { db, reader } = deps;
  const { mayRideTrack, mayRenameTrack, maySetTrackShared } = deps.rules;
  // By track id: a track's newer gates replace its older definition (renames reuse it).
  const definitions = new LruCache<string, { shape: string; definition: TrackDefinition }>(DEFINITIONS_KEPT);
  const analyses = new LruCache<string, TrackAnalysis>(ANALYSES_KEPT);

  /** The outline a stored track follows, in its own point order ([] for a derived track: its line). */
  function outlineOf(row: TrackRow): [number, number][] {
    if (row.source === 'catalogue') return deps.catalogue().get(row.outline_id)?.outline ?? [];
    if (row.source === 'bundled') return deps.bundled.find((t) => t.name === row.outline_id)?.points ?? [];
    return JSON.parse(row.line) as [number, number][];
  }

  /** What a track's definition is made from besides its line (fixed per id): its gates and way round. */
  const shapeOf = (row: TrackRow) => `${row.forward}|${row.gate}|${row.sectors}`;

  function definitionOf(row: TrackRow): TrackDefinition {
    const shape = shapeOf(row);
    const known = definitions.get(row.id);
    if (known?.shape === shape) return known.definition;
    const definition = definitionFromOutline(
      outlineOf(row),
      JSON.parse(row.gate) as Gate,
      row.forward === 1,
      JSON.parse(row.sectors) as Gate[],
    );
    definitions.set(row.id, { shape, definition });
    return definition;
  }

  /** The known track among `rows` the trace fits best, if any. */
  function bestFit(trace: Trace, samples: number[], rows: TrackRow[]): TrackRow | undefined {
    let best: { row: TrackRow; score: number } | undefined;
    for (const row of rows) {
      const fit = fits(trace, outlineOf(row), samples);
      if (!fit || fit.forward !== (row.forward === 1)) continue;
      const score = fit.onShare * fit.coverage;
      if (!best || score > best.score) best = { row, score };
    }
    return best?.row;
  }

  /**
   * The track `owner`'s trace was ridden on, a real circuit before any derived track: a known
   * bundled or catalogue track; else a bundled outline or catalogue circuit (kept); else a derived
   * track an admin shared; else one derived from the owner's own traces; else a new one derived
   * from this trace (kept, the owner's own). Another rider's derived track is never looked at.
   * `mayCreate` false (a background analysis) keeps to known tracks: the catalogue is searched
   * only where a derived track fits, so that a real circuit still wins.
   */
  async function identify(trace: Trace, owner: string, mayCreate = true): Promise<TrackRow> {
    const samples = movingSamples(trace);
    if (samples.length < 10) throw new AppError('track/no-complete-lap');
    const mid = samples[Math.floor(samples.length / 2)]!;
    const near = (await tracksNear(db, trace.lat[mid]!, trace.lon[mid]!, NEAR_DEG, owner)).filter((row) =>
      mayRideTrack(owner, row),
    );
    const circuit = bestFit(
      trace,
      samples,
      near.filter((row) => row.source !== 'derived'),
    );
    if (circuit) return circuit;
    const derived =
      bestFit(
        trace,
        samples,
        near.filter((row) => row.source === 'derived' && row.shared === 1),
      ) ??
      bestFit(
        trace,
        samples,
        near.filter((row) => row.source === 'derived' && row.shared === 0),
      );
    if (derived || mayCreate) {
      const real = circuitTrackFor(trace, samples, owner, deps);
      if (real) {
        await insertTrack(db, real);
        return (await findTrack(db, real.id))!;
      }
    }
    if (derived) return derived;
    if (!mayCreate) throw new AppError('track/no-complete-lap', 'No known track fits this trace yet.');
    const fresh = derivedTrackFor(trace, owner);
    if (!fresh) throw new AppError('track/no-complete-lap');
    await insertTrack(db, fresh);
    return (await findTrack(db, fresh.id))!;
  }

  /** The track a session was ridden on, found (and remembered) on its first analysis. */
  async function trackFor(sessionId: string, owner: string, trace: Trace, mayCreate = true): Promise<TrackRow> {
    const known = await trackOfSession(db, sessionId);
    // One tied before tracks had owners to another rider's derived track is identified again.
    if (known && mayRideTrack(owner, known)) return known;
    const row = await identify(trace, owner, mayCreate);
    await setTrackOfSession(db, sessionId, row.id);
    return row;
  }

  /** A session's trace, the track it was ridden on, and the analysis of its laps there (remembered). */
  async function analyzed(viewer: Viewer, s: SessionAddress, mayCreateTrack = true) {
    const inputs = await reader.trackInputs(viewer, s);
    const trace = await inputs.columns();
    const track = await trackFor(inputs.sessionId, inputs.ownerEmail, trace, mayCreateTrack);
    const definition = definitionOf(track);
    const key = `${inputs.version}#${track.id}#${shapeOf(track)}`;
    let analysis = analyses.get(key);
    const fresh = !analysis;
    if (!analysis) {
      analysis = analyzeTrack(trace, definition);
      analyses.set(key, analysis);
      // Kept beside the session: 'Minhas sessões' and 'Evolução' show it without analysing.
      await saveSessionIdeal(
        db,
        inputs.sessionId,
        analysis.ideal.seconds === null ? null : Math.round(analysis.ideal.seconds * 1000),
      );
    }
    const deviceLaps = await inputs.laps();
    const list = listLaps(analysis.laps, trace, deviceLaps, isImportCollection(s.device));
    // Its figures by this list, kept beside it: every screen shows the same best lap (decision 028).
    if (fresh) await keepListFigures(inputs, list, deviceLaps);
    return { inputs, trace, track, definition, analysis, deviceLaps, list, fresh };
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

  /**
   * Keeps a session's figures by the current rule: by its one lap list where it has a trace timed at
   * a track Voltas knows, by the lap.six's rules where it has no trace or no such track. A trace
   * over BACKGROUND_MAX_SAMPLES is left as it is: its first analysis (a read) settles it.
   */
  async function settleFigures(s: SessionAddress): Promise<void> {
    const { id, samples } = await reader.sessionOf(SYSTEM, s);
    if (samples > BACKGROUND_MAX_SAMPLES) return;
    if (samples > 0) {
      try {
        // At a track Voltas knows only: a new one is found (the catalogue searched) on the first read.
        const at = await analyzed(SYSTEM, s, false);
        if (!at.fresh) await keepListFigures(at.inputs, at.list, at.deviceLaps);
        return;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    // No trace, or none timed at a known track: the lap.six's rules.
    await reader.keepLapSixFigures(id, await reader.sessionFiles(SYSTEM, s));
  }

  // One settling per session at a time: a list read by two riders at once analyses it once.
  const settling = new Map<string, Promise<void>>();
  function settleOnce(s: SessionAddress): Promise<void> {
    const key = `${s.device}/${s.track}/${s.date}`;
    let running = settling.get(key);
    if (!running) {
      running = settleFigures(s).finally(() => settling.delete(key));
      settling.set(key, running);
    }
    return running;
  }
  // The reader settles figures kept by an older rule on their next read, through this service.
  reader.settleFiguresWith(settleOnce);

  /** A settled session's owner, and its personal best if its best lap beats the rider's other sessions at that circuit. */
  async function arrived(s: SessionAddress): Promise<Arrived> {
    const { id, owner } = await reader.sessionOf(SYSTEM, s);
    let best: number | null = null;
    let before: number | null = null;
    for (const row of await ownSessionFigures(db, owner, s.track)) {
      const ms = row.lap_figures ? (JSON.parse(row.lap_figures) as LapFigures).bestLapMs : null;
      if (ms === null) continue;
      if (row.id === id) best = ms;
      else if (before === null || ms < before) before = ms;
    }
    return {
      owner,
      personalBest:
        best !== null && before !== null && best < before ? { lapTimeMs: best, previousMs: before } : undefined,
    };
  }

  return {
    /**
     * The track a trace (not yet a session: an import) was ridden on, with its definition; the
     * session is tied to it with `remember` once it exists.
     */
    async identify(trace: Trace, owner: string) {
      const row = await identify(trace, owner);
      return { id: row.id, name: row.name, source: row.source, definition: definitionOf(row) };
    },

    async remember(sessionId: string, trackId: string) {
      await setTrackOfSession(db, sessionId, trackId);
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
     * Analyses a session that just arrived, so that its ideal lap is there for the lists, and keeps
     * its figures by its one lap list (a session without a GPS trace, or none to time, keeps the
     * lap.six's). Callable from any scheduler.
     */
    async analyzeArrived(s: SessionAddress): Promise<Arrived | undefined> {
      try {
        await settleOnce(s);
        return await arrived(s);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return undefined;
      }
    },

    /**
     * Settles the figures of every stored session kept by an older rule, SETTLE_BATCH at a time
     * (each may analyse its trace), in the background after start-up; `stopped` ends it between
     * two batches. Returns how many were looked at.
     */
    async settleStoredFigures(stopped: () => boolean = () => false): Promise<number> {
      let after = '';
      let seen = 0;
      while (!stopped()) {
        const rows = await unsettledFigures(db, FIGURES_VERSION, SETTLE_BATCH, after);
        if (rows.length === 0) break;
        for (const row of rows) {
          await this.analyzeArrived({ device: row.device_id, track: row.track, date: row.date });
          seen++;
        }
        after = rows[rows.length - 1]!.id;
      }
      return seen;
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
      const { definition, analysis, list } = await analyzed(SYSTEM, s);
      const best = bestOf(list);
      return {
        laps: list.map((l, k) => ({
          heat: l.heat,
          number: l.number,
          seconds: l.seconds,
          kind: l.kind,
          complete: analysis.laps[k]!.complete,
          best: k === best,
        })),
        bestLapSeconds: best < 0 ? null : list[best]!.seconds,
        idealLapSeconds: analysis.ideal.seconds,
        corners: definition.corners.map(cornerOf),
        lengthM: definition.line.length,
      };
    },

    /** One complete lap of a shared session on the position grid, with its path for the map. */
    async sharedLap(s: SessionAddress, key: string | undefined) {
      const at = await analyzed(SYSTEM, s);
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
      const { definition } = await analyzed(SYSTEM, s);
      const line: [number, number][] = [];
      for (let k = 0; k < definition.line.x.length; k += 5) {
        const p = latLonAt(definition.line, k);
        line.push([p.lat, p.lon]);
      }
      return line;
    },

    /** Every track Voltas knows, with its number of sessions, and whose it is (admins). */
    async list() {
      const rows = await listTracks(db);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        source: r.source,
        version: Number(r.version),
        updatedAt: r.updated_at,
        sessions: Number(r.sessions),
        shared: Number(r.shared) === 1,
        createdBy: r.created_by,
      }));
    },

    /** A track's definition for the map: its gate, corners and line. */
    async track(id: string) {
      const row = await findTrack(db, id);
      if (!row) throw new AppError('storage/object-not-found');
      const definition = definitionOf(row);
      const line: [number, number][] = [];
      for (let k = 0; k < definition.line.x.length; k += 5) {
        const p = latLonAt(definition.line, k);
        line.push([p.lat, p.lon]);
      }
      return { ...summaryOf(row, definition), corners: definition.corners.map(cornerOf), line };
    },

    /**
     * Moves a track's start/finish gate, or one of its sector gates (1-based; the others keep
     * where they are shown now), for an admin: every session there is timed again on its next read.
     */
    async moveGate(actor: string, id: string, body: z.infer<typeof moveGateBodySchema>) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        if (!before) throw new AppError('storage/object-not-found');
        let change: { gate?: string; sectors?: string };
        if (body.sector === undefined) change = { gate: JSON.stringify(body.gate) };
        else {
          const sectors = definitionOf(before).sectors.map((s) => s.gate);
          if (body.sector > sectors.length)
            throw new AppError('storage/object-not-found', 'No such sector gate on this track.');
          sectors[body.sector - 1] = body.gate;
          change = { sectors: JSON.stringify(sectors) };
        }
        const after = (await updateTrack(trx, id, change, nowIso()))!;
        const what = body.sector === undefined ? 'gate' : `sector ${body.sector}`;
        await recordAudit(trx, {
          actor,
          action: 'move-track-gate',
          target: id,
          before: {
            [what]:
              body.sector === undefined ? JSON.parse(before.gate) : definitionOf(before).sectors[body.sector - 1]!.gate,
          },
          after: { [what]: body.gate },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    /** Renames a track: a derived one still their own by the rider whose session defined it, any by an admin. */
    async rename(viewer: Viewer, id: string, name: string) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        // Another rider's own track is not there for this rider, as for every route.
        if (!before || !(viewer.admin || mayRideTrack(viewer.email, before)))
          throw new AppError('storage/object-not-found');
        if (!mayRenameTrack(viewer, before)) throw new AppError('storage/unauthorized');
        const after = (await updateTrack(trx, id, { name }, nowIso()))!;
        await recordAudit(trx, {
          actor: viewer.email,
          action: 'rename-track',
          target: id,
          before: { name: before.name },
          after: { name },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    /**
     * The rider says which catalogue circuit a session was ridden on (where Voltas did not find
     * it, or found another layout): its owner or an admin. Driven the way the trace goes round it.
     */
    async choose(viewer: Viewer, s: SessionAddress, catalogueId: string) {
      const inputs = await reader.trackInputs(viewer, s);
      if (!viewer.admin && inputs.ownerEmail !== viewer.email) throw new AppError('storage/unauthorized');
      const circuit = deps.catalogue().get(catalogueId);
      if (!circuit) throw new AppError('storage/object-not-found', 'No such circuit in the catalogue.');
      const trace = await inputs.columns();
      const forward = fitOutline(trace, circuit.outline).forward;
      const id = `catalogue:${circuit.id}${forward ? '' : ':reverse'}`;
      const now = nowIso();
      await insertTrack(db, {
        id,
        name: circuit.name,
        source: 'catalogue',
        outline_id: circuit.id,
        forward: forward ? 1 : 0,
        gate: JSON.stringify(catalogueStartFinish(circuit.outline, circuit.startFinish, forward)),
        line: '[]',
        ...boxOf(circuit.outline),
        created_by: viewer.email,
        created_at: now,
        updated_at: now,
      });
      await setTrackOfSession(db, inputs.sessionId, id);
      const row = (await findTrack(db, id))!;
      return summaryOf(row, definitionOf(row));
    },

    /**
     * An admin makes a derived track everyone's (every rider's traces there may be matched to it
     * and named after it, and only admins rename it), or its creator's own again.
     */
    async setShared(actor: Viewer, id: string, shared: boolean) {
      return inTransaction(db, async (trx) => {
        const before = await findTrack(trx, id);
        if (!before) throw new AppError('storage/object-not-found');
        if (!maySetTrackShared(actor, before)) {
          throw new AppError(
            'storage/invalid-argument',
            'Only a track derived from a session can be shared or made its rider’s own again: catalogue and bundled tracks are everyone’s.',
            undefined,
            { id: 'tracks.shareRefused' },
          );
        }
        const after = (await updateTrack(trx, id, { shared: shared ? 1 : 0 }, nowIso()))!;
        await recordAudit(trx, {
          actor: actor.email,
          action: 'share-track',
          target: id,
          before: { shared: before.shared === 1 },
          after: { shared },
        });
        return summaryOf(after, definitionOf(after));
      });
    },

    /** Each remembered cache's size, by name (the `voltas_cache_entries` metric). */
    caches(): Record<string, () => number> {
      return { 'track-definitions': () => definitions.size, 'track-analyses': () => analyses.size };
    },

    search(q: string) {
      return {
        tracks: deps
          .catalogue()
          .search(q)
          .map((t) => ({
            id: t.id,
            name: t.name,
            shortName: t.shortName,
            startFinish: { lat: t.startFinish[0], lon: t.startFinish[1] },
          })),
      };
    },
  };
}

export type TracksService = ReturnType<typeof createTracksService>;

/** One lap to compare: a session read as `viewer` may, and the lap ('A3'); `shared` hides its device. */
export interface LapAt {
  viewer: Viewer;
  address: SessionAddress;
  lap: string;
  shared: boolean;
}

/** A session settled as it arrived: whose it is, and the record it beat (announced live to its rider). */
export interface Arrived {
  owner: string;
  personalBest: { lapTimeMs: number; previousMs: number } | undefined;
}

/** A shared link's session is read through the link (checked by the shares service), not as a person. */
const SYSTEM: Viewer = { email: '', admin: false, demoDeviceId: '', system: true };

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
