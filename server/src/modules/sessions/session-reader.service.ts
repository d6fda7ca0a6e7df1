// Reading the sessions a viewer may see: every read checks the viewer against the session's owner
// first, then answers from the index (laps, summary) or the GPS trace (session-gps.service.ts).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { lapsResponseSchema, summaryResponseSchema } from '#core/contracts/sessions.contract.ts';
import type { LineProblem } from '#core/formats/six-lines.ts';
import type { Units } from '#core/units.ts';
import { analyzeSession, FIGURES_VERSION } from '#core/laps/lap-math.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import { isImportCollection, type SessionAddress } from '#core/contracts/session-paths.ts';
import { createRiderSessions } from './rider-sessions.service';
import { createSessionFigures } from './session-figures.service';
import { createSessionGps } from './session-gps.service';
import { derivedKey, sessionKey } from './session-files';
import {
  findVisibleSession,
  listLaps,
  listVisibleDates,
  listVisibleTracks,
  viewerHasDevice,
  type SessionRow,
  type Viewer,
} from './sessions.repository';

export { MAX_JSON_SAMPLES } from './session-gps.service';

/**
 * Reading sessions the viewer may see: laps, GPS columns, analysis, exports. Every read checks
 * the viewer against the session's owner (the device's owner when it was recorded).
 */
