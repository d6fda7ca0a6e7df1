import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gunzip, gunzipSync, gzipSync } from 'node:zlib';
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { lapsResponseSchema, type gpsResponseSchema, type summaryResponseSchema, type uploadResponseSchema } from '../../../../core/contracts/sessions.contract';
import { ddmmyyyyToIso, isDdmmyyyy, isValidTrackName } from '../../../../core/formats/dates';
import { decodeSixBody, GpsSixStream, HEATS, msToGpsTime, parseLapSix, type GpsColumns, type GpsStreamSummary, type Lap, type LineProblem } from '../../../../core/formats/six-format';
import { decodeGpsColumns } from '../../../../core/formats/gps-columns-codec';
import { analyzeSession } from '../../../../core/laps/lap-math';
import { analyzeGps } from '../../../../core/analysis/gps-analysis';
import { gpxChunks, raceRenderCsvChunks } from '../../../../core/formats/exports';
import { AppError } from '../../../../core/errors';
import type { BlobStore } from '../../blobs/blob-store';
import type { Coordination } from '../../db/coordination';
import type { DB } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { nowIso } from '../../lib/tokens';
import { ColumnSpool } from './column-spool';
import {
  findSession, findVisibleSession, indexSessionFile, latestVisibleSession, listLaps, listVisibleDates, listVisibleTracks, type SessionRow, type Viewer,
} from './sessions.repository';

export type SixKind = 'lap' | 'gps';
export const SIX_FILE: Record<SixKind, string> = { lap: 'lap.six', gps: 'gps.six' };
/**
 * Upload limits: a lap.six is a few kB; a gps.six of 3 h at 25 Hz is about 20 MB. A gps.six
 * streams through (memory stays flat whatever its size), so its limit is generous.
 */
export const MAX_UPLOAD_BYTES: Record<SixKind, number> = { lap: 2 * 1024 * 1024, gps: 128 * 1024 * 1024 };
/**
 * The JSON samples answer holds at most this many samples, evenly spaced over the session (a
 * day at 10 Hz is ~110k): arrays of millions of numbers in JSON would hold the event loop for
 * seconds. Full resolution is the binary columns (gps.bin).
 */
export const MAX_JSON_SAMPLES = 25_000;
const gunzipAsync = promisify(gunzip);

/**
 * A session's laps answer, serialized and compressed once per lap.six version: gzip at once,
 * Brotli (a third smaller) in the background, used as soon as it is there.
 */
export interface LapsAnswer {
  json: string;
  gzipped: Buffer;
  brotli?: Buffer;
  etag: string;
}

/**
 * Brotli at its strongest, off the event loop (~50 ms for 90 laps, once per version), with a
 * window the size of the answer, not the default 4 MB: less native memory per compression.
 */
function addBrotli(answer: LapsAnswer): void {
  const size = Buffer.byteLength(answer.json);
  const params = {
    [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
    [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    [zlibConstants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(size + 1)))),
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
  };
  brotliCompress(answer.json, { params }, (err, out) => {
    if (!err) answer.brotli = out; // on error gzip simply stays in use
  });
}

/**
 * Refuses what is not a six text file at all, without decoding it: empty, NUL bytes (binary,
 * UTF-16), or invalid UTF-8 (native check). Same rules as core's decodeSixBody.
 */
function rejectNonSixBody(body: Buffer): string | undefined {
  if (body.length === 0) return 'empty';
  if (body.includes(0)) return 'binary';
  if (!isUtf8(body)) return 'invalidUtf8';
  return undefined;
}

/**
 * Parsed GPS columns, gzipped, derived from one exact gps.six: the name carries that file's md5,
 * so a reader can never get columns of another version. Hidden ('.derived') from listings.
 */
export function gpsColumnsKey(sessionId: string, gpsMd5: string): string {
  return `${sessionId}/.derived/gps-${Buffer.from(gpsMd5, 'base64').toString('hex')}.cols.gz`;
}

export function sessionKey(deviceId: string, track: string, date: string): string {
  return `${deviceId}/${track}/${date}`;
}

export interface SessionEvent {
  type: 'session-updated';
  deviceId: string;
  track: string;
  date: string;
  owner: string;
}

