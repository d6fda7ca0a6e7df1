import { describe, expect, it } from 'vitest';
import { parseRange } from './firmware.routes';
import { compareVersions, inPercentage } from './firmware-rules';

describe('parseRange', () => {
  it('reads one bytes= range, clamped to the image, and tells a start past the end', () => {
    expect(parseRange(undefined, 100)).toBe('all');
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Several ranges, or nonsense: the whole image, as HTTP allows.
    expect(parseRange('bytes=0-1,5-6', 100)).toBe('all');
    expect(parseRange('items=0-1', 100)).toBe('all');
    expect(parseRange('bytes=9-3', 100)).toBe('all');
  });
});

describe('compareVersions', () => {
  it('compares numerically, a pre-release before its release', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.2.0', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.0-beta.1', '1.2.0')).toBe(-1);
    expect(compareVersions('0.9.9', '1.0.0')).toBe(-1);
  });
});

describe('inPercentage', () => {
  it('keeps a device in or out by a stable hash, about the share asked, and widening keeps those in', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => String(i).padStart(12, '0'));
    const at10 = ids.filter((id) => inPercentage(id, 'r1', 10));
    const at50 = ids.filter((id) => inPercentage(id, 'r1', 50));
    expect(at10.length).toBeGreaterThan(140);
    expect(at10.length).toBeLessThan(260);
    expect(at10.every((id) => at50.includes(id))).toBe(true);
    expect(ids.filter((id) => inPercentage(id, 'r1', 100))).toHaveLength(2000);
    expect(ids.filter((id) => inPercentage(id, 'r1', 0))).toHaveLength(0);
    // Another rollout picks another tenth: the same devices are not always first.
    expect(ids.filter((id) => inPercentage(id, 'r2', 10))).not.toEqual(at10);
  });
});