export function createSessionReader(deps: { db: Kysely<DB>; blobs: BlobStore }) {
  const { db, blobs } = deps;
  const figures = createSessionFigures(db);
  const { figuresOf } = figures;
  const gps = createSessionGps(blobs);
  const { gpsColumns, analysisOf } = gps;

  async function requireVisible(viewer: Viewer, s: SessionAddress): Promise<SessionRow> {
    const row = await findVisibleSession(db, viewer, sessionKey(s.device, s.track, s.date));
    if (!row) throw new AppError('storage/object-not-found');
    return row;
  }

  /** What a session's figures are settled from besides its trace: its files' versions and its device laps. */
  function figureInputs(row: SessionRow) {
    return {
      sessionId: row.id,
      ownerEmail: row.owner_email,
      files: { lapMd5: row.lap_md5, gpsMd5: row.gps_md5 },
      laps: () => listLaps(db, row.id),
    };
  }

  return {
    // Figures kept by an older rule are settled through the tracks service (session-figures.service.ts).
    settleFiguresWith: figures.settleFiguresWith,
    keepLapSixFigures: figures.keepLapSixFigures,
    caches: gps.caches,

    /**
     * Whether the viewer may look at a device's sessions at all: admins, the demo device, its
     * current owner, or a previous owner who holds sessions on it.
     */
    async canSeeDevice(viewer: Viewer, deviceId: string): Promise<boolean> {
      // An import collection is its importer's alone: not even an admin's.
      if (isImportCollection(deviceId)) return viewerHasDevice(db, viewer.email, deviceId);
      return viewer.admin || deviceId === DEMO_DEVICE_ID || viewerHasDevice(db, viewer.email, deviceId);
    },

    /**
     * The session's id and owner, for one the viewer may see (404 otherwise); `settled`: its kept
     * figures follow the current rule for its files as they are.
     */
    async sessionOf(
      viewer: Viewer,
      s: SessionAddress,
    ): Promise<{ id: string; owner: string; samples: number; settled: boolean }> {
      const row = await requireVisible(viewer, s);
      return {
        id: row.id,
        owner: row.owner_email,
        samples: Number(row.sample_count),
        settled: row.lap_figures !== null && Number(row.figures_version) === FIGURES_VERSION,
      };
    },

    /** The versions of a session's two files ('' for one not there). */
    async sessionFiles(viewer: Viewer, s: SessionAddress): Promise<{ lapMd5: string; gpsMd5: string }> {
      const row = await requireVisible(viewer, s);
      return { lapMd5: row.lap_md5, gpsMd5: row.gps_md5 };
    },

    /** Whether the viewer may see this session (for a route to answer 404 before it validates a body). */
    async canSeeSession(viewer: Viewer, s: SessionAddress): Promise<boolean> {
      return (await findVisibleSession(db, viewer, sessionKey(s.device, s.track, s.date))) !== undefined;
    },

    async tracks(viewer: Viewer, deviceId: string) {
      return {
        device: deviceId,
        demo: deviceId === DEMO_DEVICE_ID,
        tracks: await listVisibleTracks(db, viewer, deviceId),
      };
    },

    async dates(viewer: Viewer, deviceId: string, track: string) {
      return { device: deviceId, track, dates: await listVisibleDates(db, viewer, deviceId, track) };
    },

    /**
     * A session's laps: its version (the answer depends on its lap.six and its kept figures, so
     * callers may keep one answer per version), its entity tag, and how to build the answer. Each
     * lap's kind, the best lap and the gaps follow the session's one lap list where it has one.
     */
    async laps(
      viewer: Viewer,
      s: SessionAddress,
    ): Promise<{ version: string; etag: string; build: () => Promise<z.infer<typeof lapsResponseSchema>> }> {
      const row = await requireVisible(viewer, s);
      const figures = await figuresOf(row);
      const build = async () => {
        const laps = await listLaps(db, row.id);
        const listed = figures.lapKinds?.length === laps.length ? figures.lapKinds : undefined;
        const a = analyzeSession(laps, listed);
        const best = listed ? figures.bestLap : undefined;
        const bestLapMs = listed ? figures.bestLapMs : a.bestLapMs;
        return {
          device: s.device,
          track: s.track,
          date: s.date,
          demo: s.device === DEMO_DEVICE_ID,
          laps: laps.map((lap, i) => ({
            lapCount: lap.lapCount,
            heat: lap.heat,
            lapTime: lap.lapTime,
            lapTimeMs: lap.lapTimeMs,
            lapSeconds: lap.lapSeconds,
            sectors: lap.sectors,
            sprintCount: lap.sprintCount,
            distanceM: lap.distanceM,
            kind: a.laps[i]!.kind,
            gapMs: a.laps[i]!.kind === 'partial' || bestLapMs === null ? null : lap.lapTimeMs - bestLapMs,
            isBest: listed ? best?.heat === lap.heat && best.lapCount === lap.lapCount : a.laps[i]!.isBest,
            bestSectors: a.laps[i]!.bestSectors,
          })),
          bestLapMs,
          bestSectorsMs: a.bestSectorsMs,
          theoreticalBestMs: a.theoreticalBestMs,
          warnings: JSON.parse(row.lap_problems) as LineProblem[],
        };
      };
      const kept = createHash('sha256')
        .update(
          `${row.lap_md5}|${JSON.stringify({ kinds: figures.lapKinds ?? null, best: figures.bestLap, ms: figures.bestLapMs })}`,
        )
        .digest('base64url')
        .slice(0, 22);
      return { version: `${row.id}@${kept}`, etag: row.lap_md5 ? kept : '', build };
    },

    /** The samples as JSON columns: every `step`-th sample, at most MAX_JSON_SAMPLES of them. */
    async gps(viewer: Viewer, s: SessionAddress) {
      return gps.gps(await requireVisible(viewer, s), s);
    },

    /** The gzipped binary columns, for the analytics screen (no parsing on the read path). */
    async gpsBinary(viewer: Viewer, s: SessionAddress): Promise<{ gzipped: Buffer; gpsMd5: string }> {
      const row = await requireVisible(viewer, s);
      const { gzipped } = await gpsColumns(row);
      return { gzipped, gpsMd5: row.gps_md5 };
    },

    async analysis(viewer: Viewer, s: SessionAddress) {
      const row = await requireVisible(viewer, s);
      return analysisOf(row, (await gpsColumns(row)).columns);
    },

    /**
     * What the track analysis reads of a session the viewer may see: its GPS columns, its device
     * laps, and a version that changes with either file.
     */
    async trackInputs(viewer: Viewer, s: SessionAddress) {
      const row = await requireVisible(viewer, s);
      return {
        ...figureInputs(row),
        ownerEmail: row.owner_email,
        version: `${row.id}@${row.gps_md5}@${row.lap_md5}`,
        columns: (await gpsColumns(row)).columns,
      };
    },

    /** `trackInputs` without the trace: for an analysis made elsewhere (an import's) to be kept. */
    async figureInputs(viewer: Viewer, s: SessionAddress) {
      return figureInputs(await requireVisible(viewer, s));
    },

    /**
     * A file made from a session's files and kept beside them (its id from `figureInputs`): not
     * durable, since whoever finds it missing or unreadable makes it again. Undefined where none is kept.
     */
    derivedFile: (sessionId: string, name: string) => blobs.get(derivedKey(sessionId, name)),
    async keepDerivedFile(sessionId: string, name: string, bytes: Buffer): Promise<void> {
      await blobs.put(derivedKey(sessionId, name), bytes, 'application/gzip', { durable: false });
    },

    /** CSV (RaceRender), GPX, or the raw six files, for the session or one lap (heat + lap number); streamed. */
    async export(
      viewer: Viewer,
      s: SessionAddress,
      format: 'csv' | 'gpx' | 'lap.six' | 'gps.six',
      lap?: { heat: string; lapCount: number },
      units?: Units,
    ) {
      return gps.export(await requireVisible(viewer, s), s, format, lap, units);
    },

    // A rider's own sessions (rider-sessions.service.ts).
    ...createRiderSessions({ db, figures }),

    async summary(viewer: Viewer, s: SessionAddress): Promise<z.infer<typeof summaryResponseSchema>> {
      const row = await requireVisible(viewer, s);
      const a = analyzeSession(await listLaps(db, row.id));
      const figures = await figuresOf(row);
      return {
        device: s.device,
        track: s.track,
        date: s.date,
        demo: s.device === DEMO_DEVICE_ID,
        lapCount: Number(row.lap_count),
        sampleCount: Number(row.sample_count),
        bestLapMs: figures.bestLapMs,
        theoreticalBestMs: figures.theoreticalBestMs,
        heats: a.heats,
        files: { lap: row.lap_md5 !== '', gps: row.gps_md5 !== '' },
        warnings: {
          lap: JSON.parse(row.lap_problems) as LineProblem[],
          gps: JSON.parse(row.gps_problems) as LineProblem[],
        },
        updatedAt: row.updated_at,
      };
    },
  };
}

export type SessionReader = ReturnType<typeof createSessionReader>;
