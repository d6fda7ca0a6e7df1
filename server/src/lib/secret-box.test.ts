import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox('k'.repeat(40));
  const ana = 'ana@example.com';

  it('round-trips text, including unicode, and keeps empty as empty', () => {
    for (const s of ['senha', 'çãõ ü 🏍️', ' espaços ']) expect(box.open(box.seal(s, ana), ana)).toBe(s);
    expect(box.seal('', ana)).toBe('');
    expect(box.open('', ana)).toBe('');
  });

  it('uses a fresh IV each time', () => {
    expect(box.seal('same', ana)).not.toBe(box.seal('same', ana));
  });

  it('refuses tampered values and values sealed with another key', () => {
    const sealed = box.seal('segredo', ana);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v2:${raw.toString('base64')}`, ana)).toThrow();
    expect(() => new SecretBox('z'.repeat(40)).open(sealed, ana)).toThrow();
    expect(() => box.open('garbage', ana)).toThrow();
  });

  it("is bound to its owner: one user's sealed password does not open as another's", () => {
    const sealed = box.seal('segredo', ana);
    expect(() => box.open(sealed, 'bruno@example.com')).toThrow();
  });

  it('refuses a shortened authentication tag', () => {
    const sealed = box.seal('segredo', ana);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    // iv (12) + a 4-byte tag + ciphertext: GCM would check only those 4 bytes if the length were not fixed.
    const short = Buffer.concat([raw.subarray(0, 12), raw.subarray(12, 16), raw.subarray(28)]);
    expect(() => box.open(`v2:${short.toString('base64')}`, ana)).toThrow();
    expect(() => box.open(`v2:${raw.subarray(0, 20).toString('base64')}`, ana)).toThrow(/too short/);
  });

  it('still opens values sealed before the binding (v1), and says they are to be sealed again', () => {
    const key = Buffer.from(hkdfSync('sha256', 'k'.repeat(40), 'voltas', 'wifi-password/v1', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update('antiga', 'utf8'), cipher.final()]);
    const legacy = `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
    expect(box.open(legacy, ana)).toBe('antiga');
    expect(box.isLegacy(legacy)).toBe(true);
    expect(box.isLegacy(box.seal('nova', ana))).toBe(false);
  });

  it('refuses short keys', () => {
    expect(() => new SecretBox('short')).toThrow(/32/);
  });
});