/** Validates what becomes part of a storage key: 400 with a clear reason. */
export function assertSessionAddress(track: string, date: string): void {
  if (!isValidTrackName(track)) throw new AppError('storage/invalid-argument', 'Invalid track name: 1-64 letters, digits, spaces, "-", "_" or "."; no "/", ".." or control characters.');
  if (!isDdmmyyyy(date)) throw new AppError('storage/invalid-argument', 'Invalid date: expected a real calendar date as ddmmyyyy.');
}

interface ParsedSix {
  lines: number;
  indexed: number;
  problems: LineProblem[];
  laps?: Lap[];
}

function parseLap(text: string): ParsedSix {
  const r = parseLapSix(text);
  return { lines: r.lines, indexed: r.value.length, problems: r.problems, laps: r.value };
}

function notASixFile(kind: SixKind, rejection: string): AppError {
  return new AppError('storage/invalid-format', `Not a ${SIX_FILE[kind]} file (${rejection}); nothing was stored.`);
}

/** A body already in memory, in the chunk sizes a socket would bring (bounded parse batches). */
function* slices(buf: Buffer, size = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/**
 * Receives a gps.six body into `file` chunk by chunk: MD5, size limit, the whole-body checks and
 * the line parse all happen on the way, parsed columns go to `spool`; nothing holds the body.
 */
async function receiveGps(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, file: string, spool: ColumnSpool): Promise<{ size: number; md5: string; summary: GpsStreamSummary }> {
  const hash = createHash('md5');
  const parser = new GpsSixStream((c) => spool.add(c), isUtf8);
  const out = await fs.open(file, 'w', 0o600);
  let size = 0;
  // Socket chunks are small (64 kB): written in runs of about 1 MB, each while the next is parsed.
  let run: Uint8Array[] = [];
  let runBytes = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    await writing;
    writing = out.writev(run);
    run = [];
    runBytes = 0;
  };
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_UPLOAD_BYTES.gps) throw new AppError('storage/server-file-wrong-size', `gps.six is limited to ${MAX_UPLOAD_BYTES.gps} bytes; nothing was stored.`);
      hash.update(chunk);
      parser.push(chunk);
      run.push(chunk);
      runBytes += chunk.length;
      if (runBytes >= 1 << 20) await flush();
    }
    await flush();
    await writing;
  } finally {
    await writing.catch(() => undefined);
    await out.close();
  }
  return { size, md5: hash.digest('base64'), summary: parser.end() };
}

function isReadableColumns(gzipped: Buffer): boolean {
  try {
    decodeGpsColumns(new Uint8Array(gunzipSync(gzipped)));
    return true;
  } catch {
    return false;
  }
}

function isSessionEvent(x: unknown): x is SessionEvent {
  const e = x as Partial<SessionEvent> | null;
  return !!e && e.type === 'session-updated' && typeof e.deviceId === 'string' && typeof e.track === 'string' && typeof e.date === 'string' && typeof e.owner === 'string';
}

