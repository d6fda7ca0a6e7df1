import { parseGpsSix } from '../formats/gps-six';
import { makeProjection } from '../geo';
import { createRandom } from '../sim/random';
import { generateSession, type TrackGeometry } from '../sim/session-generator';
import type { VideoFix, VideoTelemetry } from '../video/gpmf';
import type { SessionTrace } from '../video/sync';

/**
 * A lap timer's trace along a video's own GPS track: the fixes resampled at the logger's rate on
 * the logger's clock (`shiftMs` ahead of the camera's GPS time), with its own position noise, and
 * optionally the bike standing still before and after (`padMs`), so the video covers part of it.
 */
export function traceFromFixes(
  fixes: VideoFix[],
  options: { seed: number; hz?: number; noiseM?: number; shiftMs?: number; padMs?: number },
): SessionTrace {
  const { hz = 10, noiseM = 1, shiftMs = 0, padMs = 0 } = options;
  const rnd = createRandom(options.seed);
  const proj = makeProjection(fixes[0]!.lat, fixes[0]!.lon);
  const first = fixes[0]!.utcMs - padMs;
  const last = fixes[fixes.length - 1]!.utcMs + padMs;
  const count = Math.floor((last - first) / (1000 / hz)) + 1;
  const trace: SessionTrace = {
    count,
    lat: new Float64Array(count),
    lon: new Float64Array(count),
    timeMs: new Float64Array(count),
    speed: new Float64Array(count),
  };
  let j = 0;
  for (let i = 0; i < count; i++) {
    const utc = first + (i * 1000) / hz;
    while (j < fixes.length - 2 && fixes[j + 1]!.utcMs < utc) j++;
    const a = fixes[j]!;
    const b = fixes[j + 1]!;
    const k = Math.min(1, Math.max(0, (utc - a.utcMs) / (b.utcMs - a.utcMs)));
    const [xa, ya] = proj.toXY(a.lat, a.lon);
    const [xb, yb] = proj.toXY(b.lat, b.lon);
    const [lat, lon] = proj.toLatLon(
      xa + k * (xb - xa) + noiseM * rnd.normal(),
      ya + k * (yb - ya) + noiseM * rnd.normal(),
    );
    trace.lat[i] = lat;
    trace.lon[i] = lon;
    trace.timeMs[i] = utc + shiftMs;
    trace.speed[i] = utc < a.utcMs || utc > b.utcMs ? 0 : a.speedKmh + k * (b.speedKmh - a.speedKmh);
  }
  return trace;
}

/** A generated session's trace on a track, in UTC ms of `dateUtcMs`'s day. */
export function generatedTrace(track: TrackGeometry, seed: number, dateUtcMs: number): SessionTrace {
  const gen = generateSession(track, { seed, heats: 2, lapsPerHeat: [4, 4], gpsNoise: 1 });
  const c = parseGpsSix(gen.gpsSix).value;
  const timeMs = new Float64Array(c.count);
  for (let i = 0; i < c.count; i++) timeMs[i] = dateUtcMs + c.timeMs[i]!;
  return {
    count: c.count,
    lat: c.lat.slice(0, c.count),
    lon: c.lon.slice(0, c.count),
    timeMs,
    speed: c.speed.slice(0, c.count),
  };
}

/**
 * What a GoPro on that bike would have recorded from `fromMs` for `durationMs` (session clock):
 * 18 Hz fixes with their own noise, its GPS time `shiftMs` behind the logger's clock, its video
 * clock running `driftPpm` slow. Returns the telemetry and, per fix, the session time it was at.
 */
export function cameraOn(
  trace: SessionTrace,
  options: {
    fromMs: number;
    durationMs: number;
    seed: number;
    shiftMs?: number;
    driftPpm?: number;
    creationTimeMs?: number | null;
  },
): { telemetry: VideoTelemetry; sessionMs: number[] } {
  const { shiftMs = 0, driftPpm = 0 } = options;
  const rnd = createRandom(options.seed);
  const proj = makeProjection(trace.lat[0]!, trace.lon[0]!);
  const fixes: VideoFix[] = [];
  const sessionMs: number[] = [];
  let j = 0;
  for (let t = options.fromMs; t <= options.fromMs + options.durationMs; t += 1000 / 18) {
    while (j < trace.count - 2 && trace.timeMs[j + 1]! < t) j++;
    const t0 = trace.timeMs[j]!;
    const t1 = trace.timeMs[j + 1]!;
    if (t1 - t0 > 1_000 || t < t0) continue; // no fix where the logger had none: in the pits
    const k = (t - t0) / (t1 - t0);
    const [x0, y0] = proj.toXY(trace.lat[j]!, trace.lon[j]!);
    const [x1, y1] = proj.toXY(trace.lat[j + 1]!, trace.lon[j + 1]!);
    const [lat, lon] = proj.toLatLon(x0 + k * (x1 - x0) + 1.5 * rnd.normal(), y0 + k * (y1 - y0) + 1.5 * rnd.normal());
    const videoMs = (t - options.fromMs) * (1 - driftPpm / 1e6);
    fixes.push({
      videoMs,
      utcMs: Math.round(t - shiftMs),
      lat,
      lon,
      speedKmh: trace.speed[j]! + k * (trace.speed[j + 1]! - trace.speed[j]!),
    });
    sessionMs.push(t);
  }
  return {
    telemetry: {
      durationMs: options.durationMs * (1 - driftPpm / 1e6),
      codec: 'avc1.640033',
      width: 1920,
      height: 1080,
      creationTimeMs: options.creationTimeMs ?? null,
      fixes,
      gpsClock: { source: 'GPS9', errorMs: 50 },
      bytesRead: 0,
    },
    sessionMs,
  };
}
