import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CODEC_COLUMNS,
  decodeGpsColumns,
  decodeGpsColumns as decode,
  encodeGpsColumns,
  HEADER_BYTES,
  RAW,
} from './gps-columns-codec';
import { parseGpsSix } from './gps-six';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumns } from './gps-columns';

const params = { seed: 20261122, numRuns: 200 };

/** Every column equal value for value (a negative zero may come back as 0: the same number). */
function expectSame(back: GpsColumns, c: GpsColumns) {
  expect(back.count).toBe(c.count);
  for (const k of GPS_COLUMN_KEYS) {
    expect(back[k].constructor, k).toBe(c[k].constructor);
    for (let i = 0; i < c.count; i++) if (back[k][i] !== c[k][i]) expect(back[k][i], `${k}[${i}]`).toBe(c[k][i]);
  }
}

/** Parsed GPS moving a few metres a sample, 500 lines (its differences all fit in 1 byte). */
const six = Array.from(
  { length: 500 },
  (_, i) =>
    `-23.70${String(37439 + i * 37).padStart(5, '0')},-46.69${String(99096 - i * 21).padStart(5, '0')}|${60 + (i % 7)}.1|12|1300${String(Math.floor(i / 10) % 60).padStart(2, '0')}.${i % 10}00|0|1|A|1.1|0.3|${i * 2}`,
).join('\n');

const scaleOf = (bytes: Uint8Array, key: string) => bytes[8 + CODEC_COLUMNS.indexOf(key as never) * 4];

/** Columns from numbers as given (no parsing), for the codec's edge cases. */
function columnsOf(rows: Partial<Record<(typeof GPS_COLUMN_KEYS)[number], number>>[]): GpsColumns {
  const c = allocGpsColumns(rows.length);
  rows.forEach((r, i) => {
    for (const k of GPS_COLUMN_KEYS) c[k][i] = r[k] ?? 0;
  });
  c.count = rows.length;
  return c;
}

