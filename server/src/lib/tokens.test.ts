import { describe, expect, it } from 'vitest';
import { hashToken, newToken } from './tokens';

describe('tokens', () => {
  it('are 43 URL-safe characters and never start with "-" (a command line would read an option)', () => {
    for (let i = 0; i < 5000; i++) {
      const t = newToken();
      expect(t).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{42}$/);
    }
  });

  it('are stored by sha256 hash only', () => {
    const t = newToken();
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).not.toContain(t);
    // The SHA-256 of the stored sessions and device tokens: a change here would sign everyone out.
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
