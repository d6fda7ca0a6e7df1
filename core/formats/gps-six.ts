/**
 * `gps.six`: one GPS sample per line (DESIGN.md, File formats), parsed into columns. The strict
 * reading of a line is here; canonical lines take the fast path (gps-six-fast.ts) first.
 */
import { fastGpsRun } from './gps-six-fast';
import { allocGpsColumns, GPS_COLUMN_KEYS, setSample, trimGpsColumns, type GpsColumns, type GpsSample } from './gps-columns';
import { HEATS, MAX_LINE_LENGTH, Problems, toInt, toNum, type Heat, type ParseResult } from './six-lines';

/** `140151.100` → ms of day; hh < 24, mm < 60, ss < 60 (a leap second 60 is accepted). */
export function gpsTimeToMs(raw: string): number | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})(?:\.(\d{1,3}))?$/.exec(raw);
  if (!m) return undefined;
  const hh = Number(m[1]);
  const mi = Number(m[2]);
  const ss = Number(m[3]);
  if (hh > 23 || mi > 59 || ss > 60) return undefined;
  const frac = m[4] ? Number(m[4].padEnd(3, '0')) : 0;
  return ((hh * 60 + mi) * 60 + ss) * 1000 + frac;
}

export function msToGpsTime(ms: number): string {
  const t = Math.round(ms);
  const hh = Math.floor(t / 3_600_000);
  const mi = Math.floor((t % 3_600_000) / 60_000);
  const ss = Math.floor((t % 60_000) / 1000);
  const frac = t % 1000;
  return `${String(hh).padStart(2, '0')}${String(mi).padStart(2, '0')}${String(ss).padStart(2, '0')}.${String(frac).padStart(3, '0')}`;
}

/** The strict reading of one gps.six line: stores it at c[c.count] or reports why not. */
export function parseGpsLineStrict(line: string, n: number, problems: Problems, c: GpsColumns): boolean {
  if (line.length > MAX_LINE_LENGTH) {
    problems.add(n, '*', 'lineTooLong');
    return false;
  }
  const f = line.split('|');
  if (f.length !== 10) {
    problems.add(n, '*', 'fieldCount');
    return false;
  }
  const ll = f[0]!.split(',');
  const lat = ll.length === 2 ? toNum(ll[0]!.trim()) : undefined;
  const lon = ll.length === 2 ? toNum(ll[1]!.trim()) : undefined;
  if (lat === undefined || lat < -90 || lat > 90) return (void problems.add(n, 'latitude', 'latitude'), false);
  if (lon === undefined || lon < -180 || lon > 180) return (void problems.add(n, 'longitude', 'longitude'), false);
  const speed = toNum(f[1]!.trim());
  if (speed === undefined || speed < 0 || speed > 1000) return (void problems.add(n, 'strSpeedGps', 'number'), false);
  const sats = toInt(f[2]!.trim());
  if (sats === undefined || sats < 0 || sats > 255) return (void problems.add(n, 'strSatGps', 'integer'), false);
  const timeMs = gpsTimeToMs(f[3]!.trim());
  if (timeMs === undefined) return (void problems.add(n, 'timeGps', 'time'), false);
  const lapCount = toInt(f[4]!.trim());
  if (lapCount === undefined || lapCount < 0 || lapCount > 1_000_000) return (void problems.add(n, 'lapCount', 'integer'), false);
  const first = f[5]!.trim();
  if (first !== '0' && first !== '1') return (void problems.add(n, 'bFirstLap', 'flag'), false);
  const heat = HEATS.indexOf(f[6]!.trim().toUpperCase() as Heat);
  if (heat < 0) return (void problems.add(n, 'strBateria', 'heat'), false);
  const roll = toNum(f[7]!.trim());
  if (roll === undefined || Math.abs(roll) > 90) return (void problems.add(n, 'roll', 'number'), false);
  const lean = toNum(f[8]!.trim());
  if (lean === undefined || Math.abs(lean) > 90) return (void problems.add(n, 'leanFiltered', 'number'), false);
  const meterSum = toInt(f[9]!.trim());
  if (meterSum === undefined || meterSum < 0 || meterSum > 2_000_000_000) return (void problems.add(n, 'meterSum', 'integer'), false);
  const i = c.count++;
  c.line[i] = n;
  setSample(c, i, lat, lon, speed, sats, timeMs, lapCount, first === '1' ? 1 : 0, heat, roll, lean, meterSum);
  return true;
}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/**
 * gps.six → columns in one pass over the bytes: canonical lines take the fast path; any other
 * non-empty line goes through the strict parser, which keeps it or reports why not. Accepts the
 * upload's bytes (validated UTF-8) or a string.
 */
