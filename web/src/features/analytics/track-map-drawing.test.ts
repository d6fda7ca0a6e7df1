import { describe, expect, it } from 'vitest';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import type { LapSegment } from '#core/analysis/gps-analysis.ts';
import { colourRange, nearestSample, projectLaps } from './track-map-drawing';

const lap = (start: number, end: number) => ({ start, end }) as LapSegment;
const columns = {
  count: 4,
  lat: Float64Array.from([-23.7, -23.7001, -23.7002, -23.7003]),
  lon: Float64Array.from([-46.69, -46.69, -46.69, -46.69]),
  speed: Float32Array.from([100, 150, 50, 300]),
  roll: Float32Array.from([10, -45, 30, 0]),
} as unknown as GpsColumns;

describe('drawing the track map', () => {
  it('colours by the laps drawn: speed, or lean either side', () => {
    expect(colourRange(columns, [lap(0, 3)], 'speed')).toEqual({ lo: 50, hi: 150 });
    expect(colourRange(columns, [lap(0, 3)], 'lean')).toEqual({ lo: 10, hi: 45 });
    // No lap drawn: a range still, so that the legend reads.
    expect(colourRange(columns, [], 'speed')).toEqual({ lo: 0, hi: 1 });
  });

  it('projects north up, in metres about the reference lap start', () => {
    const p = projectLaps(columns, [lap(0, 4)], lap(0, 4));
    expect(p.xy[0]).toBeCloseTo(0);
    expect(p.xy[1]).toBeCloseTo(0);
    expect(p.xy[7]).toBeCloseTo(-33.2, 0); // 0.0003° south
    expect(p.maxY - p.minY).toBeCloseTo(33.2, 0);
  });

  it('finds the sample nearest a point within 24 px, else none', () => {
    const toPx = (i: number): [number, number] => [i * 10, 0];
    expect(nearestSample([lap(0, 4)], toPx, 21, 3)).toBe(2);
    expect(nearestSample([lap(0, 4)], toPx, 100, 0)).toBeNull();
  });
});
