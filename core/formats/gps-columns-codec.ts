import { allocGpsColumns, POW10, type GpsColumnKey, type GpsColumns } from './six-format';

/**
 * Compact binary of parsed GPS columns, written once at upload (then gzipped) and served as is:
 * the read path parses nothing. Exact: every value decodes to the same number the parser produced.
 *
 * Every GPS value is a decimal from the six text, so a column is stored as integers m with
 * value = m / 10^scale (the smallest scale that holds the whole column, |m| < 2^31), as the
 * differences between neighbours (samples 100 ms apart barely change), with each block of
 * CODEC_BLOCK differences split into byte planes (all low bytes, then all second bytes…): long
 * runs of zeros that gzip shrinks about 4 times better than the plain numbers (2.7 MB → 0.7 MB
 * for 110,000 samples). A column that no scale holds is kept as its 8-byte doubles, also in byte
 * planes (RAW). Dividing exact integers is correctly rounded, as parsing is: m / 10^s gives back
 * the very double the parser made of the text (a negative zero comes back as 0).
 *
 * Layout, little-endian: 'VGC2', uint32 count, then one 4-byte entry per column in CODEC_COLUMNS
 * order (uint8 scale or RAW, 3 zero bytes), then each column's blocks in that order.
 */
const MAGIC = 0x32434756; // 'VGC2'
export const CODEC_COLUMNS: readonly GpsColumnKey[] = ['lat', 'lon', 'timeMs', 'speed', 'roll', 'leanFiltered', 'lapCount', 'meterSum', 'line', 'satellites', 'firstLap', 'heat'];
/** Differences per byte-plane block; the last block of a column holds the rest. */
export const CODEC_BLOCK = 65_536;
/** Scale of a column stored as doubles. */
export const RAW = 255;
const MAX_SCALE = 9;
/** The first six columns hold decimals (doubles); the rest integers. */
const DECIMAL_COLUMNS = 6;
export const HEADER_BYTES = 8 + CODEC_COLUMNS.length * 4;
const INT32_MAX = 2 ** 31 - 1;

const holds = (v: number, scale: number): boolean => {
  const p = POW10[scale]!;
  const m = Math.round(v * p);
  return m / p === v && Math.abs(m) <= INT32_MAX;
};

/**
 * The smallest scale per column that holds every value seen (RAW when none does), fed batch by
 * batch. A value held at a scale is held at every larger one below the int32 limit (m·10^j, then
 * an exact division), so the scale only ever grows.
 */
export class ScaleFinder {
  readonly scales = new Uint8Array(CODEC_COLUMNS.length);

  add(c: GpsColumns, from = 0, to = c.count): void {
    // Only the decimal columns: the integer ones are always scale 0 (their differences wrap as
    // int32 and come back exactly in their own typed array).
    CODEC_COLUMNS.slice(0, DECIMAL_COLUMNS).forEach((key, k) => {
      const values = c[key];
      let s = this.scales[k]!;
      for (let i = from; i < to && s !== RAW; i++) {
        const v = values[i]!;
        while (s !== RAW && !holds(v, s)) s = s === MAX_SCALE ? RAW : s + 1;
      }
      this.scales[k] = s;
    });
  }
}

/** The header: magic, count and the scale of each column. */
export function encodeHeader(count: number, scales: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, count, true);
  scales.forEach((s, k) => out.set([s], 8 + k * 4));
  return out;
}

/** Encoded bytes of one column of `count` values at `scale`. */
const columnSize = (count: number, scale: number) => count * (scale === RAW ? 8 : 4);

export function encodedSize(count: number, scales: Uint8Array): number {
  let size = HEADER_BYTES;
  for (const s of scales) size += columnSize(count, s);
  return size;
}

/**
 * One block (at most CODEC_BLOCK values) of a column, encoded. `carry.m` is the previous block's
 * last integer (0 at a column's start) and is updated for the next block.
 */
