/** `gps.six`: one GPS sample per line (DESIGN.md, File formats), parsed into columns. */
import { allocGpsColumns, GPS_COLUMN_KEYS, setSample, trimGpsColumns, type GpsColumns } from './gps-columns';
import { HEATS, MAX_LINE_LENGTH, Problems, type Heat, type ParseResult, type ProblemReason } from './six-lines';
import { INT_PATTERN, NUM_PATTERN } from './numbers';

const TIME_PATTERN = String.raw`\d{6}(?:\.\d{1,3})?`;

/**
 * `140151.100` (a text known to be `hhmmss[.sss]`) → ms of day; hh < 24, mm < 60, ss < 60 (a leap
 * second 60 is accepted).
 */
function timeOfDayMs(hhmmss: string): number | undefined {
  return clockMs(Math.round(Number(hhmmss) * 1000));
}

/** hhmmss in thousandths of a second (140151100) → ms of day, or undefined past 23:59:60.999. */
function clockMs(t: number): number | undefined {
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

const [TAB, CR, SPACE, COMMA, MINUS, DOT, ZERO, NINE, BAR] = [9, 13, 32, 44, 45, 46, 48, 57, 124];
const [UPPER_A, LOWER_A] = [65, 97];
/** 10 ** k for the up to 15 decimals a number holds (a look-up: `**` is a call). */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * A cursor over one line, reading it as the format reads: each call takes the value or separator
 * that comes next (blanks around it allowed) and answers NaN, or leaves the line unread (`done()`
 * false), where the line says something else. Plain lines only: at any doubt (another kind of
 * blank, more than 15 digits in a number) the line is left to the field-by-field reading above,
 * which decides it and names what is wrong.
 */
class LineCursor {
  private text = '';
  private at = 0;
  private end = 0;
  private ok = true;
  /** Digits the last `digits()` read. */
  private count = 0;

  /** Reads text[from, to) next. */
  start(text: string, from: number, to: number): void {
    this.text = text;
    this.at = from;
    this.end = to;
    this.ok = true;
  }

  /** Whether every read succeeded and nothing but blanks is left. */
  done(): boolean {
    this.blanks();
    return this.ok && this.at === this.end;
  }

  sep(code: number): void {
    this.blanks();
    if (!this.take(code)) this.ok = false;
  }

  /** `-?\d{1,15}` */
  int(): number {
    const sign = this.sign();
    const value = this.digits();
    return this.count >= 1 && this.count <= 15 ? sign * value : NaN;
  }

  /** `-?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})`: the double `Number` reads from it. */
  num(): number {
    const sign = this.sign();
    let mantissa = this.digits();
    let count = this.count;
    let scale = 1;
    if (this.take(DOT)) {
      const fraction = this.digits();
      scale = POWERS_OF_TEN[this.count] ?? NaN;
      mantissa = mantissa * scale + fraction;
      count += this.count;
    }
    // Up to 15 digits in all are exact in a double, and one division rounds as `Number` does.
    return count >= 1 && count <= 15 ? (sign * mantissa) / scale : NaN;
  }

  /** `\d{6}(\.\d{1,3})?`, hhmmss[.sss]: ms of the day. */
  time(): number {
    this.blanks();
    const hhmmss = this.digits();
    if (this.count !== 6) return NaN;
    if (!this.take(DOT)) return clockMs(hhmmss * 1000) ?? NaN;
    const fraction = this.digits();
    if (this.count < 1 || this.count > 3) return NaN;
    return clockMs(hhmmss * 1000 + fraction * POWERS_OF_TEN[3 - this.count]!) ?? NaN;
  }

  /** `[01]` */
  flag(): number {
    this.blanks();
    const code = this.peek();
    if (code !== ZERO && code !== ZERO + 1) return NaN;
    this.at++;
    return code - ZERO;
  }

  /** `[A-Da-d]`: 0 for A … 3 for D. */
  heat(): number {
    this.blanks();
    const code = this.peek();
    const index = code >= LOWER_A ? code - LOWER_A : code - UPPER_A;
    if (!(index >= 0 && index < HEATS.length)) return NaN;
    this.at++;
    return index;
  }

  /** Blanks, then an optional minus: -1 or 1. */
  private sign(): number {
    this.blanks();
    return this.take(MINUS) ? -1 : 1;
  }

  /** The digits from here as a whole number (exact up to 15 of them); how many in `count`. */
  private digits(): number {
    const from = this.at;
    let value = 0;
    for (let code = this.peek(); code >= ZERO && code <= NINE; code = this.peek()) {
      value = value * 10 + (code - ZERO);
      this.at++;
    }
    this.count = this.at - from;
    return value;
  }

  private blanks(): void {
    for (let code = this.peek(); code === SPACE || code === TAB; code = this.peek()) this.at++;
  }

  private take(code: number): boolean {
    if (this.peek() !== code) return false;
    this.at++;
    return true;
  }

  /** The character here, or NaN at the line's end. */
  private peek(): number {
    return this.at < this.end ? this.text.charCodeAt(this.at) : NaN;
  }
}

const cursor = new LineCursor();

/**
 * text[from, to) read as one gps.six line, stored at c[c.count] when it is plain and every value
 * is in its range; false otherwise (nothing stored, nothing reported).
 */
function readGpsLine(text: string, from: number, to: number, n: number, c: GpsColumns): boolean {
  if (to - from > MAX_LINE_LENGTH) return false;
  const r = cursor;
  const v = values;
  r.start(text, from, to);
  v[0] = r.num(); // latitude
  r.sep(COMMA);
  v[1] = r.num(); // longitude
  r.sep(BAR);
  v[2] = r.num(); // speed
  r.sep(BAR);
  v[3] = r.int(); // satellites
  r.sep(BAR);
  v[4] = r.time();
  r.sep(BAR);
  v[5] = r.int(); // lap count
  r.sep(BAR);
  v[6] = r.flag(); // first lap
  r.sep(BAR);
  v[7] = r.heat();
  r.sep(BAR);
  v[8] = r.num(); // roll
  r.sep(BAR);
  v[9] = r.num(); // lean, filtered
  r.sep(BAR);
  v[10] = r.int(); // meters so far
  if (!r.done()) return false;
  for (let k = 0; k < FIELDS.length; k++) if (!(v[k]! >= FIELDS[k]!.min && v[k]! <= FIELDS[k]!.max)) return false;
  const i = c.count++;
  c.line[i] = n;
  setSample(c, i, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, v[6]!, v[7]!, v[8]!, v[9]!, v[10]!);
  return true;
}

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
  // Each line read by the cursor; one it leaves (empty, or not plain) goes to the strict reading.
  let seen = 0;
  let n = lineOffset;
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const to = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
    n++;
    if (readGpsLine(text, start, to, n, c)) seen++;
    else {
      const line = text.slice(start, to);
      if (line.trim() !== '') {
        seen++;
        parseGpsLineStrict(line, n, problems, c);
      }
    }
    start = end + 1;
  }
  return { lines: seen, lineCount: count, columns: c };
}
