/**
 * Video sync (issue 37): reading a GoPro file's telemetry and syncing it to a session, against
 * reading the same bytes alone (the index and the metadata track: the I/O the sync cannot avoid).
 * On a 4.3 GB sparse copy of a sample (made in the temp dir, removed after) and on the samples.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readVideoTelemetry, type ByteSource } from '#core/video/gpmf.ts';
import { syncVideo } from '#core/video/sync.ts';
import { fileSource, SAMPLE_VIDEOS, writePaddedCopy } from '#core/test-support/video-files.ts';
import { traceFromFixes } from '#core/test-support/video-traces.ts';

export interface VideoSyncBench {
  label: string;
  sizeMb: number;
  readKb: number;
  syncMs: number;
  readMs: number;
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Records the ranges a sync reads, so the baseline can read exactly those. */
function recording(source: ByteSource, ranges: [number, number][]): ByteSource {
  return { size: source.size, read: (offset, length) => (ranges.push([offset, length]), source.read(offset, length)) };
}

async function measure(label: string, file: string, runs: number): Promise<VideoSyncBench> {
  const source = await fileSource(file);
  try {
    const ranges: [number, number][] = [];
    const first = await readVideoTelemetry(recording(source, ranges));
    const trace = traceFromFixes(first.fixes, { seed: 1, padMs: 60_000 });
    const syncMs: number[] = [];
    const readMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternated, so a slow moment of the machine slows both.
      let t = performance.now();
      for (const [offset, length] of ranges) await source.read(offset, length);
      readMs.push(performance.now() - t);
      t = performance.now();
      const sync = syncVideo(await readVideoTelemetry(source), trace);
      syncMs.push(performance.now() - t);
      if (sync?.method !== 'gpmf') throw new Error(`${label}: not synced by its GPS`);
    }
    const s = median(syncMs);
    const r = median(readMs);
    return { label, sizeMb: source.size / 1e6, readKb: first.bytesRead / 1024, syncMs: s, readMs: r, ratio: s / r };
  } finally {
    await source.close();
  }
}

export async function benchVideoSync(quick: boolean): Promise<VideoSyncBench[]> {
  const runs = quick ? 5 : 21;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-bench-video-'));
  try {
    const big = path.join(dir, 'GX010001.MP4');
    await writePaddedCopy(path.join(SAMPLE_VIDEOS, 'max-heromode.mp4'), big, 2 ** 32 + 64 * 1024 * 1024);
    return [
      await measure('4.3 GB chapter (MAX, GPS5)', big, runs),
      await measure('MAX sample (GPS5)', path.join(SAMPLE_VIDEOS, 'max-heromode.mp4'), runs),
      await measure('Karma sample (GPRI)', path.join(SAMPLE_VIDEOS, 'karma.mp4'), runs),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
