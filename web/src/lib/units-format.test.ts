import { describe, expect, it } from 'vitest';
import { speedTable } from './format';
import { formatDistance, formatSpeed, unitLabel } from './units-format';

describe("speeds and distances in the rider's units", () => {
  it('writes km/h and metres as stored, mph and feet converted, the locale deciding the number', () => {
    expect(formatSpeed(218.94, 'metric')).toBe('218,9 km/h');
    expect(formatSpeed(218.94, 'imperial')).toBe('136,0 mph');
    expect(formatSpeed(218.94, 'imperial', 'en-US')).toBe('136.0 mph');
    expect(formatSpeed(100, 'imperial', 'es', 0)).toBe('62 mi/h');
    expect(formatDistance(4309, 'metric')).toBe('4.309 m');
    expect(formatDistance(4309, 'imperial', 'en-US')).toBe('14,137 ft');
    expect(formatDistance(12, 'imperial')).toBe('39 ft');
  });

  it('gives tables the number alone and headers and axes the unit', () => {
    expect(speedTable(250, 'imperial')).toBe('155');
    expect(speedTable(250)).toBe('250');
    expect(formatSpeed(250, 'imperial')).toBe('155,3 mph');
    expect(['metric', 'imperial'].map((u) => unitLabel('speed', u as 'metric'))).toEqual(['km/h', 'mph']);
    expect(['metric', 'imperial'].map((u) => unitLabel('distance', u as 'metric'))).toEqual(['m', 'ft']);
  });
});