export function createSessionsService(deps: { db: Kysely<DB>; blobs: BlobStore; coordination: Coordination; demoDeviceId: string }) {
  const { db, blobs, coordination } = deps;
  // Session events of every instance (the coordination bus), re-emitted here for the live routes.
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const unsubscribe = coordination.subscribe((payload) => {
    if (isSessionEvent(payload)) events.emit('session', payload);
  });
  // Serialized laps answers by `${session id}@${lap md5}`: the same file always gives the same answer.
  const lapsJsonCache = new Map<string, LapsAnswer>();
  const LAPS_CACHE_MAX = 200;
  // Derived GPS blobs checked readable once per session version and process (not per read).
  const checkedColumns = new Set<string>();
  const analysisCache = new Map<string, ReturnType<typeof analyzeGps>>();
  const remember = <V>(cache: Map<string, V>, key: string, value: V) => {
    if (cache.size >= LAPS_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
    return value;
  };

  async function requireVisible(viewer: Viewer, deviceId: string, track: string, date: string): Promise<SessionRow> {
    const row = await findVisibleSession(db, viewer, sessionKey(deviceId, track, date));
    if (!row) throw new AppError('storage/object-not-found');
    return row;
  }

  /** Derived data built after the upload answered; awaited on close so a clean stop loses none. */
  const pendingDerived = new Set<Promise<unknown>>();
  function deriveInBackground(id: string, md5: string, previousMd5: string | undefined, spool: ColumnSpool): void {
    const task = spool
      .store(blobs, gpsColumnsKey(id, md5))
      .then(async () => {
        if (previousMd5 && previousMd5 !== md5) await blobs.delete(gpsColumnsKey(id, previousMd5));
      })
      .catch(() => undefined) // a reader rebuilds it from gps.six
      .finally(() => {
        pendingDerived.delete(task);
        return spool.dispose();
      });
    pendingDerived.add(task);
  }

  /** Parses a stored gps.six as a stream (bounded memory), its columns into `spool` when given. */
  async function parseStoredGps(key: string, spool?: ColumnSpool): Promise<GpsStreamSummary | undefined> {
    const src = await blobs.getStream(key);
    if (!src) return undefined;
    const parser = new GpsSixStream(spool ? (c) => spool.add(c) : undefined, isUtf8);
    for await (const chunk of src.body) parser.push(chunk);
    return parser.end();
  }

  /** The session's GPS columns; rebuilt from gps.six (and stored) if the derived blob is missing. */
  async function gpsColumns(row: SessionRow): Promise<{ gzipped: Buffer; columns: () => Promise<GpsColumns> }> {
    if (!row.gps_md5) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
    const version = `${row.id}@${row.gps_md5}`;
    const derivedKey = gpsColumnsKey(row.id, row.gps_md5);
    let gzipped = await blobs.get(derivedKey);
    if (gzipped && !checkedColumns.has(version)) {
      if (isReadableColumns(gzipped)) checkedColumns.add(version);
      else gzipped = undefined;
    }
    if (!gzipped) {
      const spool = new ColumnSpool(await blobs.tempPath());
      try {
        const summary = await parseStoredGps(`${row.id}/gps.six`, spool);
        if (!summary || summary.rejection) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
        await spool.store(blobs, derivedKey);
      } finally {
        await spool.dispose();
      }
      gzipped = await blobs.get(derivedKey);
      if (!gzipped) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
      checkedColumns.add(version);
    }
    const bytes = gzipped;
    // Inflated off the event loop (a long session's columns are tens of MB).
    return { gzipped: bytes, columns: async () => decodeGpsColumns(new Uint8Array(await gunzipAsync(bytes))) };
  }

  /** The session's GPS analysis, once per gps.six version and process. */
  async function analysisOf(row: SessionRow, columns: () => Promise<GpsColumns>): Promise<ReturnType<typeof analyzeGps>> {
    const version = `${row.id}@${row.gps_md5}`;
    return analysisCache.get(version) ?? remember(analysisCache, version, analyzeGps(await columns()));
  }

  async function commitIndex(
    address: { deviceId: string; track: string; date: string; owner: string },
    kind: SixKind,
    key: string,
    md5: string,
    size: number,
    parsed: ParsedSix,
  ): Promise<void> {
    const id = sessionKey(address.deviceId, address.track, address.date);
    await inTransaction(db, async (trx) => {
      await indexSessionFile(
        trx,
        { id, deviceId: address.deviceId, track: address.track, date: address.date, dateIso: ddmmyyyyToIso(address.date), owner: address.owner, now: nowIso() },
        kind,
        { md5, size, lines: parsed.lines, problems: parsed.problems },
        parsed.laps ? { laps: parsed.laps } : { sampleCount: parsed.indexed },
      );
      await trx.deleteFrom('upload_intents').where('blob_key', '=', key).where('md5', '=', md5).execute();
    });
    await coordination.publish({ type: 'session-updated', ...address } satisfies SessionEvent).catch(() => undefined); // live updates are best effort
  }

  return {
    events,

    /** Waits for derived data still being built (graceful shutdown). */
    async drain(): Promise<void> {
      await Promise.all([...pendingDerived]);
    },

    /** Stops hearing other instances' events (server close). */
    stop(): void {
      unsubscribe();
    },

    /**
     * Device upload. Keeps the raw bytes exactly as sent, indexes every line that parses and
     * reports the others as warnings; refuses (422) a body that is not a six file at all. A
     * gps.six may arrive as a stream: it is never held in memory whole.
     */
    async upload(input: {
      deviceId: string;
      owner: string;
      track: string;
      date: string;
      kind: SixKind;
      body: Buffer | AsyncIterable<Uint8Array>;
      contentMd5?: string | undefined;
    }): Promise<z.infer<typeof uploadResponseSchema>> {
      assertSessionAddress(input.track, input.date);
      const id = sessionKey(input.deviceId, input.track, input.date);
      const key = `${id}/${SIX_FILE[input.kind]}`;
      const address = { deviceId: input.deviceId, track: input.track, date: input.date, owner: input.owner };
      const checkMd5 = (md5: string) => {
        if (input.contentMd5 !== undefined && input.contentMd5.trim() !== md5) {
          throw new AppError('storage/invalid-checksum', 'Content-MD5 does not match the body.');
        }
      };
      /**
       * The session at this address, checked under the file's lock before anything is written: a
       * session belongs for ever to whoever owned the device when it was recorded, so an upload
       * by a later owner never touches it (409), not even as a no-op answer that would show its
       * warnings. Then the same bytes again (a device repeating Send) are answered from the index.
       */
      const unchanged = async (md5: string) => {
        const existing = await findSession(db, id);
        if (existing && existing.owner_email !== input.owner) throw new AppError('session/previous-owner');
        const lap = input.kind === 'lap';
        if (!existing || (lap ? existing.lap_md5 : existing.gps_md5) !== md5 || (await blobs.head(key))?.md5Hash !== md5) return { existing, answer: undefined };
        const warnings = JSON.parse(lap ? existing.lap_problems : existing.gps_problems) as LineProblem[];
        const answer = { stored: false, unchanged: true, key, md5Hash: md5, size: Number(lap ? existing.lap_size : existing.gps_size), lines: Number(lap ? existing.lap_lines : existing.gps_lines), indexed: Number(lap ? existing.lap_count : existing.sample_count), warnings };
        return { existing, answer };
      };
      const recordIntent = (md5: string) =>
        db
          .insertInto('upload_intents')
          .values({ blob_key: key, md5, device_id: input.deviceId, track: input.track, date: input.date, kind: input.kind, owner_email: input.owner, created_at: nowIso() })
          .onConflict((oc) => oc.column('blob_key').doUpdateSet({ md5, owner_email: input.owner, created_at: nowIso() }))
          .execute();

      if (input.kind === 'lap') {
        if (!Buffer.isBuffer(input.body)) throw new Error('lap.six arrives as a Buffer');
        const body = input.body;
        const md5 = createHash('md5').update(body).digest('base64');
        checkMd5(md5);
        const rejection = rejectNonSixBody(body);
        if (rejection) throw notASixFile('lap', rejection);
        const parsed = parseLap(body.toString('utf8'));
        if (parsed.indexed === 0) throw new AppError('storage/invalid-format', 'No valid lap.six line; nothing was stored.');
        // One writer per file across all instances: the blob and its index are replaced together.
        return coordination.withKeyLock(key, async () => {
          const { answer } = await unchanged(md5);
          if (answer) return answer;
          await recordIntent(md5);
          await blobs.put(key, body, 'text/plain; charset=utf-8', { md5 });
          await commitIndex(address, 'lap', key, md5, body.length, parsed);
          return { stored: true, unchanged: false, key, md5Hash: md5, size: body.length, lines: parsed.lines, indexed: parsed.indexed, warnings: parsed.problems };
        });
      }

      // gps.six: received into a temp file (checked, hashed and parsed on the way), then handed to
      // the blob store (a rename on the filesystem, a streamed PUT to S3).
      const file = await blobs.tempPath();
      const spool = new ColumnSpool(await blobs.tempPath());
      let fileTaken = false;
      let spoolTaken = false;
      try {
        const received = await receiveGps(Buffer.isBuffer(input.body) ? slices(input.body) : input.body, file, spool);
        const { md5, summary } = received;
        checkMd5(md5);
        if (summary.rejection) throw notASixFile('gps', summary.rejection);
        if (summary.indexed === 0) throw new AppError('storage/invalid-format', 'No valid gps.six line; nothing was stored.');
        return await coordination.withKeyLock(key, async () => {
          const { existing, answer } = await unchanged(md5);
          if (answer) return answer;
          await recordIntent(md5);
          fileTaken = true;
          await blobs.putFile(key, file, 'text/plain; charset=utf-8', { md5 });
          await commitIndex(address, 'gps', key, md5, received.size, summary);
          spoolTaken = true;
          deriveInBackground(id, md5, existing?.gps_md5 || undefined, spool);
          return { stored: true, unchanged: false, key, md5Hash: md5, size: received.size, lines: summary.lines, indexed: summary.indexed, warnings: summary.problems };
        });
      } finally {
        if (!fileTaken) await fs.rm(file, { force: true });
        if (!spoolTaken) await spool.dispose();
      }
    },

    /**
     * Finishes uploads interrupted between the blob write and the index update (a crash, a
     * kill): the blob holds the new bytes → index them; it holds the old ones → drop the intent.
     * Runs at start-up, before the server listens, and now and then after.
     */
    async recoverInterruptedUploads(): Promise<{ reindexed: number; dropped: number }> {
      const intents = await db.selectFrom('upload_intents').select('blob_key').execute();
      let reindexed = 0;
      let dropped = 0;
      for (const { blob_key: key } of intents) {
        // Under the file's lock: an upload still running on another instance finishes first, and
        // its intent is gone when we look again.
        await coordination.withKeyLock(key, async () => {
          const intent = await db.selectFrom('upload_intents').selectAll().where('blob_key', '=', key).executeTakeFirst();
          if (!intent) return;
          const head = await blobs.head(intent.blob_key);
          const address = { deviceId: intent.device_id, track: intent.track, date: intent.date, owner: intent.owner_email };
          let parsed: ParsedSix | undefined;
          if (head?.md5Hash === intent.md5) {
            if (intent.kind === 'gps') {
              const summary = await parseStoredGps(intent.blob_key);
              if (summary && !summary.rejection) parsed = summary;
            } else {
              const body = await blobs.get(intent.blob_key);
              const decoded = body ? decodeSixBody(body) : undefined;
              if (decoded && 'text' in decoded) parsed = parseLap(decoded.text);
            }
          }
          if (parsed && head) {
            await commitIndex(address, intent.kind === 'gps' ? 'gps' : 'lap', intent.blob_key, intent.md5, head.size, parsed);
            reindexed++;
          } else {
            await db.deleteFrom('upload_intents').where('blob_key', '=', intent.blob_key).where('md5', '=', intent.md5).execute();
            dropped++;
          }
        });
      }
      return { reindexed, dropped };
    },

    async tracks(viewer: Viewer, deviceId: string) {
      return { device: deviceId, demo: deviceId === deps.demoDeviceId, tracks: await listVisibleTracks(db, viewer, deviceId) };
    },

    async dates(viewer: Viewer, deviceId: string, track: string) {
      return { device: deviceId, track, dates: await listVisibleDates(db, viewer, deviceId, track) };
    },

    /** The laps answer as JSON text, cached per session version (validated against the schema once). */
    async lapsJson(viewer: Viewer, deviceId: string, track: string, date: string): Promise<LapsAnswer> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const key = `${row.id}@${row.lap_md5}`;
      let answer = lapsJsonCache.get(key);
      if (answer === undefined) {
        const json = JSON.stringify(lapsResponseSchema.parse(await this.lapsOf(row, deviceId, track, date)));
        // Compressed once too: 60 laps are ~35 KB of JSON, ~4 KB gzipped over a track's mobile data.
        answer = remember(lapsJsonCache, key, { json, gzipped: gzipSync(json), etag: `"${row.lap_md5 || 'none'}"` });
        addBrotli(answer);
      }
      return answer;
    },

    async lapsOf(row: SessionRow, deviceId: string, track: string, date: string): Promise<z.infer<typeof lapsResponseSchema>> {
      const laps = await listLaps(db, row.id);
      const a = analyzeSession(laps);
      return {
        device: deviceId,
        track,
        date,
        demo: deviceId === deps.demoDeviceId,
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
          gapMs: a.laps[i]!.gapMs,
          isBest: a.laps[i]!.isBest,
          bestSectors: a.laps[i]!.bestSectors,
        })),
        bestLapMs: a.bestLapMs,
        bestSectorsMs: a.bestSectorsMs,
        theoreticalBestMs: a.theoreticalBestMs,
        warnings: JSON.parse(row.lap_problems) as LineProblem[],
      };
    },

    /** The samples as JSON columns: every `step`-th sample, at most MAX_JSON_SAMPLES of them. */
    async gps(viewer: Viewer, deviceId: string, track: string, date: string): Promise<z.infer<typeof gpsResponseSchema>> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const c = await (await gpsColumns(row)).columns();
      const step = Math.max(1, Math.ceil(c.count / MAX_JSON_SAMPLES));
      const picked = Array.from({ length: Math.ceil(c.count / step) }, (_, k) => k * step);
      const pick = <T>(column: ArrayLike<number>, as: (v: number) => T) => picked.map((i) => as(column[i]!));
      const same = (v: number) => v;
      return {
        device: deviceId,
        track,
        date,
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
    async gpsBinary(viewer: Viewer, deviceId: string, track: string, date: string): Promise<{ gzipped: Buffer; etag: string }> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const { gzipped } = await gpsColumns(row);
      return { gzipped, etag: `"${row.gps_md5}"` };
    },

    async analysis(viewer: Viewer, deviceId: string, track: string, date: string) {
      const row = await requireVisible(viewer, deviceId, track, date);
      return analysisOf(row, (await gpsColumns(row)).columns);
    },

    /** CSV (RaceRender), GPX, or the raw six files, for the session or one lap (heat + lap number). */
    async export(viewer: Viewer, deviceId: string, track: string, date: string, format: 'csv' | 'gpx' | 'lap.six' | 'gps.six', lap?: { heat: string; lapCount: number }) {
      const row = await requireVisible(viewer, deviceId, track, date);
      const base = `${deviceId}_${track}_${date}`.replace(/[^\p{L}\p{N}_.-]+/gu, '-');
      if (format === 'lap.six' || format === 'gps.six') {
        // Streamed out as stored (a gps.six may be large).
        const src = (format === 'lap.six' ? row.lap_md5 : row.gps_md5) ? await blobs.getStream(`${row.id}/${format}`) : undefined;
        if (!src) throw new AppError('storage/object-not-found');
        return { body: src.body, size: src.size, contentType: 'text/plain; charset=utf-8', filename: `${base}_${format}` };
      }
      const { columns } = await gpsColumns(row);
      const c = await columns();
      let range = { start: 0, end: c.count };
      let suffix = '';
      if (lap) {
        const seg = (await analysisOf(row, async () => c)).laps.find((l) => l.heat === lap.heat && l.lapCount === lap.lapCount);
        if (!seg) throw new AppError('storage/object-not-found', 'No such lap in this session.');
        range = seg;
        suffix = `_${lap.heat}${lap.lapCount}`;
      }
      // Streamed piece by piece as the client reads (see EXPORT_ROWS_PER_CHUNK).
      if (format === 'csv') return { body: Readable.from(raceRenderCsvChunks(c, range)), contentType: 'text/csv; charset=utf-8', filename: `${base}${suffix}.csv` };
      const name = `${track} ${date.slice(0, 2)}/${date.slice(2, 4)}/${date.slice(4)}${suffix ? ` ${suffix.slice(1)}` : ''}`;
      return { body: Readable.from(gpxChunks(c, { name, date }, range)), contentType: 'application/gpx+xml; charset=utf-8', filename: `${base}${suffix}.gpx` };
    },

    /** The most recently updated session the viewer may see (for the home screen). */
    async latest(viewer: Viewer) {
      const row = await latestVisibleSession(db, viewer);
      return row ? { device: row.device_id, track: row.track, date: row.date, updatedAt: row.updated_at, demo: row.device_id === deps.demoDeviceId } : null;
    },

    /** Whether a session event concerns this viewer (live updates are filtered like reads). */
    concerns(viewer: Viewer, event: SessionEvent): boolean {
      return viewer.admin || event.owner === viewer.email || event.deviceId === deps.demoDeviceId;
    },

    async summary(viewer: Viewer, deviceId: string, track: string, date: string): Promise<z.infer<typeof summaryResponseSchema>> {
      const row = await requireVisible(viewer, deviceId, track, date);
      const a = analyzeSession(await listLaps(db, row.id));
      return {
        device: deviceId,
        track,
        date,
        demo: deviceId === deps.demoDeviceId,
        lapCount: Number(row.lap_count),
        sampleCount: Number(row.sample_count),
        bestLapMs: a.bestLapMs,
        theoreticalBestMs: a.theoreticalBestMs,
        heats: a.heats,
        files: { lap: row.lap_md5 !== '', gps: row.gps_md5 !== '' },
        warnings: { lap: JSON.parse(row.lap_problems) as LineProblem[], gps: JSON.parse(row.gps_problems) as LineProblem[] },
        updatedAt: row.updated_at,
      };
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
