import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeGpsColumns, encodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumns } from '#core/formats/gps-columns.ts';
import { LocalBlobStore } from '#server/blobs/local-blob-store.ts';
import { ColumnSpool, SPOOL_BATCH } from './column-spool';

/** Decimals as a six file holds them (stored scaled), or any doubles (stored as they are). */
function columns(count: number, seed: number, decimals = false): GpsColumns {
  const c = allocGpsColumns(count);
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < count; i++) {
    c.line[i] = i + 1;
    c.lat[i] = -23.7 + next() / 100;
    c.lon[i] = -46.69 + next() / 100;
    c.speed[i] = next() * 300;
    c.satellites[i] = Math.floor(next() * 20);
    c.timeMs[i] = i * 100;
    c.lapCount[i] = Math.floor(i / 1000);
    c.firstLap[i] = i < 1000 ? 1 : 0;
    c.heat[i] = Math.floor(next() * 4);
    c.roll[i] = next() * 120 - 60;
    c.leanFiltered[i] = next() * 120 - 60;
    c.meterSum[i] = i * 3;
  }
  c.count = count;
  if (decimals) {
    const round = (a: Float64Array, places: number) =>
      a.forEach((v, i) => (a[i] = Math.round(v * 10 ** places) / 10 ** places));
    round(c.lat, 7);
    round(c.lon, 7);
    for (const k of ['speed', 'roll', 'leanFiltered'] as const) round(c[k], 1);
  }
  return c;
}

/** Feeds `c` to a spool in uneven pieces, as parsed chunks arrive. */
function feed(spool: ColumnSpool, c: GpsColumns) {
  for (let from = 0, step = 1; from < c.count; from += step, step = (step * 7 + 3) % 9000 || 1) {
    const n = Math.min(step, c.count - from);
    const piece = allocGpsColumns(0);
    piece.count = n;
    for (const k of GPS_COLUMN_KEYS) (piece as unknown as Record<string, unknown>)[k] = c[k].subarray(from, from + n);
    spool.add(piece);
  }
}

describe('ColumnSpool', () => {
  for (const [name, count, decimals] of [
    ['one batch, in memory', 1234, false],
    ['several batches through the scratch file', SPOOL_BATCH * 2 + 777, false],
    ['decimals, several batches', SPOOL_BATCH * 2 + 777, true],
  ] as const) {
    it(`${name}: stores exactly the codec's encoding, gzipped; no scratch file left`, async () => {
      const root = mkdtempSync(path.join(os.tmpdir(), 'voltas-spool-'));
      const blobs = new LocalBlobStore(root);
      const c = columns(count, count, decimals);
      const spool = new ColumnSpool(await blobs.tempPath());
      feed(spool, c);
      expect(spool.total).toBe(count);
      await spool.store(blobs, 'd/derived.cols.gz');
      await spool.dispose();
      const stored = new Uint8Array(gunzipSync((await blobs.get('d/derived.cols.gz'))!));
      expect(Buffer.from(stored).equals(Buffer.from(encodeGpsColumns(c)))).toBe(true);
      expect(decodeGpsColumns(stored).count).toBe(count);
      expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
    });
  }
});
