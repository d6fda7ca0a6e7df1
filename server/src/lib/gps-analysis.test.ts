import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeGps, decimateMinMax, deltaAgainst } from '#core/analysis/gps-analysis.ts';
import { CODEC_BLOCK, decodeGpsColumns, encodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import { gpxChunks, raceRenderCsvChunks } from '#core/formats/exports.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { GPS_COLUMN_KEYS } from '#core/formats/gps-columns.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from './track-files';

// Lives beside track-files because it reads the real geometries; the code under test is core/.
const track = loadTracks().find((t) => t.name === 'Interlagos')!;
const session = generateSession(track, { seed: 5, heats: 2, lapsPerHeat: [3, 3] });
const gps = parseGpsSix(session.gpsSix).value;
const analysis = analyzeGps(gps);

describe('GPS analysis on a generated session with known values', () => {
  it('finds the top speed and the lean extremes the generator produced, with their laps', () => {
    expect(analysis.topSpeedKmh).toBe(session.topSpeedKmh);
    expect(analysis.maxLeanLeftDeg).toBe(session.maxLeanLeftDeg);
    expect(analysis.maxLeanRightDeg).toBe(session.maxLeanRightDeg);
    const lapOfTop = analysis.laps.find((l) => l.topSpeedKmh === analysis.topSpeedKmh)!;
    expect(analysis.topSpeedLap).toBe(lapOfTop.lapCount);
  });

  it('splits laps like lap.six (heats, out-laps, numbers) with distances within 2 % of the track', () => {
    expect(analysis.laps.map((l) => `${l.heat}${l.lapCount}`)).toEqual(
      session.laps.map((l) => `${l.heat}${l.lapCount}`),
    );
    expect(analysis.laps.filter((l) => l.outLap).map((l) => l.lapCount)).toEqual([0, 0]);
    for (const lap of analysis.laps) {
      expect(Math.abs(lap.distanceM - track.officialLengthM!) / track.officialLengthM!).toBeLessThan(0.02);
      // First to last sample: each end may sit up to one interval (100 ms) inside the timed lap.
      expect(
        Math.abs(
          lap.durationMs - session.laps.find((l) => l.heat === lap.heat && l.lapCount === lap.lapCount)!.lapTimeMs,
        ),
      ).toBeLessThanOrEqual(200);
      expect(lap.sampleRateHz).toBeCloseTo(10, 0);
      expect(lap.minSpeedKmh).toBeLessThan(lap.topSpeedKmh);
    }
    expect(analysis.sampleRateHz).toBeCloseTo(10, 0);
  });

  it('delta of a lap against itself is 0; against a faster lap it ends near the lap-time gap', () => {
    const [a, b] = analysis.laps.filter((l) => !l.outLap);
    const self = deltaAgainst(gps, a!, a!);
    expect(Math.max(...self.delta.map(Math.abs))).toBe(0);
    const vs = deltaAgainst(gps, a!, b!);
    const gap = (a!.durationMs - b!.durationMs) / 1000;
    expect(Math.abs(vs.delta.at(-1)! - gap)).toBeLessThan(0.25);
  });

  it('flags laps with a weak fix (few satellites)', () => {
    const copy = parseGpsSix(session.gpsSix).value;
    const lap = analysis.laps[2]!;
    for (let i = lap.start; i < lap.start + 20; i++) copy.satellites[i] = 4;
    const flagged = analyzeGps(copy).laps;
    expect(flagged[2]!.weakFix).toBe(true);
    expect(flagged.filter((l) => l.weakFix).length).toBe(
      analysis.laps.filter((l) => l.weakFix).length + (analysis.laps[2]!.weakFix ? 0 : 1),
    );
  });
});

describe('decimateMinMax', () => {
  it('keeps every extreme per bucket and stays in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 1, max: 200 }),
        (ys, buckets) => {
          const xs = ys.map((_, i) => i);
          const keep = decimateMinMax(xs, ys, buckets);
          expect([...keep].sort((p, q) => p - q)).toEqual(keep);
          expect(new Set(keep).size).toBe(keep.length);
          const kept = keep.map((i) => ys[i]!);
          expect(Math.max(...kept)).toBe(Math.max(...ys));
          expect(Math.min(...kept)).toBe(Math.min(...ys));
          expect(keep[0]).toBe(0);
          expect(keep.at(-1)).toBe(ys.length - 1);
          expect(keep.length).toBeLessThanOrEqual(Math.max(ys.length <= buckets * 4 ? ys.length : 0, buckets * 4));
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('reduces a 100k-sample series to at most 4 points per pixel column', () => {
    const n = 100_000;
    const xs = Float64Array.from({ length: n }, (_, i) => i);
    const ys = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 50) * (i === 77_777 ? 10 : 1));
    const keep = decimateMinMax(xs, ys, 800);
    expect(keep.length).toBeLessThanOrEqual(3200);
    expect(keep).toContain(77_777);
  });
});

describe('binary columns and exports', () => {
  it('a real-track session spans several codec blocks, comes back exactly, and is much smaller gzipped than its text', () => {
    const long = generateSession(track, { seed: 5, heats: 4, lapsPerHeat: [21, 21] });
    const c = parseGpsSix(long.gpsSix).value;
    expect(c.count).toBeGreaterThan(CODEC_BLOCK);
    const bytes = encodeGpsColumns(c);
    const back = decodeGpsColumns(bytes);
    // The same numbers (`+ 0`: a negative zero, which the text can hold as -0.0, comes back as 0).
    for (const k of GPS_COLUMN_KEYS)
      expect(
        Array.from(back[k], (v) => v + 0),
        k,
      ).toEqual(Array.from(c[k], (v) => v + 0));
    expect(gzipSync(bytes).length).toBeLessThan(gzipSync(long.gpsSix).length / 2);
  });

  it('CSV has RaceRender columns and parses back to the samples', () => {
    const lap = analysis.laps[1]!;
    const csv = [...raceRenderCsvChunks(gps, lap)].join('');
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toBe('Time,Latitude,Longitude,Speed (KPH),Lap,Lean Angle,Satellites,Heat');
    expect(rows).toHaveLength(lap.end - lap.start + 1);
    const first = rows[1]!.split(',');
    expect(Number(first[0])).toBe(0);
    expect(Number(first[1])).toBeCloseTo(gps.lat[lap.start]!, 6);
    expect(Number(first[3])).toBeCloseTo(gps.speed[lap.start]!, 1);
    expect(Number(first[4])).toBe(lap.lapCount);
  });

  it('GPX 1.1 carries time and speed for each point', () => {
    const gpx = [...gpxChunks(gps, { name: 'Interlagos <teste> & cia', date: '21112026' }, analysis.laps[1]!)].join('');
    expect(gpx).toContain('<gpx version="1.1"');
    expect(gpx).toContain('Interlagos &lt;teste&gt; &amp; cia');
    const pts = [
      ...gpx.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)"><time>([^<]+)<\/time>.*?<gpxtpx:speed>([\d.]+)</g),
    ];
    expect(pts).toHaveLength(analysis.laps[1]!.end - analysis.laps[1]!.start);
    expect(pts[0]![3]).toMatch(/^2026-11-21T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Number(pts[0]![4])).toBeCloseTo(gps.speed[analysis.laps[1]!.start]! / 3.6, 2);
  });
});
