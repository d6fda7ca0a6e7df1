import { describe, expect, it } from 'vitest';
import { checkManifest, planFleet } from './fleet';

describe('planFleet', () => {
  it('gives the asked numbers of liars, boot loops and failed installs, the same for the same seed', () => {
    const plan = planFleet(20, { liars: 1, rebootLoops: 2, failShare: 0.25, dropShare: 0.5, seed: 7 });
    const count = (b: string) => plan.filter((d) => d.behaviour === b).length;
    expect([count('lies-about-class'), count('reboot-loop'), count('fails-install'), count('healthy')]).toEqual([
      1, 2, 5, 12,
    ]);
    expect(plan.some((d) => d.dropsLink)).toBe(true);
    expect(planFleet(20, { liars: 1, rebootLoops: 2, failShare: 0.25, dropShare: 0.5, seed: 7 })).toEqual(plan);
  });
});

describe('checkManifest', () => {
  const now = new Date('2026-12-06T10:00:00Z');
  const m = {
    class: 'vt1',
    version: '1.2.0',
    seq: 12,
    sha256: 'a'.repeat(64),
    size: 10,
    expires: '2026-12-07T00:00:00Z',
    minFrom: '1.0.0',
  };
  const device = { realClass: 'vt1', version: '1.1.0', installedSeq: 11 };
  it('accepts a fresh, newer manifest for its own board', () => {
    expect(checkManifest(m, device, now)).toBeNull();
  });
  it('refuses a replayed stale offer, another board, a step backwards and a version below minFrom', () => {
    expect(checkManifest({ ...m, expires: '2026-12-06T09:00:00Z' }, device, now)).toBe('expired');
    expect(checkManifest(m, { ...device, realClass: 'vt2' }, now)).toBe('class-mismatch');
    expect(checkManifest(m, { ...device, installedSeq: 12 }, now)).toBe('not-newer');
    expect(checkManifest({ ...m, version: '1.0.9', seq: 13 }, device, now)).toBe('not-newer');
    expect(checkManifest(m, { ...device, version: '0.9.0', installedSeq: 1 }, now)).toBe('below-min-from');
  });
});
