import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { fingerprint, readVideoTelemetry, type VideoTelemetry } from './gpmf';
import { syncVideo } from './sync';
import { fileSource, SAMPLE_VIDEOS, writePaddedCopy } from '../test-support/video-files';
import { traceFromFixes } from '../test-support/video-traces';

// The reading half of issue 37 on the two real GoPro samples, and on a 4 GB file made from one.
const MAX = path.join(SAMPLE_VIDEOS, 'max-heromode.mp4');
const KARMA = path.join(SAMPLE_VIDEOS, 'karma.mp4');

async function telemetryOf(file: string): Promise<VideoTelemetry> {
  const source = await fileSource(file);
  try {
    return await readVideoTelemetry(source);
  } finally {
    await source.close();
  }
}

describe('readVideoTelemetry', () => {
  it('reads a GoPro MAX: H.264, GPS5 fixes with GPS time, the MP4 clock as written', async () => {
    const t = await telemetryOf(MAX);
    expect(t.codec).toBe('avc1.4d402a');
    expect([t.width, t.height]).toEqual([848, 480]);
    expect(t.durationMs).toBeCloseTo(10_517, 0);
    // Local time, eight hours from the GPS clock: kept as written, sync decides what it means.
    expect(new Date(t.creationTimeMs!).toISOString()).toBe('2019-11-18T15:45:32.000Z');
    expect(t.gpsClock?.source).toBe('GPS5');
    // 191 fixes, less the first payload's 17, stamped with a GPS time 1.5 s old just after lock.
    expect(t.fixes.length).toBe(191 - 17);
    expect(new Date(t.fixes[0]!.utcMs).toISOString()).toBe('2019-11-18T23:45:16.470Z');
    expect(t.fixes[0]!.videoMs).toBeCloseTo(1_040, 0);
    expect(t.fixes[0]!.lat).toBeCloseTo(33.12676, 5);
    expect(t.fixes[0]!.lon).toBeCloseTo(-117.3273, 4);
    for (let i = 1; i < t.fixes.length; i++) {
      expect(t.fixes[i]!.videoMs).toBeGreaterThanOrEqual(t.fixes[i - 1]!.videoMs);
      expect(t.fixes[i]!.utcMs).toBeGreaterThan(t.fixes[i - 1]!.utcMs);
    }
    // The index and the GPMF samples only: a few percent of the file.
    expect(t.bytesRead).toBeLessThan(200_000);
  });

  it("reads a Karma drone's raw GPS (GPRI), timed through the drone's system clock (SYST)", async () => {
    const t = await telemetryOf(KARMA);
    expect(t.codec.startsWith('avc1')).toBe(true);
    expect(t.gpsClock?.source).toBe('GPRI');
    expect(t.fixes.length).toBeGreaterThan(40);
    expect(Math.abs(t.fixes[0]!.utcMs - Date.parse('2017-04-17T19:27:57.9Z'))).toBeLessThan(1_000);
    expect(Math.max(...t.fixes.map((f) => f.speedKmh))).toBeGreaterThan(20);
    expect(t.bytesRead).toBeLessThan(200_000);
  });

  it('refuses a file that is not an MP4, and an MP4 cut before its index, in Portuguese', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'voltas-video-'));
    try {
      const text = path.join(dir, 'notes.mp4');
      await writeFile(text, 'not a video at all, just some text that is long enough');
      const cut = path.join(dir, 'cut.mp4');
      const { readFile } = await import('node:fs/promises');
      await writeFile(cut, (await readFile(MAX)).subarray(0, 1_000_000));
      for (const file of [text, cut]) {
        const error = await telemetryOf(file).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('video/not-mp4');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a 4 GB chapter', () => {
  let dir: string;
  let big: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'voltas-video-'));
    big = path.join(dir, 'GX010001.MP4');
    await writePaddedCopy(MAX, big, 2 ** 32 + 64 * 1024 * 1024);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is synced from its index and metadata track alone, reading under 50 MB of it', async () => {
    expect((await stat(big)).size).toBeGreaterThan(2 ** 32);
    const original = await telemetryOf(MAX);
    const t = await telemetryOf(big);
    expect(t.fixes).toEqual(original.fixes);
    expect(t.durationMs).toBe(original.durationMs);
    expect(t.bytesRead).toBeLessThan(50 * 1024 * 1024);
    const trace = traceFromFixes(original.fixes, { seed: 1 });
    const sync = syncVideo(t, trace)!;
    expect(sync.method).toBe('gpmf');
    for (const f of original.fixes.slice(40, 150))
      expect(Math.abs(sync.offsetMs + f.videoMs - f.utcMs)).toBeLessThan(100);
  });
});

describe('fingerprint', () => {
  it('is the SHA-256 of the first and last MiB and the size, the same for the same file', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(MAX);
    const size = Buffer.alloc(8);
    size.writeBigUInt64BE(BigInt(bytes.length));
    const expected = createHash('sha256')
      .update(bytes.subarray(0, 1024 * 1024))
      .update(bytes.subarray(bytes.length - 1024 * 1024))
      .update(size)
      .digest('hex');
    const source = await fileSource(MAX);
    const other = await fileSource(KARMA);
    try {
      expect(await fingerprint(source)).toBe(expected);
      expect(await fingerprint(other)).not.toBe(expected);
    } finally {
      await source.close();
      await other.close();
    }
  });
});
