import { allocGpsColumns, type GpsColumnKey, type GpsColumns } from './six-format';

/**
 * Compact binary of parsed GPS columns, written once at upload and served as is (the read path
 * parses nothing). Layout, little-endian: 'VGC1', uint32 count, then the columns widest first so
 * every typed array is aligned: f64 lat, lon, timeMs, speed, roll, leanFiltered; i32 lapCount,
 * meterSum; u32 line; u16 satellites; u8 firstLap, heat.
 */
const MAGIC = 0x31434756; // 'VGC1'
const F64 = ['lat', 'lon', 'timeMs', 'speed', 'roll', 'leanFiltered'] as const;
const I32 = ['lapCount', 'meterSum'] as const;

/** The columns in encoded order with their bytes per value (for writers that stream them). */
export const CODEC_LAYOUT: readonly (readonly [GpsColumnKey, number])[] = [
  ...F64.map((k) => [k, 8] as const),
  ...I32.map((k) => [k, 4] as const),
  ['line', 4],
  ['satellites', 2],
  ['firstLap', 1],
  ['heat', 1],
];

export function encodedSize(count: number): number {
  return 8 + count * CODEC_LAYOUT.reduce((sum, [, bytes]) => sum + bytes, 0);
}

/** The 8-byte header: magic and sample count. */
export function encodeHeader(count: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, count, true);
  return out;
}

/** The bytes of one column's first `count` values, without copying. */
export function columnBytes(c: GpsColumns, key: GpsColumnKey, count = c.count): Uint8Array {
  const src = c[key];
  return new Uint8Array(src.buffer, src.byteOffset, count * src.BYTES_PER_ELEMENT);
}

export function encodeGpsColumns(c: GpsColumns): Uint8Array {
  const out = new Uint8Array(encodedSize(c.count));
  out.set(encodeHeader(c.count), 0);
  let offset = 8;
  for (const [k] of CODEC_LAYOUT) {
    const bytes = columnBytes(c, k);
    out.set(bytes, offset);
    offset += bytes.length;
  }
  return out;
}

/** Decodes without copying when the buffer is 8-byte aligned (as a fetched ArrayBuffer is). */
export function decodeGpsColumns(bytes: Uint8Array): GpsColumns {
  if (bytes.byteLength < 8) throw new RangeError('GPS columns: truncated header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new RangeError('GPS columns: bad magic');
  const count = view.getUint32(4, true);
  if (bytes.byteLength !== encodedSize(count)) throw new RangeError('GPS columns: size does not match the count');
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const buf = aligned.buffer;
  let offset = aligned.byteOffset + 8;
  const take = <T>(Ctor: new (b: ArrayBufferLike, o: number, n: number) => T, bytesPer: number): T => {
    const arr = new Ctor(buf, offset, count);
    offset += count * bytesPer;
    return arr;
  };
  const c = allocGpsColumns(0);
  c.count = count;
  for (const k of F64) c[k] = take(Float64Array, 8);
  for (const k of I32) c[k] = take(Int32Array, 4);
  c.line = take(Uint32Array, 4);
  c.satellites = take(Uint16Array, 2);
  c.firstLap = take(Uint8Array, 1);
  c.heat = take(Uint8Array, 1);
  return c;
}
