import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox('k'.repeat(40));

  it('round-trips text, including unicode, and keeps empty as empty', () => {
    for (const s of ['senha', 'çãõ ü 🏍️', ' espaços ']) expect(box.open(box.seal(s))).toBe(s);
    expect(box.seal('')).toBe('');
    expect(box.open('')).toBe('');
  });

  it('uses a fresh IV each time', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses tampered values and values sealed with another key', () => {
    const sealed = box.seal('segredo');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => new SecretBox('z'.repeat(40)).open(sealed)).toThrow();
    expect(() => box.open('garbage')).toThrow();
  });

  it('refuses short keys', () => {
    expect(() => new SecretBox('short')).toThrow(/32/);
  });
});
