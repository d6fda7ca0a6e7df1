import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { ptBR } from '../i18n/messages/pt-BR';
import { readVideoTelemetry, type VideoTelemetry } from './gpmf';
import { manualSync, sessionToVideo, syncVideo, videoToSession } from './sync';
import { parseGpsSix } from '../formats/gps-six';
import { generateSession } from '../sim/session-generator';
import { goproOnTrace, positionOn } from '../test-support/gopro-on-trace';
import { loadTracks } from '../test-support/track-files';
import { fileSource, SAMPLE_VIDEOS } from '../test-support/video-files';
import { cameraOn, generatedTrace, traceFromFixes } from '../test-support/video-traces';

// Automatic sync against sessions with a known answer: traces laid along the sample videos' own
// GPS tracks, and a camera riding a generated session at Interlagos.
const DAY_MS = 86_400_000;

async function telemetryOf(name: string): Promise<VideoTelemetry> {
  const source = await fileSource(path.join(SAMPLE_VIDEOS, name));
  try {
    return await readVideoTelemetry(source);
  } finally {
    await source.close();
  }
}

/** Largest gap between where the sync puts each fix and where it really was on the session clock. */
function worstErrorMs(sync: { offsetMs: number; driftPpm: number }, videoMs: number[], sessionMs: number[]): number {
  return Math.max(...videoMs.map((v, i) => Math.abs(videoToSession(sync, v) - sessionMs[i]!)));
}

let max: VideoTelemetry;
let karma: VideoTelemetry;
beforeAll(async () => {
  [max, karma] = await Promise.all([telemetryOf('max-heromode.mp4'), telemetryOf('karma.mp4')]);
});

describe('the sample videos on traces along their own GPS tracks', () => {
  it('GoPro MAX (GPS5): synced within 0.1 s, covering the whole session', () => {
    const sync = syncVideo(max, traceFromFixes(max.fixes, { seed: 3 }))!;
    expect(sync).toMatchObject({ method: 'gpmf', driftPpm: 0 });
    expect(
      worstErrorMs(
        sync,
        max.fixes.map((f) => f.videoMs),
        max.fixes.map((f) => f.utcMs),
      ),
    ).toBeLessThan(100);
    // A walk: positions alone pin it to about 0.15 s, and the logger's clock is not taken on trust.
    expect(sync.errorMs).toBeLessThanOrEqual(200);
  });

  it("GoPro MAX on a logger whose clock is 3.7 s off: matched by position, not by the camera's clock", () => {
    const trace = traceFromFixes(max.fixes, { seed: 8, shiftMs: 3_700, padMs: 60_000 });
    const sync = syncVideo(max, trace)!;
    expect(sync.method).toBe('gpmf');
    const sessionMs = max.fixes.map((f) => f.utcMs + 3_700);
    const worst = worstErrorMs(
      sync,
      max.fixes.map((f) => f.videoMs),
      sessionMs,
    );
    expect(worst).toBeLessThan(300);
    expect(worst).toBeLessThan(2 * sync.errorMs);
  });

  it('Karma (GPRI): synced within 0.1 s, a clip covering part of a longer session', () => {
    const trace = traceFromFixes(karma.fixes, { seed: 4, padMs: 120_000 });
    const sync = syncVideo(karma, trace)!;
    expect(sync.method).toBe('gpmf');
    expect(
      worstErrorMs(
        sync,
        karma.fixes.map((f) => f.videoMs),
        karma.fixes.map((f) => f.utcMs),
      ),
    ).toBeLessThan(100);
    expect(videoToSession(sync, 0)).toBeGreaterThan(trace.timeMs[0]!);
    expect(videoToSession(sync, karma.durationMs)).toBeLessThan(trace.timeMs[trace.count - 1]!);
  });

  it('a video of another day says so; one of the same day at another hour is not this session', () => {
    const trace = traceFromFixes(max.fixes, { seed: 5 });
    const later = { ...trace, timeMs: trace.timeMs.map((t) => t + 2 * DAY_MS) };
    expect(syncVideo(max, later)).toMatchObject({ method: 'gpmf' });
    const afternoon = { ...trace, timeMs: trace.timeMs.map((t) => t - 3 * 3_600_000) };
    expect(syncVideo(max, afternoon)).toBeNull();
  });

  it('without GPS, the creation time is tried as local time at the track and as UTC', () => {
    // The MAX wrote local time (UTC−8 at its longitude); its clock was also some seconds off.
    const maxTrace = traceFromFixes(max.fixes, { seed: 6, padMs: 300_000 });
    const byMaxClock = syncVideo({ ...max, fixes: [] }, maxTrace)!;
    expect(byMaxClock.method).toBe('clock');
    expect(Math.abs(byMaxClock.offsetMs + max.fixes[0]!.videoMs - max.fixes[0]!.utcMs)).toBeLessThanOrEqual(
      byMaxClock.errorMs,
    );
    // The Karma's camera wrote UTC.
    const karmaTrace = traceFromFixes(karma.fixes, { seed: 7, padMs: 300_000 });
    const byKarmaClock = syncVideo({ ...karma, fixes: [] }, karmaTrace)!;
    expect(byKarmaClock.method).toBe('clock');
    expect(Math.abs(byKarmaClock.offsetMs - karma.fixes[0]!.utcMs)).toBeLessThan(2_000);
    // Nothing to go by: the page offers manual marks.
    expect(syncVideo({ ...max, fixes: [], creationTimeMs: null }, maxTrace)).toBeNull();
  });
});