export function encodeBlock(values: ArrayLike<number>, scale: number, carry: { m: number }): Uint8Array {
  const n = values.length;
  // One monomorphic copy first: the columns are five kinds of typed array.
  const v = new Float64Array(n);
  v.set(values);
  if (scale === RAW) return toPlanes(new Uint8Array(v.buffer), 8, n);
  const out = new Uint8Array(n * 4);
  const p = POW10[scale]!;
  let prev = carry.m;
  for (let i = 0; i < n; i++) {
    const m = Math.round(v[i]! * p) | 0;
    const d = (m - prev) | 0;
    prev = m;
    out[i] = d & 0xff;
    out[n + i] = (d >>> 8) & 0xff;
    out[2 * n + i] = (d >>> 16) & 0xff;
    out[3 * n + i] = d >>> 24;
  }
  carry.m = prev;
  return out;
}

/** `n` values of `width` bytes → byte planes (all first bytes, then all second bytes…). */
function toPlanes(plain: Uint8Array, width: number, n: number): Uint8Array {
  const out = new Uint8Array(plain.length);
  for (let b = 0; b < width; b++) {
    const plane = b * n;
    for (let i = 0; i < n; i++) out[plane + i] = plain[i * width + b]!;
  }
  return out;
}

export function encodeGpsColumns(c: GpsColumns): Uint8Array {
  const finder = new ScaleFinder();
  finder.add(c);
  const out = new Uint8Array(encodedSize(c.count, finder.scales));
  out.set(encodeHeader(c.count, finder.scales), 0);
  let offset = HEADER_BYTES;
  CODEC_COLUMNS.forEach((key, k) => {
    const carry = { m: 0 };
    for (let from = 0; from < c.count; from += CODEC_BLOCK) {
      const block = encodeBlock(c[key].subarray(from, Math.min(c.count, from + CODEC_BLOCK)), finder.scales[k]!, carry);
      out.set(block, offset);
      offset += block.length;
    }
  });
  return out;
}

/** Decodes the columns; a RangeError for bytes that are not exactly such an encoding. */
export function decodeGpsColumns(bytes: Uint8Array): GpsColumns {
  if (bytes.byteLength < 8) throw new RangeError('GPS columns: truncated header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new RangeError('GPS columns: bad magic');
  if (bytes.byteLength < HEADER_BYTES) throw new RangeError('GPS columns: truncated header');
  const count = view.getUint32(4, true);
  const scales = new Uint8Array(CODEC_COLUMNS.length);
  for (let k = 0; k < scales.length; k++) {
    const s = bytes[8 + k * 4]!;
    if ((s > MAX_SCALE && s !== RAW) || (k >= DECIMAL_COLUMNS && s !== 0) || view.getUint32(8 + k * 4, true) >>> 8 !== 0) throw new RangeError('GPS columns: bad column scale');
    scales[k] = s;
  }
  if (bytes.byteLength !== encodedSize(count, scales)) throw new RangeError('GPS columns: size does not match the count');
  const c = allocGpsColumns(count);
  c.count = count;
  let offset = HEADER_BYTES;
  // Monomorphic loops into one int32 buffer, then one conversion into each column's own type
  // (typed-array set, or a division for a scaled decimal column).
  const ints = new Int32Array(count);
  CODEC_COLUMNS.forEach((key, k) => {
    const scale = scales[k]!;
    const target = c[key];
    if (scale === RAW) {
      for (let from = 0; from < count; from += CODEC_BLOCK) {
        const n = Math.min(count - from, CODEC_BLOCK);
        const plain = new Uint8Array(n * 8);
        for (let b = 0; b < 8; b++) {
          const plane = offset + b * n;
          for (let i = 0; i < n; i++) plain[i * 8 + b] = bytes[plane + i]!;
        }
        target.set(new Float64Array(plain.buffer), from);
        offset += n * 8;
      }
      return;
    }
    let prev = 0;
    for (let from = 0; from < count; from += CODEC_BLOCK) {
      const n = Math.min(count - from, CODEC_BLOCK);
      const p0 = offset;
      const p1 = offset + n;
      const p2 = offset + 2 * n;
      const p3 = offset + 3 * n;
      for (let i = 0; i < n; i++) {
        prev = (prev + (bytes[p0 + i]! | (bytes[p1 + i]! << 8) | (bytes[p2 + i]! << 16) | (bytes[p3 + i]! << 24))) | 0;
        ints[from + i] = prev;
      }
      offset += n * 4;
    }
    if (scale === 0) {
      target.set(ints);
    } else {
      const out = target as Float64Array;
      const p = POW10[scale]!;
      for (let i = 0; i < count; i++) out[i] = ints[i]! / p;
    }
  });
  return c;
}