export function parseGpsSix(input: string | Uint8Array): ParseResult<GpsColumns> {
  const b = typeof input === 'string' ? utf8Encoder.encode(input) : input;
  const problems = new Problems();
  const { lines, columns } = parseGpsLinesInto(b, 0, problems, allocGpsColumns(estimateLines(b), true));
  return { value: trimGpsColumns(columns), problems: problems.list, lines };
}

/**
 * Lines in `b`, estimated from the first 16 KB (a counting pass over the whole file would cost a
 * tenth of the parse): a little over, so the columns rarely grow.
 */
function estimateLines(b: Uint8Array): number {
  const head = b.subarray(0, 16_384);
  let n = 1;
  for (let i = head.indexOf(10); i !== -1; i = head.indexOf(10, i + 1)) n++;
  return head.length === b.length ? n : Math.ceil((b.length / head.length) * n * 1.05) + 64;
}

/** The columns with room for `capacity` samples, the first `c.count` copied over. */
function growGpsColumns(c: GpsColumns, capacity: number): GpsColumns {
  const grown = allocGpsColumns(capacity);
  for (const k of GPS_COLUMN_KEYS) grown[k].set(c[k].subarray(0, c.count));
  grown.count = c.count;
  return grown;
}

const scratch = allocGpsColumns(1);

/**
 * The loop of parseGpsSix over `b` (its lines numbered from `lineOffset` + 1), appending to `c`
 * (grown when full: the columns returned may be new ones). Returns them with the non-empty lines
 * seen and the lines counted.
 */
export function parseGpsLinesInto(
  bytes: Uint8Array,
  lineOffset: number,
  problems: Problems,
  columns: GpsColumns,
): { lines: number; lineCount: number; columns: GpsColumns } {
  // Always a plain Uint8Array (a Node Buffer is a subclass): one kind of array keeps the byte
  // reads of the fast path monomorphic.
  const b = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let c = columns;
  let lines = 0;
  let lineNo = lineOffset;
  let start = 0;
  const len = b.length;
  while (start <= len) {
    if (c.count === c.line.length) c = growGpsColumns(c, Math.ceil(c.count * 1.5) + 64);
    const before = c.count;
    const next = fastGpsRun(b, start, len, c, lineNo + 1);
    if (next !== start) {
      lines += c.count - before;
      lineNo += c.count - before;
      start = next;
      continue;
    }
    lineNo++;
    const i = c.count;
    let end = b.indexOf(10, start);
    if (end === -1) end = len;
    let stop = end;
    if (stop > start && b[stop - 1] === 13) stop--;
    if (stop > start) {
      const line = utf8.decode(b.subarray(start, stop));
      if (line.trim() !== '') {
        lines++;
        scratch.count = 0;
        if (parseGpsLineStrict(line, lineNo, problems, scratch)) {
          for (const k of GPS_COLUMN_KEYS) c[k][i] = scratch[k][0]!;
          c.count++;
        }
      }
    }
    start = end + 1;
  }
  return { lines, lineCount: lineNo - lineOffset, columns: c };
}

export function gpsSampleAt(c: GpsColumns, i: number): GpsSample {
  return {
    latitude: c.lat[i]!,
    longitude: c.lon[i]!,
    strSpeedGps: c.speed[i]!,
    strSatGps: c.satellites[i]!,
    timeGps: msToGpsTime(c.timeMs[i]!),
    lapCount: String(c.lapCount[i]),
    bFirstLap: String(c.firstLap[i]),
    strBateria: HEATS[c.heat[i]!]!,
    roll: c.roll[i]!,
    leanFiltered: c.leanFiltered[i]!,
    meterSum: c.meterSum[i]!,
  };
}

export function serializeGpsSample(s: GpsSample): string {
  return `${s.latitude},${s.longitude}|${s.strSpeedGps}|${s.strSatGps}|${s.timeGps}|${s.lapCount}|${s.bFirstLap}|${s.strBateria}|${s.roll}|${s.leanFiltered}|${s.meterSum}`;
}

export function serializeGpsSix(c: GpsColumns): string {
  const out: string[] = new Array(c.count);
  for (let i = 0; i < c.count; i++) out[i] = serializeGpsSample(gpsSampleAt(c, i));
  return out.length ? `${out.join('\n')}\n` : '';
}
