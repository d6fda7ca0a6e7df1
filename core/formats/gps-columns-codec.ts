import { allocGpsColumns, type GpsColumnKey, type GpsColumns } from './gps-columns';

/**
 * Compact binary of parsed GPS columns, written once at upload (then gzipped) and served as is:
 * the read path parses nothing. Exact: every value decodes to the same number the parser produced.
 *
 * Every GPS value is a decimal from the six text, so a column is stored as integers m with
 * value = m / 10^scale (the smallest scale that holds the whole column, |m| < 2^31), in blocks
 * of CODEC_BLOCK values: the block's first integer, then the differences between neighbours
 * (samples 100 ms apart barely change) in as few bytes as hold them all (1, 2 or 4, signed), split
 * into byte planes (all low bytes, then all second bytes…), which gzip packs far better than
 * doubles: less to download over a track's mobile data (sizes: bench/README.md). A column that no
 * scale holds is kept as its 8-byte doubles, also in byte planes (RAW). Dividing exact integers
 * is correctly rounded, as parsing is: m / 10^s gives back the very double the parser made of the
 * text (a negative zero comes back as 0).
 *
 * Layout, little-endian: 'VGC3', uint32 count, then one 4-byte entry per column in CODEC_COLUMNS
 * order (uint8 scale or RAW, 3 zero bytes), then each column's blocks in that order: a block is
 * one byte of width (1, 2 or 4), its first integer (int32) and `width` planes of its other
 * values' differences; a RAW block is the byte 8 and 8 planes of its doubles. An older encoding
 * (VGC2) fails the magic check; the server rebuilds it from gps.six on first read.
 */
const MAGIC = 0x33434756; // 'VGC3'
/** Powers of ten, exact as doubles up to 10^22. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
export const CODEC_COLUMNS: readonly GpsColumnKey[] = [
  'lat',
  'lon',
  'timeMs',
  'speed',
  'roll',
  'leanFiltered',
  'lapCount',
  'meterSum',
  'line',
  'satellites',
  'firstLap',
  'heat',
];
/**
 * Values per block; the last block of a column holds the rest. Small enough that a jump (a new
 * heat, a stop in the pits) widens only its own block.
 */
export const CODEC_BLOCK = 4096;
/** Scale of a column stored as doubles. */
export const RAW = 255;
const MAX_SCALE = 9;
/** The first six columns hold decimals (doubles); the rest integers. */
const DECIMAL_COLUMNS = 6;
export const HEADER_BYTES = 8 + CODEC_COLUMNS.length * 4;
/** A block's width byte and first integer. */
const BLOCK_HEAD = 5;
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

/**
 * One block (at most CODEC_BLOCK values) of a column, encoded: its width byte, its first integer
 * (int32), then the planes of the differences after it. Blocks stand alone: a column's first
 * value is large, its differences small.
 */