describe('a camera on a bike at Interlagos', () => {
  let trace: ReturnType<typeof generatedTrace>;
  beforeAll(async () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    trace = generatedTrace(interlagos, 11, Date.UTC(2026, 10, 21));
  });

  it("finds the logger's clock from positions and the camera's drift from a fit over the clip", () => {
    const from = trace.timeMs[0]! + 200_000;
    const { telemetry, sessionMs } = cameraOn(trace, {
      fromMs: from,
      durationMs: 600_000,
      seed: 12,
      shiftMs: 400,
      driftPpm: 80,
    });
    const sync = syncVideo(telemetry, trace)!;
    expect(sync.method).toBe('gpmf');
    expect(Math.abs(sync.driftPpm - 80)).toBeLessThan(10);
    expect(
      worstErrorMs(
        sync,
        telemetry.fixes.map((f) => f.videoMs),
        sessionMs,
      ),
    ).toBeLessThan(100);
    expect(sync.errorMs).toBeLessThan(100);
    expect(sessionToVideo(sync, videoToSession(sync, 123_456))).toBeCloseTo(123_456, 3);
  });

  // A logger's clock set by hand (3.7 s either way), or GPS time written unconverted (18 s ahead of UTC).
  for (const loggerAheadMs of [0, 3_700, -3_700, 18_000]) {
    it(`matches the camera's positions on a logger ${loggerAheadMs / 1000} s off UTC, saying its error honestly`, () => {
      const { telemetry, sessionMs } = cameraOn(trace, {
        fromMs: trace.timeMs[0]! + 150_000,
        durationMs: 60_000,
        seed: 30,
        shiftMs: loggerAheadMs,
      });
      const sync = syncVideo(telemetry, trace)!;
      expect(sync.method).toBe('gpmf');
      const worst = worstErrorMs(
        sync,
        telemetry.fixes.map((f) => f.videoMs),
        sessionMs,
      );
      expect(worst).toBeLessThan(100);
      expect(sync.errorMs).toBeLessThan(100);
      expect(worst).toBeLessThan(3 * sync.errorMs);
    });
  }

  it('positions that are not on the trace leave the GPS clock with an error of a logger clock unchecked', () => {
    const { telemetry } = cameraOn(trace, { fromMs: trace.timeMs[0]! + 150_000, durationMs: 60_000, seed: 31 });
    const elsewhere = { ...telemetry, fixes: telemetry.fixes.map((f) => ({ ...f, lat: f.lat + 0.01 })) };
    const sync = syncVideo(elsewhere, trace)!;
    expect(sync.method).toBe('gpmf');
    expect(sync.errorMs).toBeGreaterThanOrEqual(1_000);
  });

  it('syncs each chapter file on its own (each starts its own clock)', () => {
    const start = trace.timeMs[0]! + 100_000;
    const parts = [0, 1].map((n) =>
      cameraOn(trace, { fromMs: start + n * 300_000, durationMs: 300_000, seed: 20 + n, shiftMs: -250 }),
    );
    parts.forEach((part) => {
      const sync = syncVideo(part.telemetry, trace);
      expect(sync?.method).toBe('gpmf');
      expect(
        worstErrorMs(
          sync!,
          part.telemetry.fixes.map((f) => f.videoMs),
          part.sessionMs,
        ),
      ).toBeLessThan(100);
    });
  });
});

