/** `gps.six`: one GPS sample per line (DESIGN.md, File formats), parsed into columns. */
import { allocGpsColumns, GPS_COLUMN_KEYS, setSample, trimGpsColumns, type GpsColumns } from './gps-columns';
import {
  HEATS,
  INT_PATTERN,
  lines,
  MAX_LINE_LENGTH,
  NUM_PATTERN,
  Problems,
  type Heat,
  type ParseResult,
  type ProblemReason,
} from './six-lines';

const TIME_PATTERN = String.raw`\d{6}(?:\.\d{1,3})?`;

/**
 * `140151.100` (a text known to be `hhmmss[.sss]`) → ms of day; hh < 24, mm < 60, ss < 60 (a leap
 * second 60 is accepted).
 */
function timeOfDayMs(hhmmss: string): number | undefined {
  const t = Math.round(Number(hhmmss) * 1000); // hhmmsssss, in thousandths of a second
  const hh = Math.floor(t / 10_000_000);
  const mi = Math.floor(t / 100_000) % 100;
  const ss = Math.floor(t / 1000) % 100;
  if (hh > 23 || mi > 59 || ss > 60) return undefined;
  return ((hh * 60 + mi) * 60 + ss) * 1000 + (t % 1000);
}

export function msToGpsTime(ms: number): string {
  const t = Math.round(ms);
  const hh = Math.floor(t / 3_600_000);
  const mi = Math.floor((t % 3_600_000) / 60_000);
  const ss = Math.floor((t % 60_000) / 1000);
  const frac = t % 1000;
  return `${String(hh).padStart(2, '0')}${String(mi).padStart(2, '0')}${String(ss).padStart(2, '0')}.${String(frac).padStart(3, '0')}`;
}

/** One value of a gps.six line: how problems name it, its text, its range, and how its text is read (default `Number`). */
interface Field {
  name: string;
  reason: ProblemReason;
  pattern: string;
  exact: RegExp;
  min: number;
  max: number;
  read?: (text: string) => number | undefined;
}

function field(
  name: string,
  reason: ProblemReason,
  pattern: string,
  [min, max]: [number, number],
  read?: Field['read'],
) {
  return { name, reason, pattern, exact: new RegExp(`^(?:${pattern})$`), min, max, ...(read ? { read } : {}) };
}

/** A line's eleven values in order: the position's two (`lat,lon`), then the other nine fields. */
const FIELDS: Field[] = [
  field('latitude', 'latitude', NUM_PATTERN, [-90, 90]),
  field('longitude', 'longitude', NUM_PATTERN, [-180, 180]),
  field('strSpeedGps', 'number', NUM_PATTERN, [0, 1000]),
  field('strSatGps', 'integer', INT_PATTERN, [0, 255]),
  field('timeGps', 'time', TIME_PATTERN, [0, Infinity], timeOfDayMs),
  field('lapCount', 'integer', INT_PATTERN, [0, 1_000_000]),
  field('bFirstLap', 'flag', '[01]', [0, 1]),
  field('strBateria', 'heat', '[A-Da-d]', [0, 3], (text) => HEATS.indexOf(text.toUpperCase() as Heat)),
  field('roll', 'number', NUM_PATTERN, [-90, 90]),
  field('leanFiltered', 'number', NUM_PATTERN, [-90, 90]),
  field('meterSum', 'integer', INT_PATTERN, [0, 2_000_000_000]),
];

/**
 * A well-formed line, blanks allowed around each value, each value a group: one match reads a
 * whole line (a split and a regular expression per field cost about twice as much).
 */
const GPS_LINE_RE = new RegExp(
  `^${FIELDS.map((f) => String.raw`\s*(${f.pattern})\s*`).reduce((re, f, k) => re + (k === 1 ? ',' : '\\|') + f)}$`,
);

/**
 * A line GPS_LINE_RE refuses taken apart field by field (to find the one at fault), in the shape
 * of a match (the line, then its values' texts); or what is wrong with its shape.
 */
function fieldTexts(line: string): string[] | 'fieldCount' | 'position' {
  const f = line.split('|');
  if (f.length !== 10) return 'fieldCount';
  const position = f[0]!.split(',');
  if (position.length !== 2) return 'position';
  return [line, ...[...position, ...f.slice(1)].map((text) => text.trim())];
}

const values = new Float64Array(FIELDS.length);

/**
 * The strict reading of one gps.six line: stores it at c[c.count] or reports why not (the first
 * field at fault, in the line's order).
 */
export function parseGpsLineStrict(line: string, n: number, problems: Problems, c: GpsColumns): boolean {
  if (line.length > MAX_LINE_LENGTH) return refuse(problems, n, '*', 'lineTooLong');
  const match = GPS_LINE_RE.exec(line);
  const texts = match ?? fieldTexts(line);
  if (texts === 'fieldCount') return refuse(problems, n, '*', 'fieldCount');
  if (texts === 'position') return refuse(problems, n, 'latitude', 'latitude');
  for (let k = 0; k < FIELDS.length; k++) {
    const f = FIELDS[k]!;
    const text = texts[k + 1]!;
    const value = match || f.exact.test(text) ? (f.read ? f.read(text) : Number(text)) : undefined;
    if (value === undefined || !(value >= f.min && value <= f.max)) return refuse(problems, n, f.name, f.reason);
    values[k] = value;
  }
  const v = values;
  const i = c.count++;
  c.line[i] = n;
  setSample(c, i, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, v[6]!, v[7]!, v[8]!, v[9]!, v[10]!);
  return true;
}

function refuse(problems: Problems, n: number, field: string, reason: ProblemReason): false {
  problems.add(n, field, reason);
  return false;
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
