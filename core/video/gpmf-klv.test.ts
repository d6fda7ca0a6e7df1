import { describe, expect, it } from 'vitest';
import { createRandom } from '../sim/random';
import { gpsuToUtcMs, numbers, parseKlv, streamsOf, text } from './gpmf-klv';

/** One KLV entry: key, type, struct size, repeat, then the values padded to 4 bytes. */
function klv(key: string, type: string, structSize: number, data: Uint8Array): Uint8Array {
  const repeat = structSize ? data.length / structSize : 0;
  const out = new Uint8Array(8 + Math.ceil(data.length / 4) * 4);
  out.set(new TextEncoder().encode(key), 0);
  out[4] = type.charCodeAt(0);
  out[5] = structSize;
  new DataView(out.buffer).setUint16(6, repeat);
  out.set(data, 8);
  return out;
}
const nested = (key: string, ...children: Uint8Array[]) => {
  const body = new Uint8Array(children.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of children) body.set(c, (at += c.length) - c.length);
  return klv(key, '\0', 1, body);
};
const int32s = (values: number[]) => {
  const b = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(b.buffer).setInt32(i * 4, v));
  return b;
};
const chars = (s: string) => new TextEncoder().encode(s);

// A GPS9 stream as a HERO11 writes it: a complex type (TYPE) of seven int32 and two uint16, one scale each.
const GPS9_ROW = (lat: number, lon: number, days: number, secondsMs: number, fix: number) => {
  const b = new Uint8Array(32);
  const v = new DataView(b.buffer);
  [lat * 1e7, lon * 1e7, 812_000, 25_000, 25_100, days, secondsMs].forEach((n, i) => v.setInt32(i * 4, n));
  v.setUint16(28, 150);
  v.setUint16(30, fix);
  return b;
};

describe('the GPMF KLV reader', () => {
  it('reads a device, its streams, their sticky entries and scaled values', () => {
    const payload = nested(
      'DEVC',
      klv('DVNM', 'c', 1, chars('Camera')),
      nested(
        'STRM',
        klv('STNM', 'c', 1, chars('GPS (Lat., Long., Alt., 2D speed, 3D speed)')),
        klv('GPSU', 'U', 16, chars('191118234516.470')),
        klv('SCAL', 'l', 4, int32s([10_000_000, 10_000_000, 1000, 1000, 100])),
        klv(
          'GPS5',
          'l',
          20,
          int32s([331267610, -1173273371, 5000, 1201, 130, 331267620, -1173273381, 5010, 1202, 131]),
        ),
      ),
      nested(
        'STRM',
        klv('TYPE', 'c', 1, chars('lllllllSS')),
        klv('SCAL', 'l', 4, int32s([1e7, 1e7, 1000, 1000, 100, 1, 1000, 100, 1])),
        klv('GPS9', '?', 32, new Uint8Array([...GPS9_ROW(-23.7, -46.69, 9818, 85_516_470, 3)])),
      ),
    );
    const streams = streamsOf(payload);
    expect(streams.map((s) => s.key)).toEqual(['GPS5', 'GPS9']);
    const [gps5, gps9] = streams as [(typeof streams)[0], (typeof streams)[0]];
    expect(text(gps5.meta.get('STNM')!)).toMatch(/^GPS/);
    expect(gpsuToUtcMs(gps5.meta.get('GPSU')!)).toBe(Date.parse('2019-11-18T23:45:16.470Z'));
    const rows = numbers(gps5.samples, numbers(gps5.meta.get('SCAL')!)!.flat())!;
    expect(rows).toHaveLength(2);
    expect(rows[0]![0]).toBeCloseTo(33.126761, 6);
    expect(rows[0]![1]).toBeCloseTo(-117.3273371, 7);
    expect(rows[1]![4]).toBeCloseTo(1.31, 6);
    const nine = numbers(gps9.samples, numbers(gps9.meta.get('SCAL')!)!.flat(), text(gps9.meta.get('TYPE')!))!;
    expect(nine[0]).toEqual([-23.7, -46.69, 812, 25, 251, 9818, 85_516.47, 1.5, 3]);
    // The payload's bytes locate each value (the test helper rewrites fixes in place).
    expect(new DataView(payload.buffer).getInt32(gps5.samples.dataAt)).toBe(331267610);
  });

  it('a cut or garbled payload gives what precedes the damage, never an exception', () => {
    const good = nested('DEVC', nested('STRM', klv('GPS5', 'l', 20, int32s([1, 2, 3, 4, 5]))));
    for (let cut = 0; cut < good.length; cut++) expect(() => streamsOf(good.subarray(0, cut))).not.toThrow();
    expect(streamsOf(good.subarray(0, good.length - 4))).toEqual([]);
    const rnd = createRandom(59);
    for (let n = 0; n < 2_000; n++) {
      const bytes = good.slice();
      for (let k = 0; k < 3; k++) bytes[Math.floor(rnd.next() * bytes.length)] = Math.floor(rnd.next() * 256);
      expect(() => {
        for (const s of streamsOf(bytes)) numbers(s.samples, [], 'llSSJ');
      }).not.toThrow();
    }
    // A type this reader does not take, or a TYPE whose size is not the struct's, reads as nothing.
    expect(numbers(parseKlv(klv('XXXX', 'G', 16, new Uint8Array(16)))[0]!)).toBeNull();
    expect(numbers(parseKlv(klv('GPS9', '?', 8, new Uint8Array(8)))[0]!, [], 'lll')).toBeNull();
  });
});
