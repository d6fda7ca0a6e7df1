/** `gps.six`: one GPS sample per line (DESIGN.md, File formats), parsed into columns. */
import {
  allocGpsColumns,
  GPS_COLUMN_KEYS,
  setSample,
  trimGpsColumns,
  type GpsColumns,
  type GpsSample,
} from './gps-columns';
import { HEATS, lines, MAX_LINE_LENGTH, Problems, toInt, toNum, type Heat, type ParseResult } from './six-lines';

/** `140151.100` → ms of day; hh < 24, mm < 60, ss < 60 (a leap second 60 is accepted). */
function gpsTimeToMs(raw: string): number | undefined {
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
  if (lapCount === undefined || lapCount < 0 || lapCount > 1_000_000)
    return (void problems.add(n, 'lapCount', 'integer'), false);
  const first = f[5]!.trim();
  if (first !== '0' && first !== '1') return (void problems.add(n, 'bFirstLap', 'flag'), false);
  const heat = HEATS.indexOf(f[6]!.trim().toUpperCase() as Heat);
  if (heat < 0) return (void problems.add(n, 'strBateria', 'heat'), false);
  const roll = toNum(f[7]!.trim());
  if (roll === undefined || Math.abs(roll) > 90) return (void problems.add(n, 'roll', 'number'), false);
  const lean = toNum(f[8]!.trim());
  if (lean === undefined || Math.abs(lean) > 90) return (void problems.add(n, 'leanFiltered', 'number'), false);
  const meterSum = toInt(f[9]!.trim());
  if (meterSum === undefined || meterSum < 0 || meterSum > 2_000_000_000)
    return (void problems.add(n, 'meterSum', 'integer'), false);
  const i = c.count++;
  c.line[i] = n;
  setSample(c, i, lat, lon, speed, sats, timeMs, lapCount, first === '1' ? 1 : 0, heat, roll, lean, meterSum);
  return true;
}

const utf8 = new TextDecoder('utf-8');

/**
 * gps.six → columns: every non-empty line is kept or reported with why not. Accepts the upload's
 * bytes (validated UTF-8) or a string.
 */
export function parseGpsSix(input: string | Uint8Array): ParseResult<GpsColumns> {
  const text = typeof input === 'string' ? input : utf8.decode(input);
  const problems = new Problems();
  const { lines, columns } = parseGpsLinesInto(text, 0, problems, allocGpsColumns(lineCount(text)));
  return { value: trimGpsColumns(columns), problems: problems.list, lines };
}

/** Lines of `text`, counted as `lines` numbers them (the last one may be empty). */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The columns with room for `capacity` samples, the first `c.count` copied over. */
function growGpsColumns(c: GpsColumns, capacity: number): GpsColumns {
  const grown = allocGpsColumns(capacity);
  for (const k of GPS_COLUMN_KEYS) grown[k].set(c[k].subarray(0, c.count));
  grown.count = c.count;
  return grown;
}

/**
 * The lines of `text` (numbered from `lineOffset` + 1) appended to `columns`, grown when they lack
 * room (the columns returned may be new ones), with the non-empty lines seen and the lines counted.
 */
export function parseGpsLinesInto(
  text: string,
  lineOffset: number,
  problems: Problems,
  columns: GpsColumns,
): { lines: number; lineCount: number; columns: GpsColumns } {
  const count = lineCount(text);
  const c = columns.line.length - columns.count < count ? growGpsColumns(columns, columns.count + count) : columns;
  let seen = 0;
  for (const [n, line] of lines(text)) {
    seen++;
    parseGpsLineStrict(line, lineOffset + n, problems, c);
  }
  return { lines: seen, lineCount: count, columns: c };
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
