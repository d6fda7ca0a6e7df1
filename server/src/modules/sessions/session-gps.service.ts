// A session's GPS trace as readers get it: the derived binary columns (rebuilt from gps.six when
// missing or unreadable), the JSON samples, the analysis, and the exports; for rows already checked.
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { z } from 'zod';
import { analyzeGps } from '#core/analysis/gps-analysis.ts';
import { isImportCollection, type SessionAddress } from '#core/contracts/session-paths.ts';
import type { gpsResponseSchema } from '#core/contracts/sessions.contract.ts';
import { AppError } from '#core/errors.ts';
import { gpxChunks, raceRenderCsvChunks } from '#core/formats/exports.ts';
import type { Units } from '#core/units.ts';
import { decodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { msToGpsTime } from '#core/formats/gps-six.ts';
import { gpsSixLine } from '#core/formats/gps-six-write.ts';
import { HEATS, type LineProblem } from '#core/formats/six-lines.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import { LruCache } from '#server/lib/lru.ts';
import { pieceByTurn } from '#server/lib/piece-by-turn.ts';
import { ColumnSpool, parseStoredGps } from './column-spool';
import { gpsColumnsKey } from './session-files';
import type { SessionRow } from './sessions.repository';

/**
 * The JSON samples answer holds at most this many samples, evenly spaced over the session (a
 * day at 10 Hz is ~110k): arrays of millions of numbers in JSON would hold the event loop for
 * seconds. Full resolution is the binary columns (gps.bin).
 */
export const MAX_JSON_SAMPLES = 25_000;
/** Analyses remembered per process (one per gps.six version read). */
const ANALYSES_KEPT = 200;
const CHECKS_KEPT = 10_000;
/**
 * Derived columns kept in memory, per session version, up to this many and only those of at most
 * COLUMNS_KEPT_MAX_BYTES (a normal session; a long day's are read each time), 64 MB at most: a
 * gps.bin read then needs no file read, whose steps each wait for the thread pool and an event-loop turn.
 */
const COLUMNS_KEPT = 64;
const COLUMNS_KEPT_MAX_BYTES = 1024 * 1024;
const gunzipAsync = promisify(gunzip);

/** A gps.six's text from its columns, EXPORT_LINES lines a piece. */
function* gpsSixPieces(c: GpsColumns): Generator<string> {
  for (let from = 0; from < c.count; from += EXPORT_LINES) {
    let text = '';
    for (let i = from; i < Math.min(c.count, from + EXPORT_LINES); i++) text += gpsSixLine(c, i);
    yield text;
  }
}
const EXPORT_LINES = 4096;

/** The columns a derived blob holds, or undefined when it cannot be read (it is rebuilt from gps.six then). */
async function readableColumns(gzipped: Buffer): Promise<GpsColumns | undefined> {
  try {
    return decodeGpsColumns(new Uint8Array(await gunzipAsync(gzipped)));
  } catch {
    return undefined;
  }
}

export function createSessionGps(blobs: BlobStore) {
  // Derived GPS blobs checked readable once per session version and process (not per read); the
  // latest CHECKS_KEPT versions are remembered (a key is ~60 bytes), the others checked again.
  const checkedColumns = new LruCache<string, true>(CHECKS_KEPT);
  const analyses = new LruCache<string, ReturnType<typeof analyzeGps>>(ANALYSES_KEPT);
  const keptColumns = new LruCache<string, Buffer>(COLUMNS_KEPT);

  /** The session's GPS columns; rebuilt from gps.six (and stored) if the derived blob is missing. */
  async function gpsColumns(row: SessionRow): Promise<{ gzipped: Buffer; columns: () => Promise<GpsColumns> }> {
    if (!row.gps_md5) throw new AppError('storage/object-not-found', 'This session has no GPS file.');
    const version = `${row.id}@${row.gps_md5}`;
    const derivedKey = gpsColumnsKey(row.id, row.gps_md5);
    let gzipped = keptColumns.get(version) ?? (await blobs.get(derivedKey));
    // The columns decoded to check them are this read's: not decoded a second time.
    let checked: GpsColumns | undefined;
    if (gzipped && !checkedColumns.has(version)) {
      checked = await readableColumns(gzipped);
      if (checked) checkedColumns.set(version, true);
      else gzipped = undefined;
    }
    // An import's gps.six is its columns alone (session-receiver): nothing to rebuild them from.
    if (!gzipped && Number(row.gps_from_columns) === 1)
      throw new AppError('storage/object-not-found', "This session's GPS columns are missing.");
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
    if (bytes.length <= COLUMNS_KEPT_MAX_BYTES) keptColumns.set(version, bytes);
    // Inflated off the event loop (a long session's columns are tens of MB).
    return {
      gzipped: bytes,
      columns: async () => checked ?? decodeGpsColumns(new Uint8Array(await gunzipAsync(bytes))),
    };
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
    gpsColumns,
    analysisOf,

    /** Each remembered cache's size, by name (the `voltas_cache_entries` metric). */
    caches(): Record<string, () => number> {
      return { 'gps-column-checks': () => checkedColumns.size, 'gps-analyses': () => analyses.size };
    },

    /** The samples as JSON columns: every `step`-th sample, at most MAX_JSON_SAMPLES of them. */
    async gps(row: SessionRow, s: SessionAddress): Promise<z.infer<typeof gpsResponseSchema>> {
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

    /** CSV (RaceRender), GPX, or the raw six files, for the session or one lap (heat + lap number); streamed. */
    async export(
      row: SessionRow,
      s: SessionAddress,
      format: 'csv' | 'gpx' | 'lap.six' | 'gps.six',
      lap?: { heat: string; lapCount: number },
      units: Units = 'metric',
    ) {
      const base = `${s.device}_${s.track}_${s.date}`.replace(/[^\p{L}\p{N}_.-]+/gu, '-');
      if (format === 'gps.six' && Number(row.gps_from_columns) === 1) {
        // Made from the columns it was written from: the same text, line for line.
        const c = await (await gpsColumns(row)).columns();
        return {
          body: pieceByTurn(gpsSixPieces(c)),
          contentType: 'text/plain; charset=utf-8',
          filename: `${base}_${format}`,
        };
      }
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
      // Streamed piece by piece as the client reads (see EXPORT_ROWS_PER_CHUNK), a piece per turn.
      if (format === 'csv')
        return {
          body: pieceByTurn(raceRenderCsvChunks(c, range, units)),
          contentType: 'text/csv; charset=utf-8',
          filename: `${base}${suffix}.csv`,
        };
      const name = `${s.track} ${s.date.slice(0, 2)}/${s.date.slice(2, 4)}/${s.date.slice(4)}${suffix ? ` ${suffix.slice(1)}` : ''}`;
      return {
        body: pieceByTurn(gpxChunks(c, { name, date: s.date, local: isImportCollection(s.device) }, range)),
        contentType: 'application/gpx+xml; charset=utf-8',
        filename: `${base}${suffix}.gpx`,
      };
    },
  };
}
