import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  gpsResponseSchema,
  lapsResponseSchema,
  summaryResponseSchema,
} from '#core/contracts/sessions.contract.ts';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { gpxChunks, raceRenderCsvChunks } from '#core/formats/exports.ts';
import { decodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import { HEATS, type LineProblem } from '#core/formats/six-lines.ts';
import { msToGpsTime } from '#core/formats/gps-six.ts';
import { type GpsColumns } from '#core/formats/gps-columns.ts';
import { analyzeSession, FIGURES_VERSION, lapFigures, type LapFigures } from '#core/laps/lap-math.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { LruCache } from '#server/lib/lru.ts';
import { ColumnSpool, parseStoredGps } from './column-spool';
import { isImportCollection, type SessionAddress } from '#core/contracts/session-paths.ts';
import { gpsColumnsKey, sessionKey } from './session-files';
import { circuitKey, circuitList, circuitOf } from './circuits';
import {
  findSession,
  findVisibleSession,
  listOwnCircuits,
  latestVisibleSession,
  listLaps,
  listOwnSessions,
  ownSessionFigures,
  saveLapFigures,
  settleLapFigures,
  listOwnTracks,
  listVisibleDates,
  listVisibleTracks,
  viewerHasDevice,
  type SessionRow,
  type Viewer,
} from './sessions.repository';

/**
 * The JSON samples answer holds at most this many samples, evenly spaced over the session (a
 * day at 10 Hz is ~110k): arrays of millions of numbers in JSON would hold the event loop for
 * seconds. Full resolution is the binary columns (gps.bin).
 */
export const MAX_JSON_SAMPLES = 25_000;
/** Analyses remembered per process (one per gps.six version read). */
const ANALYSES_KEPT = 200;
const CHECKS_KEPT = 10_000;
const gunzipAsync = promisify(gunzip);

function isReadableColumns(gzipped: Buffer): boolean {
  try {
    decodeGpsColumns(new Uint8Array(gunzipSync(gzipped)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reading sessions the viewer may see: laps, GPS columns, analysis, exports. Every read checks
 * the viewer against the session's owner (the device's owner when it was recorded).
 */
export function createSessionReader(deps: { db: Kysely<DB>; blobs: BlobStore; demoDeviceId: string }) {
  const { db, blobs } = deps;
  // Derived GPS blobs checked readable once per session version and process (not per read); the
  // latest CHECKS_KEPT versions are remembered (a key is ~60 bytes), the others checked again.
  const checkedColumns = new LruCache<string, true>(CHECKS_KEPT);
  const analyses = new LruCache<string, ReturnType<typeof analyzeGps>>(ANALYSES_KEPT);

  /** Settles a session's figures by the current rule (the tracks service's: its one lap list where it has one). */
  let settle: ((s: SessionAddress) => Promise<void>) | undefined;

  type FiguresRow = {
    id: string;
    device_id: string;
    track: string;
    date: string;
    lap_figures: string | null;
    figures_version: number | null;
  };

  /**
   * A session's kept lap figures. A row kept by an older rule (or not settled since a file
   * arrived) is settled first; where that cannot be done now (no settler, a trace too long to
   * analyse on a list's read) the lap.six's figures stand in, kept, until it is.
   */
  async function figuresOf(row: FiguresRow): Promise<LapFigures> {
    if (row.lap_figures && Number(row.figures_version) === FIGURES_VERSION)
      return JSON.parse(row.lap_figures) as LapFigures;
    if (settle) {
      // Settling is the read's extra, never its condition: a session that cannot be analysed now
      // (no track, the file store or the disk away) keeps the figures it has, and the read goes on.
      await settle({ device: row.device_id, track: row.track, date: row.date }).catch(() => undefined);
      const now = await findSession(db, row.id);
      if (now?.lap_figures && Number(now.figures_version) === FIGURES_VERSION)
        return JSON.parse(now.lap_figures) as LapFigures;
      if (now?.lap_figures) return JSON.parse(now.lap_figures) as LapFigures;
    }
    if (row.lap_figures) return JSON.parse(row.lap_figures) as LapFigures;
    const figures = lapFigures(await listLaps(db, row.id));
    await saveLapFigures(db, row.id, JSON.stringify(figures)).catch(() => undefined); // kept next time, if not now (a full disk)
    return figures;
  }

  /** Figures of several rows: one at a time (settling one may analyse its trace). */
  async function figuresOfAll(rows: readonly FiguresRow[]): Promise<LapFigures[]> {
    const out: LapFigures[] = [];
    for (const row of rows) out.push(await figuresOf(row));
    return out;
  }

  async function requireVisible(viewer: Viewer, s: SessionAddress): Promise<SessionRow> {
    const row = await findVisibleSession(db, viewer, sessionKey(s.device, s.track, s.date));
    if (!row) throw new AppError('storage/object-not-found');
    return row;
  }

  /** The session's GPS columns; rebuilt from gps.six (and stored) if the derived blob is missing. */
  async function gpsColumns(row: SessionRow): Promise<{ gzipped: Buffer; columns: () => Promise<GpsColumns> }> {
    if (!row.gps_md5) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
    const version = `${row.id}@${row.gps_md5}`;
    const derivedKey = gpsColumnsKey(row.id, row.gps_md5);
    let gzipped = await blobs.get(derivedKey);
    if (gzipped && !checkedColumns.has(version)) {
      if (isReadableColumns(gzipped)) checkedColumns.set(version, true);
      else gzipped = undefined;
    }
    if (!gzipped) {
      const spool = new ColumnSpool(await blobs.tempPath());
      try {
        const summary = await parseStoredGps(blobs, `${row.id}/gps.six`, spool);
        if (!summary || summary.rejection)
          throw new AppError('storage/object-not-found', 'This session has no GPS file.');
        await spool.store(blobs, derivedKey);
      } finally {
        await spool.dispose();
      }
      gzipped = await blobs.get(derivedKey);
      if (!gzipped) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
      checkedColumns.set(version, true);
    }
    const bytes = gzipped;
    // Inflated off the event loop (a long session's columns are tens of MB).
    return { gzipped: bytes, columns: async () => decodeGpsColumns(new Uint8Array(await gunzipAsync(bytes))) };
  }

  /** The session's GPS analysis, once per gps.six version and process. */
  async function analysisOf(
    row: SessionRow,
    columns: () => Promise<GpsColumns>,
  ): Promise<ReturnType<typeof analyzeGps>> {
    const version = `${row.id}@${row.gps_md5}`;
    const known = analyses.get(version);
    if (known) return known;
    const fresh = analyzeGps(await columns());
    analyses.set(version, fresh);
    return fresh;
  }

  return {
    /** Who settles figures kept by an older rule (the tracks service, which is made after the reader). */
    settleFiguresWith(fn: (s: SessionAddress) => Promise<void>): void {
      settle = fn;
    },

    /** A session's figures by the lap.six's rules, kept as settled (no trace, or none timed at a track). */
    async keepLapSixFigures(sessionId: string, files: { lapMd5: string; gpsMd5: string }): Promise<void> {
      await settleLapFigures(
        db,
        sessionId,
        files,
        JSON.stringify(lapFigures(await listLaps(db, sessionId))),
        FIGURES_VERSION,
      );
    },

    /** Each remembered cache's size, by name (the `voltas_cache_entries` metric). */
    caches(): Record<string, () => number> {
      return { 'gps-column-checks': () => checkedColumns.size, 'gps-analyses': () => analyses.size };
    },

    /**
     * Whether the viewer may look at a device's sessions at all: admins, the demo device, its
     * current owner, or a previous owner who holds sessions on it.
     */
    async canSeeDevice(viewer: Viewer, deviceId: string): Promise<boolean> {
      // An import collection is its importer's alone: not even an admin's.
      if (isImportCollection(deviceId)) return viewerHasDevice(db, viewer.email, deviceId);
      return viewer.admin || deviceId === deps.demoDeviceId || viewerHasDevice(db, viewer.email, deviceId);
    },

    /** Whether the viewer may see this session (for a route to answer 404 before it validates a body). */
    /** The session's id and owner, for one the viewer may see (404 otherwise). */
    async sessionOf(viewer: Viewer, s: SessionAddress): Promise<{ id: string; owner: string; samples: number }> {
      const row = await requireVisible(viewer, s);
      return { id: row.id, owner: row.owner_email, samples: Number(row.sample_count) };
    },

    /** The versions of a session's two files ('' for one not there). */
    async sessionFiles(viewer: Viewer, s: SessionAddress): Promise<{ lapMd5: string; gpsMd5: string }> {
      const row = await requireVisible(viewer, s);
      return { lapMd5: row.lap_md5, gpsMd5: row.gps_md5 };
    },

    async canSeeSession(viewer: Viewer, s: SessionAddress): Promise<boolean> {
      return (await findVisibleSession(db, viewer, sessionKey(s.device, s.track, s.date))) !== undefined;
    },

    async tracks(viewer: Viewer, deviceId: string) {
      return {
        device: deviceId,
        demo: deviceId === deps.demoDeviceId,
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
          demo: s.device === deps.demoDeviceId,
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
    async gps(viewer: Viewer, s: SessionAddress): Promise<z.infer<typeof gpsResponseSchema>> {
      const row = await requireVisible(viewer, s);
      const c = await (await gpsColumns(row)).columns();
      const step = Math.max(1, Math.ceil(c.count / MAX_JSON_SAMPLES));
      const picked = Array.from({ length: Math.ceil(c.count / step) }, (_, k) => k * step);
      const pick = <T>(column: ArrayLike<number>, as: (v: number) => T) => picked.map((i) => as(column[i]!));
      const same = (v: number) => v;
      return {
        device: s.device,
        track: s.track,
        date: s.date,
        count: picked.length,
        totalCount: c.count,
        step,
        columns: {
          latitude: pick(c.lat, same),
          longitude: pick(c.lon, same),
          strSpeedGps: pick(c.speed, same),
          strSatGps: pick(c.satellites, same),
          timeGps: pick(c.timeMs, msToGpsTime),
          lapCount: pick(c.lapCount, same),
          bFirstLap: pick(c.firstLap, same),
          strBateria: pick(c.heat, (h) => HEATS[h]!),
          roll: pick(c.roll, same),
          leanFiltered: pick(c.leanFiltered, same),
          meterSum: pick(c.meterSum, same),
        },
        warnings: JSON.parse(row.gps_problems) as LineProblem[],
      };
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
        sessionId: row.id,
        ownerEmail: row.owner_email,
        version: `${row.id}@${row.gps_md5}@${row.lap_md5}`,
        files: { lapMd5: row.lap_md5, gpsMd5: row.gps_md5 },
        columns: (await gpsColumns(row)).columns,
        laps: () => listLaps(db, row.id),
      };
    },

    /** CSV (RaceRender), GPX, or the raw six files, for the session or one lap (heat + lap number); streamed. */
    async export(
      viewer: Viewer,
      s: SessionAddress,
      format: 'csv' | 'gpx' | 'lap.six' | 'gps.six',
      lap?: { heat: string; lapCount: number },
    ) {
      const row = await requireVisible(viewer, s);
      const base = `${s.device}_${s.track}_${s.date}`.replace(/[^\p{L}\p{N}_.-]+/gu, '-');
      if (format === 'lap.six' || format === 'gps.six') {
        // Streamed out as stored (a gps.six may be large).
        const src = (format === 'lap.six' ? row.lap_md5 : row.gps_md5)
          ? await blobs.getStream(`${row.id}/${format}`)
          : undefined;
        if (!src) throw new AppError('storage/object-not-found');
        return {
          body: src.body,
          size: src.size,
          contentType: 'text/plain; charset=utf-8',
          filename: `${base}_${format}`,
        };
      }
      const c = await (await gpsColumns(row)).columns();
      let range = { start: 0, end: c.count };
      let suffix = '';
      if (lap) {
        const seg = (await analysisOf(row, async () => c)).laps.find(
          (l) => l.heat === lap.heat && l.lapCount === lap.lapCount,
        );
        if (!seg) throw new AppError('storage/object-not-found', 'No such lap in this session.');
        range = seg;
        suffix = `_${lap.heat}${lap.lapCount}`;
      }
      // Streamed piece by piece as the client reads (see EXPORT_ROWS_PER_CHUNK).
      if (format === 'csv')
        return {
          body: Readable.from(raceRenderCsvChunks(c, range)),
          contentType: 'text/csv; charset=utf-8',
          filename: `${base}${suffix}.csv`,
        };
      const name = `${s.track} ${s.date.slice(0, 2)}/${s.date.slice(2, 4)}/${s.date.slice(4)}${suffix ? ` ${suffix.slice(1)}` : ''}`;
      return {
        body: Readable.from(gpxChunks(c, { name, date: s.date }, range)),
        contentType: 'application/gpx+xml; charset=utf-8',
        filename: `${base}${suffix}.gpx`,
      };
    },

    /**
     * 'Minhas sessões': a page of the viewer's own sessions, newest first, and the tracks to
     * filter by. The cursor is the last row's date and id (opaque to the client; a tampered one
     * is a 400).
     */
    async mySessions(viewer: Viewer, q: { track?: string | undefined; after?: string | undefined; limit: number }) {
      let after: { dateIso: string; id: string } | undefined;
      if (q.after) {
        try {
          const [dateIso, id] = JSON.parse(Buffer.from(q.after, 'base64url').toString('utf8')) as [unknown, unknown];
          if (typeof dateIso !== 'string' || typeof id !== 'string') throw new Error('cursor');
          after = { dateIso, id };
        } catch {
          throw new AppError('storage/invalid-argument', 'Invalid cursor: pass the `next` of the previous page.', {
            after: 'invalid',
          });
        }
      }
      const rows = await listOwnSessions(db, viewer.email, { track: q.track, after, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const figures = await figuresOfAll(page);
      const known = await listOwnCircuits(db, viewer.email);
      const circuit = circuitOf(known);
      return {
        sessions: page.map((r, k) => ({
          device: r.device_id,
          track: r.track,
          circuit: circuit(r),
          date: r.date,
          imported: isImportCollection(r.device_id),
          bestLapMs: figures[k]!.bestLapMs,
          idealLapMs: r.ideal_ms === null ? null : Number(r.ideal_ms),
          theoreticalBestMs: figures[k]!.theoreticalBestMs,
          consistencyMs: figures[k]!.consistencyMs,
          laps: Number(r.lap_count),
          heats: figures[k]!.heats,
          updatedAt: r.updated_at,
        })),
        next:
          rows.length > q.limit && last
            ? Buffer.from(JSON.stringify([last.date_iso, last.id])).toString('base64url')
            : null,
        tracks: await listOwnTracks(db, viewer.email),
        circuits: circuitList(known),
      };
    },

    /**
     * The rider's own sessions (devices and imports; at the circuit a track name stands for, or
     * all), oldest first, each with its circuit and lap figures: what personal bests and progress are made of.
     */
    async ownFigures(email: string, track?: string) {
      const known = await listOwnCircuits(db, email);
      const circuit = circuitOf(known);
      let rows = await ownSessionFigures(db, email, track);
      if (track !== undefined) {
        // A name two circuits' sessions carry stands for the one its latest session was ridden on.
        const named = rows.filter((r) => r.track === track).at(-1);
        const key = named ? circuitKey(circuit(named)) : undefined;
        rows = rows.filter((r) => circuitKey(circuit(r)) === key);
      }
      const figures = await figuresOfAll(rows);
      return rows.map((r, k) => ({
        id: r.id,
        device: r.device_id,
        track: r.track,
        circuit: circuit(r),
        date: r.date,
        dateIso: r.date_iso,
        figures: figures[k]!,
        idealLapMs: r.ideal_ms === null ? null : Number(r.ideal_ms),
      }));
    },

    /** The most recently updated session the viewer may see (for the home screen). */
    async latest(viewer: Viewer) {
      const row = await latestVisibleSession(db, viewer);
      return row
        ? {
            device: row.device_id,
            track: row.track,
            date: row.date,
            updatedAt: row.updated_at,
            demo: row.device_id === deps.demoDeviceId,
          }
        : null;
    },

    async summary(viewer: Viewer, s: SessionAddress): Promise<z.infer<typeof summaryResponseSchema>> {
      const row = await requireVisible(viewer, s);
      const a = analyzeSession(await listLaps(db, row.id));
      const figures = await figuresOf(row);
      return {
        device: s.device,
        track: s.track,
        date: s.date,
        demo: s.device === deps.demoDeviceId,
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
