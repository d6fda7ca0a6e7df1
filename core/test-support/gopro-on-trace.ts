import { createFile, MP4BoxBuffer, type Movie } from 'mp4box';
import type { GpsColumns } from '../formats/gps-columns';
import { makeProjection } from '../geo';
import { createRandom } from '../sim/random';
import { numbers, streamsOf } from '../video/gpmf-klv';
import { readVideoTelemetry, timedStreams, type GpmfPayload } from '../video/gpmf';

/** Where a bike was at a UTC time: position and speed, or null where it has no fix then. */
export type PositionAt = (utcMs: number) => { lat: number; lon: number; speedKmh: number } | null;

/** A session's GPS columns (times of day in UTC from `dayStartMs`) as a position at any time between its fixes. */
export function positionOn(c: GpsColumns, dayStartMs: number): PositionAt {
  return (utcMs) => {
    const t = utcMs - dayStartMs;
    let lo = 0;
    let hi = c.count - 1;
    if (c.count < 2 || t < c.timeMs[0]! || t > c.timeMs[hi]!) return null;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (c.timeMs[mid]! <= t) lo = mid;
      else hi = mid;
    }
    const k = (t - c.timeMs[lo]!) / (c.timeMs[hi]! - c.timeMs[lo]! || 1);
    const at = (a: ArrayLike<number>) => a[lo]! + k * (a[hi]! - a[lo]!);
    return { lat: at(c.lat), lon: at(c.lon), speedKmh: at(c.speed) };
  };
}

/**
 * A GoPro file whose GPS lies on another ride: a sample's GPS5 fixes rewritten in place, each put
 * where `where` says the bike was at the fix's true time (the camera's GPS clock at the fix's video
 * time), with the camera's own GPS noise (`noiseM` per axis, seeded) on top of the logger's.
 * Everything else is kept byte for byte: the video, the index, the GPS times (GPSU), the fix
 * state, altitudes. Returns the new file and the camera's clock (UTC ms at video time 0).
 */
export async function goproOnTrace(
  sample: Uint8Array,
  where: PositionAt,
  options: { seed?: number; noiseM?: number } = {},
): Promise<{ bytes: Uint8Array; cameraOffsetMs: number }> {
  const rnd = createRandom(options.seed ?? 1);
  const noiseM = options.noiseM ?? 1.5;
  const memory = {
    size: sample.length,
    read: (offset: number, length: number) => Promise.resolve(sample.subarray(offset, offset + length)),
  };
  const { fixes } = await readVideoTelemetry(memory);
  const gaps = fixes.map((f) => f.utcMs - f.videoMs).sort((a, b) => a - b);
  const cameraOffsetMs = gaps[gaps.length >> 1]!;

  const file = createFile();
  let movie: Movie | undefined;
  file.onReady = (m) => (movie = m);
  const copy = sample.slice();
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy.buffer, 0), true);
  file.flush();
  const gpmd = movie?.tracks.find((t) => t.codec.startsWith('gpmd'));
  if (!gpmd) throw new Error('the sample has no GPMF track');
  const infos = file.getTrackSamplesInfo(gpmd.id);
  const payloads: GpmfPayload[] = infos.map((s) => ({
    ctsMs: (s.cts * 1000) / s.timescale,
    durationMs: (s.duration * 1000) / s.timescale,
    streams: streamsOf(copy.subarray(s.offset, s.offset + s.size)),
  }));
  const view = new DataView(copy.buffer);
  for (const s of timedStreams(payloads, 'GPS5')) {
    const scale = numbers(s.stream.meta.get('SCAL')!)!.flat();
    const base = infos[s.payload]!.offset + s.stream.samples.dataAt;
    s.rows.forEach((_, r) => {
      const p = where(cameraOffsetMs + s.videoMs[r]!);
      if (!p) return;
      const proj = makeProjection(p.lat, p.lon);
      const [lat, lon] = proj.toLatLon(noiseM * rnd.normal(), noiseM * rnd.normal());
      const at = base + r * s.stream.samples.structSize;
      view.setInt32(at, Math.round(lat * scale[0]!));
      view.setInt32(at + 4, Math.round(lon * scale[1]!));
      view.setInt32(at + 12, Math.round((p.speedKmh / 3.6) * scale[3]!));
      view.setInt32(at + 16, Math.round((p.speedKmh / 3.6) * scale[4]!));
    });
  }
  return { bytes: copy, cameraOffsetMs };
}
