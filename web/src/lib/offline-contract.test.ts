import { describe, expect, it } from 'vitest';
import { keptCopyServes, signedInBy } from './offline-contract';

describe("the service worker's check of a kept copy", () => {
  it('serves a copy only to the user it was kept for', () => {
    expect(keptCopyServes('ana', 'ana')).toBe(true);
    expect(keptCopyServes('ana', 'bruno')).toBe(false);
  });

  it('never serves a copy of an unknown user, nor to nobody', () => {
    expect(keptCopyServes(null, 'ana')).toBe(false);
    expect(keptCopyServes('', 'ana')).toBe(false);
    expect(keptCopyServes('ana', null)).toBe(false);
    expect(keptCopyServes(null, null)).toBe(false);
    expect(keptCopyServes('', '')).toBe(false);
  });
});

describe('who a network answer says is signed in', () => {
  it('the user it names; nobody after a 401; nothing said otherwise', () => {
    expect(signedInBy(200, 'ana')).toBe('ana');
    expect(signedInBy(404, 'ana')).toBe('ana');
    expect(signedInBy(401, null)).toBeNull();
    expect(signedInBy(200, null)).toBeUndefined();
    expect(signedInBy(200, '')).toBeUndefined();
    expect(signedInBy(503, null)).toBeUndefined();
  });
});
