/**
 * GoPro's GPMF metadata, read as it is laid out (github.com/gopro/gpmf-parser, README "KLV Design"):
 * each entry is a four-character key, a one-character type, a one-byte struct size and a 16-bit
 * repeat count, then size × repeat bytes of big-endian values padded to 4 bytes; type 0 holds more
 * entries. Written here rather than taken from gopro-telemetry because that library's binary-parser
 * compiles its readers with `new Function`, which the app's Content-Security-Policy refuses.
 */

export interface KlvEntry {
  key: string;
  /** The type character ('\0' for nested entries). */
  type: string;
  structSize: number;
  repeat: number;
  /** The value bytes (size × repeat, without padding). */
  data: Uint8Array;
  /** Where `data` starts in the bytes parsed (to rewrite values in place). */
  dataAt: number;
  /** The entries inside a nested one. */
  children?: KlvEntry[];
}

/** A payload cannot nest deeper than device → stream → value; more is a damaged payload. */
const MAX_DEPTH = 4;

/** Reads the entries of `bytes[start, end)`; stops quietly at a damaged or cut entry. */
export function parseKlv(bytes: Uint8Array, start = 0, end = bytes.length, depth = 0): KlvEntry[] {
  const entries: KlvEntry[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = start;
  while (at + 8 <= end) {
    const key = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    // Some cameras pad between devices with zero words.
    if (key === '\0\0\0\0') {
      at += 4;
      continue;
    }
    if (!/^[A-Za-z0-9 ]{4}$/.test(key)) break;
    const type = String.fromCharCode(bytes[at + 4]!);
    const structSize = bytes[at + 5]!;
    const repeat = view.getUint16(at + 6);
    const length = structSize * repeat;
    const dataAt = at + 8;
    if (dataAt + length > end) break;
    const entry: KlvEntry = { key, type, structSize, repeat, data: bytes.subarray(dataAt, dataAt + length), dataAt };
    if (type === '\0' && depth < MAX_DEPTH) entry.children = parseKlv(bytes, dataAt, dataAt + length, depth + 1);
    entries.push(entry);
    at = dataAt + Math.ceil(length / 4) * 4;
  }
  return entries;
}

/** Bytes per value of each numeric type. */
const TYPE_SIZE: Record<string, number> = {
  b: 1,
  B: 1,
  s: 2,
  S: 2,
  l: 4,
  L: 4,
  f: 4,
  q: 4,
  d: 8,
  j: 8,
  J: 8,
  Q: 8,
};

function readNumber(view: DataView, at: number, type: string): number {
  switch (type) {
    case 'b':
      return view.getInt8(at);
    case 'B':
      return view.getUint8(at);
    case 's':
      return view.getInt16(at);
    case 'S':
      return view.getUint16(at);
    case 'l':
      return view.getInt32(at);
    case 'L':
      return view.getUint32(at);
    case 'f':
      return view.getFloat32(at);
    case 'd':
      return view.getFloat64(at);
    case 'j':
      return Number(view.getBigInt64(at));
    case 'J':
      return Number(view.getBigUint64(at));
    case 'q':
      return view.getInt32(at) / 65536; // Q15.16
    case 'Q':
      return Number(view.getBigInt64(at)) / 2 ** 32; // Q31.32
    default:
      return NaN;
  }
}

/** The element types of one struct: the entry's own type repeated, or a complex type's TYPE ("lllllllSS"). */
function elementTypes(entry: KlvEntry, complexType?: string): string[] | null {
  if (entry.type === '?') {
    if (!complexType) return null;
    const types = [...complexType];
    const size = types.reduce((sum, t) => sum + (TYPE_SIZE[t] ?? NaN), 0);
    return size === entry.structSize ? types : null;
  }
  const size = TYPE_SIZE[entry.type];
  if (!size || entry.structSize % size !== 0) return null;
  return new Array<string>(entry.structSize / size).fill(entry.type);
}

/**
 * The entry's numeric values, one row per struct, divided by its scale (SCAL: one divisor for
 * all, or one per element). Null for a type this reader does not take.
 */
export function numbers(entry: KlvEntry, scale: number[] = [], complexType?: string): number[][] | null {
  const types = elementTypes(entry, complexType);
  if (!types) return null;
  const view = new DataView(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
  const rows: number[][] = [];
  let at = 0;
  for (let r = 0; r < entry.repeat; r++) {
    const row: number[] = [];
    types.forEach((t, i) => {
      const divisor = scale.length > 1 ? scale[i] : scale[0];
      row.push(readNumber(view, at, t) / (divisor || 1));
      at += TYPE_SIZE[t]!;
    });
    rows.push(row);
  }
  return rows;
}

/** A character entry as text (TYPE, STNM), without its padding zeros. */
export function text(entry: KlvEntry): string {
  return String.fromCharCode(...entry.data).replace(/\0+$/, '');
}

/** GPSU, "yymmddhhmmss.sss" in UTC, as ms since the epoch; null when it does not read as a time. */
export function gpsuToUtcMs(entry: KlvEntry): number | null {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\.(\d{3})/.exec(text(entry));
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return Date.UTC(2000 + y!, mo! - 1, d!, h!, mi!, s!, ms!);
}

/** One stream of one payload: its samples' key (GPS5, GPS9, GPRI, SYST…) and the sticky entries before them. */
export interface KlvStream {
  key: string;
  samples: KlvEntry;
  /** SCAL, TYPE, GPSU, GPSF, STMP… as found in the stream, the last of each. */
  meta: Map<string, KlvEntry>;
}

/** The streams of one payload (an MP4 sample of the metadata track), of every device in it. */
export function streamsOf(payload: Uint8Array): KlvStream[] {
  const streams: KlvStream[] = [];
  for (const device of parseKlv(payload)) {
    if (device.key !== 'DEVC' || !device.children) continue;
    for (const strm of device.children) {
      if (strm.key !== 'STRM' || !strm.children) continue;
      // The samples are the stream's last entry; the entries before them describe them.
      const samples = strm.children[strm.children.length - 1];
      const meta = new Map(strm.children.slice(0, -1).map((e) => [e.key, e] as const));
      if (samples && samples.repeat > 0) streams.push({ key: samples.key, samples, meta });
    }
  }
  return streams;
}