describe('GPS columns codec', () => {
  it('decimals from the six text come back exactly, stored as scaled differences', () => {
    const decimal = (min: number, max: number, places: number) =>
      fc.integer({ min: min * 10 ** places, max: max * 10 ** places }).map((m) => (m / 10 ** places).toFixed(places));
    const line = fc
      .tuple(
        decimal(-90, 90, 7),
        decimal(-180, 180, 7),
        decimal(0, 400, 1),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 86_399_999 }),
        decimal(-70, 70, 2),
        decimal(-70, 70, 1),
      )
      .map(
        ([lat, lon, speed, sats, ms, roll, lean]) =>
          `${lat},${lon}|${speed}|${sats}|${String(Math.floor(ms / 3_600_000)).padStart(2, '0')}${String(Math.floor(ms / 60_000) % 60).padStart(2, '0')}${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}|3|0|B|${roll}|${lean}|${ms % 100_000}`,
      );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 60 }), (lines) => {
        const c = parseGpsSix(lines.join('\n')).value;
        const bytes = encodeGpsColumns(c);
        expectSame(decodeGpsColumns(bytes), c);
        expectSame(decodeGpsColumns(bytes, { lazy: true }), c);
        expect(scaleOf(bytes, 'lat')).toBeLessThanOrEqual(7);
        expect(scaleOf(bytes, 'speed')).toBeLessThanOrEqual(1);
      }),
      params,
    );
  });

  it('any doubles come back exactly (a column no scale holds is kept as doubles)', () => {
    const row = fc.record({
      lat: fc.double({ noNaN: true }),
      lon: fc.double({ min: -1e12, max: 1e12, noNaN: true }),
      speed: fc.integer().map((m) => m / 1e9),
      roll: fc.double({ noNaN: true, noDefaultInfinity: true }),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), (rows) => {
        const c = columnsOf(rows);
        expectSame(decodeGpsColumns(encodeGpsColumns(c)), c);
        expectSame(decodeGpsColumns(encodeGpsColumns(c), { lazy: true }), c);
      }),
      params,
    );
    const bytes = encodeGpsColumns(columnsOf([{ lat: Math.PI }, { lat: 1e300 }]));
    expect(scaleOf(bytes, 'lat')).toBe(RAW);
  });

  it('no samples: a header alone, decoding to empty columns', () => {
    const bytes = encodeGpsColumns(columnsOf([]));
    expect(bytes.length).toBe(HEADER_BYTES);
    expectSame(decodeGpsColumns(bytes), columnsOf([]));
  });

  it('integer columns keep every value of their type, past int32 (differences wrap)', () => {
    const c = columnsOf([
      { line: 1, meterSum: 2_000_000_000, lapCount: -5 },
      { line: 4_294_967_295, meterSum: -2_000_000_000, lapCount: 1_000_000 },
      { line: 2_147_483_648, satellites: 65_535, heat: 255 },
    ]);
    expectSame(decodeGpsColumns(encodeGpsColumns(c)), c);
  });

  it('stores each block of differences in the fewest bytes that hold them (1, 2 or 4), at every boundary', () => {
    // Differences at the limits of each width, in one integer column.
    const cases: [diffs: number[], width: number][] = [
      [[127, -128, 0], 1],
      [[128], 2],
      [[-129], 2],
      [[32_767, -32_768], 2],
      [[32_768], 4],
      [[-32_769], 4],
      [[2 ** 31 - 1, -(2 ** 31)], 4],
    ];
    for (const [diffs, width] of cases) {
      const rows: { meterSum: number }[] = [{ meterSum: 0 }];
      for (let i = 0; i < 10; i++) rows.push({ meterSum: (rows.at(-1)!.meterSum + diffs[i % diffs.length]!) | 0 });
      const c = columnsOf(rows);
      const bytes = encodeGpsColumns(c);
      expectSame(decodeGpsColumns(bytes), c);
      // Per column: width byte and first value (5), then 10 differences: 1 byte each for the
      // eleven columns of zeros, `width` for meterSum.
      expect(bytes.length, `${diffs}`).toBe(HEADER_BYTES + 12 * 5 + 11 * 10 + 10 * width);
      const meterAt = HEADER_BYTES + CODEC_COLUMNS.indexOf('meterSum') * (5 + 10);
      expect(bytes[meterAt], `${diffs}`).toBe(width);
    }
    // Parsed GPS moving a few metres a sample: every difference in 1 byte, 12 bytes a sample.
    const parsed = parseGpsSix(six);
    expect(parsed.problems).toEqual([]);
    const bytes = encodeGpsColumns(parsed.value);
    expect(bytes.length).toBe(HEADER_BYTES + 12 * 5 + 499 * 12);
    expectSame(decodeGpsColumns(bytes), parsed.value);
  });

  it('lazily: a column is decoded when first read, once, and the others not at all', () => {
    const parsed = parseGpsSix(six);
    const c = decodeGpsColumns(encodeGpsColumns(parsed.value), { lazy: true });
    const decoded = () => GPS_COLUMN_KEYS.filter((k) => 'value' in Object.getOwnPropertyDescriptor(c, k)!);
    expect(decoded()).toEqual([]);
    expect(c.count).toBe(parsed.value.count);
    const speed = c.speed;
    expect(Array.from(speed)).toEqual(Array.from(parsed.value.speed));
    expect(decoded()).toEqual(['speed']);
    expect(c.speed).toBe(speed); // the same array, not decoded again
    c.speed = new Float64Array(0); // a plain property now
    expect(c.speed.length).toBe(0);
    expect(Object.keys(c).sort()).toEqual(['count', ...GPS_COLUMN_KEYS].sort());
    expectSame({ ...c, speed }, parsed.value);
    expect(decoded().length).toBe(GPS_COLUMN_KEYS.length);
  });

  it.each([false, true])('refuses what is not exactly such an encoding, with a RangeError (lazy: %s)', (lazy) => {
    const decodeGpsColumns = (b: Uint8Array) => decode(b, { lazy });
    const bytes = encodeGpsColumns(columnsOf([{ lat: 1.5 }, { lat: 2.25 }]));
    expect(() => decodeGpsColumns(bytes.subarray(0, bytes.length - 1))).toThrow(/size/);
    expect(() => decodeGpsColumns(new Uint8Array([...bytes, 0]))).toThrow(/size/);
    expect(() => decodeGpsColumns(new Uint8Array(8))).toThrow(/magic/);
    expect(() => decodeGpsColumns(new Uint8Array(3))).toThrow(/truncated/);
    expect(() => decodeGpsColumns(bytes.subarray(0, HEADER_BYTES - 1))).toThrow(/truncated/);
    for (const [at, value] of [
      [8, 10],
      [8 + 6 * 4, 1],
      [9, 1],
    ] as const) {
      const bad = bytes.slice();
      bad[at] = value;
      expect(() => decodeGpsColumns(bad), `byte ${at}`).toThrow(/scale/);
    }
    for (const width of [0, 3, 8, 255]) {
      const bad = bytes.slice();
      bad[HEADER_BYTES] = width;
      expect(() => decodeGpsColumns(bad), `width ${width}`).toThrow(/width|size/);
    }
    const rawBytes = encodeGpsColumns(columnsOf([{ lat: Math.PI }]));
    rawBytes[HEADER_BYTES] = 4;
    expect(() => decodeGpsColumns(rawBytes)).toThrow(/width/);
    // A count that promises more than the bytes hold.
    const big = bytes.slice();
    new DataView(big.buffer).setUint32(4, 0xffffffff, true);
    expect(() => decodeGpsColumns(big)).toThrow(RangeError);
    // Unaligned views decode too.
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes, 1);
    expect(Array.from(decodeGpsColumns(padded.subarray(1)).lat)).toEqual([1.5, 2.25]);
  });
});