export function encodeBlock(values: ArrayLike<number>, scale: number): Uint8Array {
  const n = values.length;
  // One monomorphic copy first: the columns are five kinds of typed array.
  const v = new Float64Array(n);
  v.set(values);
  if (scale === RAW) {
    const out = new Uint8Array(1 + n * 8);
    out[0] = 8;
    out.set(toPlanes(new Uint8Array(v.buffer), 8, n), 1);
    return out;
  }
  const d = new Int32Array(n);
  const p = POW10[scale]!;
  const first = Math.round(v[0]! * p) | 0;
  let prev = first;
  let lo = 0;
  let hi = 0;
  for (let i = 1; i < n; i++) {
    const m = Math.round(v[i]! * p) | 0;
    const diff = (m - prev) | 0;
    prev = m;
    d[i] = diff;
    if (diff < lo) lo = diff;
    else if (diff > hi) hi = diff;
  }
  const width = lo >= -128 && hi <= 127 ? 1 : lo >= -32_768 && hi <= 32_767 ? 2 : 4;
  const out = new Uint8Array(BLOCK_HEAD + (n - 1) * width);
  out[0] = width;
  new DataView(out.buffer).setInt32(1, first, true);
  for (let b = 0; b < width; b++) {
    const plane = BLOCK_HEAD + b * (n - 1);
    const shift = 8 * b;
    for (let i = 1; i < n; i++) out[plane + i - 1] = (d[i]! >>> shift) & 0xff;
  }
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
  const parts: Uint8Array[] = [encodeHeader(c.count, finder.scales)];
  CODEC_COLUMNS.forEach((key, k) => {
    for (let from = 0; from < c.count; from += CODEC_BLOCK)
      parts.push(encodeBlock(c[key].subarray(from, Math.min(c.count, from + CODEC_BLOCK)), finder.scales[k]!));
  });
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Decodes the columns; a RangeError for bytes that are not exactly such an encoding, before any
 * value is decoded. `lazy`: each column is decoded when first read (a page's first paint reads
 * five of the twelve: positions, speed, roll and distance), in place of its getter; the bytes
 * are kept until then. Every block was checked already: a lazy read cannot fail.
 */
export function decodeGpsColumns(bytes: Uint8Array, opts: { lazy?: boolean } = {}): GpsColumns {
  const { count, scales, offsets } = checkLayout(bytes);
  const c = allocGpsColumns(count);
  c.count = count;
  if (!opts.lazy) {
    // One buffer for every integer column.
    let wide: Float64Array | undefined;
    CODEC_COLUMNS.forEach((key, k) =>
      decodeColumn(bytes, offsets[k]!, scales[k]!, count, c[key], () => (wide ??= new Float64Array(count))),
    );
    return c;
  }
  CODEC_COLUMNS.forEach((key, k) => {
    const target = c[key];
    Object.defineProperty(c, key, {
      configurable: true,
      enumerable: true,
      get() {
        decodeColumn(bytes, offsets[k]!, scales[k]!, count, target, () => new Float64Array(count));
        Object.defineProperty(c, key, { value: target, writable: true, enumerable: true, configurable: true });
        return target;
      },
    });
  });
  return c;
}

/** Header and every block's width and extent checked, before anything is allocated for `count` samples. */
function checkLayout(bytes: Uint8Array): { count: number; scales: Uint8Array; offsets: number[] } {
  if (bytes.byteLength < 8) throw new RangeError('GPS columns: truncated header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new RangeError('GPS columns: bad magic');
  if (bytes.byteLength < HEADER_BYTES) throw new RangeError('GPS columns: truncated header');
  const count = view.getUint32(4, true);
  const scales = new Uint8Array(CODEC_COLUMNS.length);
  for (let k = 0; k < scales.length; k++) {
    const s = bytes[8 + k * 4]!;
    if (
      (s > MAX_SCALE && s !== RAW) ||
      (k >= DECIMAL_COLUMNS && s !== 0) ||
      view.getUint32(8 + k * 4, true) >>> 8 !== 0
    )
      throw new RangeError('GPS columns: bad column scale');
    scales[k] = s;
  }
  const offsets: number[] = [];
  let end = HEADER_BYTES;
  for (let k = 0; k < scales.length; k++) {
    offsets.push(end);
    for (let from = 0; from < count; from += CODEC_BLOCK) {
      const n = Math.min(count - from, CODEC_BLOCK);
      if (end >= bytes.byteLength) throw new RangeError('GPS columns: size does not match the count');
      const width = bytes[end]!;
      if (scales[k] === RAW ? width !== 8 : width !== 1 && width !== 2 && width !== 4)
        throw new RangeError('GPS columns: bad block width');
      end += scales[k] === RAW ? 1 + 8 * n : BLOCK_HEAD + width * (n - 1);
    }
  }
  if (end !== bytes.byteLength) throw new RangeError('GPS columns: size does not match the count');
  return { count, scales, offsets };
}

/**
 * One column's blocks from `offset`, into `target`: each block in one loop from its bytes to the
 * value (m / 10^scale for a decimal column, straight into it; an integer column through `wide`,
 * then one typed-array set, which wraps the int32 back into the column's own type).
 */
function decodeColumn(
  bytes: Uint8Array,
  offset: number,
  scale: number,
  count: number,
  target: GpsColumns[GpsColumnKey],
  wide: () => Float64Array,
): void {
  if (scale === RAW) {
    for (let from = 0; from < count; from += CODEC_BLOCK) {
      const n = Math.min(count - from, CODEC_BLOCK);
      offset++; // width 8
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
  const out = target instanceof Float64Array ? target : wide();
  const p = POW10[scale]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let from = 0; from < count; from += CODEC_BLOCK) {
    const n = Math.min(count - from, CODEC_BLOCK);
    const width = bytes[offset]!;
    const first = view.getInt32(offset + 1, true);
    offset += BLOCK_HEAD;
    if (width === 1) block1(bytes, offset, n, first, p, out, from);
    else if (width === 2) block2(bytes, offset, n, first, p, out, from);
    else block4(bytes, offset, n, first, p, out, from);
    offset += (n - 1) * width;
  }
  if (out !== target) target.set(out.subarray(0, count));
}

// The decoder's loops, each a small function of its own, called once per block: a page decodes
// once, and a small function is optimized after a few blocks where one loop inside a long
// function would run unoptimized to the end. One loop a block from bytes to values.

/** A block's n values from its first integer and its 1-byte differences at `at`, each m / p. */
function block1(b: Uint8Array, at: number, n: number, first: number, p: number, out: Float64Array, from: number): void {
  let m = first;
  out[from] = m / p;
  for (let i = 1; i < n; i++) {
    m = (m + ((b[at + i - 1]! << 24) >> 24)) | 0;
    out[from + i] = m / p;
  }
}

/** The same from 2-byte differences in two planes (low bytes, then high bytes). */
function block2(b: Uint8Array, at: number, n: number, first: number, p: number, out: Float64Array, from: number): void {
  const hi = at + n - 1 - 1;
  let m = first;
  out[from] = m / p;
  for (let i = 1; i < n; i++) {
    m = (m + (((b[at + i - 1]! | (b[hi + i]! << 8)) << 16) >> 16)) | 0;
    out[from + i] = m / p;
  }
}

/** The same from 4-byte differences in four planes. */
function block4(b: Uint8Array, at: number, n: number, first: number, p: number, out: Float64Array, from: number): void {
  const d = n - 1;
  const p1 = at + d - 1,
    p2 = p1 + d,
    p3 = p2 + d;
  let m = first;
  out[from] = m / p;
  for (let i = 1; i < n; i++) {
    m = (m + (b[at + i - 1]! | (b[p1 + i]! << 8) | (b[p2 + i]! << 16) | (b[p3 + i]! << 24))) | 0;
    out[from + i] = m / p;
  }
}