describe('manualSync', () => {
  it('takes an offset from one mark, and the drift too from two', () => {
    expect(manualSync([{ videoMs: 5_000, sessionUtcMs: 1_000_000 }])).toMatchObject({
      offsetMs: 995_000,
      driftPpm: 0,
      method: 'manual',
    });
    const two = manualSync([
      { videoMs: 10_000, sessionUtcMs: 2_000_000 },
      { videoMs: 1_010_000, sessionUtcMs: 2_000_000 + 1_000_050 },
    ]);
    expect(two.driftPpm).toBeCloseTo(50, 6);
    expect(videoToSession(two, 1_010_000)).toBeCloseTo(3_000_050, 3);
  });

  it('refuses marks that give an impossible clock, with a Portuguese message', () => {
    const close = [
      { videoMs: 10_000, sessionUtcMs: 2_000_000 },
      { videoMs: 10_040, sessionUtcMs: 2_000_400 },
    ];
    for (const marks of [close, [], [...close, ...close]]) {
      const error = (() => {
        try {
          manualSync(marks);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('video/bad-marks');
    }
    expect(ptBR['errors.video/bad-marks']).toMatch(/marque/);
  });
});

describe('the MAX sample rewritten onto a lap at Interlagos (what the e2e picks)', () => {
  it('reads back on the lap, and syncs within 0.1 s on a logger on time and one 3.7 s ahead', async () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    // The camera's GPS time (23:45:14 to 23:45:25 UTC) during the first flying lap.
    const gen = generateSession(interlagos, { seed: 40, heats: 1, lapsPerHeat: [3, 3], startTimeMs: 85_200_000 });
    const c = parseGpsSix(gen.gpsSix).value;
    const day = Date.UTC(2019, 10, 18);
    const bytes = new Uint8Array(await readFile(path.join(SAMPLE_VIDEOS, 'max-heromode.mp4')));
    const { bytes: onLap, cameraOffsetMs } = await goproOnTrace(bytes, positionOn(c, day));
    const memory = { size: onLap.length, read: async (o: number, n: number) => onLap.subarray(o, o + n) };
    const t = await readVideoTelemetry(memory);
    expect(t.fixes.length).toBe(max.fixes.length);
    expect(t.fixes.map((f) => f.utcMs)).toEqual(max.fixes.map((f) => f.utcMs));
    expect(Math.min(...t.fixes.map((f) => f.speedKmh))).toBeGreaterThan(40);
    for (const shiftMs of [0, 3_700]) {
      const trace = {
        count: c.count,
        lat: c.lat.slice(0, c.count),
        lon: c.lon.slice(0, c.count),
        speed: c.speed.slice(0, c.count),
        timeMs: Float64Array.from(c.timeMs.subarray(0, c.count), (ms) => day + ms + shiftMs),
      };
      const sync = syncVideo(t, trace)!;
      expect(sync.method).toBe('gpmf');
      expect(Math.abs(sync.offsetMs - (cameraOffsetMs + shiftMs))).toBeLessThan(100);
      expect(sync.errorMs).toBeLessThan(100);
    }
  });
});
