/**
 * The device's two text formats, `lap.six` and `gps.six` (DESIGN.md, File formats).
 * Pure: no Node, no DOM. Parsers never throw on input: every bad line becomes a problem with its
 * line number, field and reason, and every good line is kept. Empty lines are dropped; CRLF is
 * accepted.
 */

export const HEATS = ['A', 'B', 'C', 'D'] as const;
export type Heat = (typeof HEATS)[number];

export type ProblemReason =
  | 'fieldCount'
  | 'lapTime'
  | 'heat'
  | 'number'
  | 'integer'
  | 'flag'
  | 'sector'
  | 'latitude'
  | 'longitude'
  | 'time'
  | 'lineTooLong'
  | 'tooManyProblems';

export interface LineProblem {
  /** 1-based line number in the file as sent. */
  line: number;
  field: string;
  reason: ProblemReason;
}

/** A file with more problems than this reports the first ones and one 'tooManyProblems'. */
export const MAX_REPORTED_PROBLEMS = 200;
/** No real line comes near this; longer ones are refused without being split. */
export const MAX_LINE_LENGTH = 1024;

export interface Sector {
  timerMs: number;
  upFlag: 0 | 1;
  upMax: number;
  upTrack: number;
  displayTime: string;
  distanceM: number;
}

export interface Lap {
  line: number;
  /** As recorded, zero-padded to 7 digits: mmssmmm. */
  lapTime: string;
  lapTimeMs: number;
  heat: Heat;
  lapSeconds: number;
  sectors: [Sector, Sector, Sector, Sector];
  /** "Entrada". */
  sprintCount: number;
  distanceM: number;
  lapCount: number;
}

export interface ParseResult<T> {
  value: T;
  problems: LineProblem[];
  /** Non-empty lines seen. */
  lines: number;
}

// ---------- shared helpers ----------

const INT_RE = /^-?\d{1,15}$/;
const NUM_RE = /^-?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})$/;

function toInt(s: string | undefined): number | undefined {
  return s !== undefined && INT_RE.test(s) ? Number(s) : undefined;
}
function toNum(s: string | undefined): number | undefined {
  return s !== undefined && NUM_RE.test(s) ? Number(s) : undefined;
}

/** Splits text into [lineNumber, line] pairs, dropping empty lines and a trailing CR. */
function* lines(text: string): Generator<[number, string]> {
  let start = 0;
  let n = 0;
  const len = text.length;
  while (start <= len) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = len;
    n++;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') yield [n, line];
    start = end + 1;
  }
}

class Problems {
  readonly list: LineProblem[] = [];
  private capped = false;
  add(line: number, field: string, reason: ProblemReason): void {
    if (this.list.length < MAX_REPORTED_PROBLEMS) this.list.push({ line, field, reason });
    else if (!this.capped) {
      this.capped = true;
      this.list.push({ line, field: '*', reason: 'tooManyProblems' });
    }
  }
}

// ---------- lap.six ----------

/** `0132456` → 92456 ms; accepts 1–7 digits (zero-padded to 7); seconds must be < 60. */
export function lapTimeToMs(raw: string): number | undefined {
  if (!/^\d{1,7}$/.test(raw)) return undefined;
  const p = raw.padStart(7, '0');
  const mm = Number(p.slice(0, 2));
  const ss = Number(p.slice(2, 4));
  const ms = Number(p.slice(4, 7));
  if (ss >= 60) return undefined;
  return (mm * 60 + ss) * 1000 + ms;
}

/** 92456 → `01:32.456` (the spec's mm:ss.mmm). */
export function formatLapTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const mm = Math.floor(total / 60000);
  const ss = Math.floor((total % 60000) / 1000);
  const mmm = total % 1000;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}.${String(mmm).padStart(3, '0')}`;
}

/** 92456 → `0132456` (the device's raw form). */
export function msToLapTimeRaw(ms: number): string {
  return formatLapTime(ms).replace(/[:.]/g, '');
}

function parseSector(s: string): Sector | undefined {
  const f = s.split(',');
  if (f.length !== 6) return undefined;
  const timerMs = toInt(f[0]);
  const upFlag = f[1] === '0' ? 0 : f[1] === '1' ? 1 : undefined;
  const upMax = toInt(f[2]);
  const upTrack = toInt(f[3]);
  const displayTime = f[4]!.trim();
  const distanceM = toInt(f[5]);
  if (timerMs === undefined || timerMs < 0 || upFlag === undefined || upMax === undefined || upTrack === undefined || distanceM === undefined || distanceM < 0 || displayTime.length > 16) {
    return undefined;
  }
  return { timerMs, upFlag, upMax, upTrack, displayTime, distanceM };
}

export function parseLapLine(text: string, lineNo: number, problems: { add(line: number, field: string, reason: ProblemReason): void }): Lap | undefined {
  if (text.length > MAX_LINE_LENGTH) {
    problems.add(lineNo, '*', 'lineTooLong');
    return undefined;
  }
  const f = text.split('|').map((x) => x.trim());
  if (f.length !== 10) {
    problems.add(lineNo, '*', 'fieldCount');
    return undefined;
  }
  const lapTimeMs = lapTimeToMs(f[0]!);
  if (lapTimeMs === undefined) return void problems.add(lineNo, 'lapTime', 'lapTime');
  const heat = f[1]!.toUpperCase();
  if (!(HEATS as readonly string[]).includes(heat)) return void problems.add(lineNo, 'heat', 'heat');
  const lapSeconds = toNum(f[2]);
  if (lapSeconds === undefined || lapSeconds < 0) return void problems.add(lineNo, 'lapSeconds', 'number');
  const sectors: Sector[] = [];
  for (let i = 0; i < 4; i++) {
    const sector = parseSector(f[3 + i]!);
    if (!sector) return void problems.add(lineNo, `s${i + 1}`, 'sector');
    sectors.push(sector);
  }
  const sprintCount = toInt(f[7]);
  if (sprintCount === undefined || sprintCount < 0) return void problems.add(lineNo, 'sprintCount', 'integer');
  const distanceM = toInt(f[8]);
  if (distanceM === undefined || distanceM < 0) return void problems.add(lineNo, 'distanceM', 'integer');
  const lapCount = toInt(f[9]);
  if (lapCount === undefined || lapCount < 0) return void problems.add(lineNo, 'lapCount', 'integer');
  return {
    line: lineNo,
    lapTime: f[0]!.padStart(7, '0'),
    lapTimeMs,
    heat: heat as Heat,
    lapSeconds,
    sectors: sectors as Lap['sectors'],
    sprintCount,
    distanceM,
    lapCount,
  };
}

export function parseLapSix(text: string): ParseResult<Lap[]> {
  const problems = new Problems();
  const laps: Lap[] = [];
  let count = 0;
  for (const [n, line] of lines(text)) {
    count++;
    const lap = parseLapLine(line, n, problems);
    if (lap) laps.push(lap);
  }
  return { value: laps, problems: problems.list, lines: count };
}

function serializeSector(s: Sector): string {
  return [s.timerMs, s.upFlag, s.upMax, s.upTrack, s.displayTime, s.distanceM].join(',');
}

export function serializeLap(lap: Omit<Lap, 'line'>): string {
  return [lap.lapTime, lap.heat, String(lap.lapSeconds), ...lap.sectors.map(serializeSector), lap.sprintCount, lap.distanceM, lap.lapCount].join('|');
}

export function serializeLapSix(laps: Omit<Lap, 'line'>[]): string {
  return laps.map((l) => `${serializeLap(l)}\n`).join('');
}

// ---------- gps.six ----------

/**
 * GPS samples in columns (one typed array per field): compact to store and send, fast to chart.
 * Numbers are kept as float64 so text → columns → text round-trips exactly.
 */
export interface GpsColumns {
  count: number;
  /** 1-based line numbers of the kept samples. */
  line: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  /** km/h */
  speed: Float64Array;
  satellites: Uint16Array;
  /** UTC time of day in ms (from hhmmss.sss). */
  timeMs: Float64Array;
  lapCount: Int32Array;
  firstLap: Uint8Array;
  /** 0..3 for A..D */
  heat: Uint8Array;
  roll: Float64Array;
  leanFiltered: Float64Array;
  meterSum: Int32Array;
}

/** One sample with the spec's field names and types (parsed GPS row). */
export interface GpsSample {
  latitude: number;
  longitude: number;
  strSpeedGps: number;
  strSatGps: number;
  timeGps: string;
  lapCount: string;
  bFirstLap: string;
  strBateria: string;
  roll: number;
  leanFiltered: number;
  meterSum: number;
}

/**
 * Columns with room for `capacity` samples. `oneBuffer`: the twelve of them views of one buffer
 * (doubles first, so every view is aligned), for a whole file parsed into columns made for it:
 * freed and made again for each file, one block is what the C allocator keeps for the next,
 * where twelve smaller ones were handed back to the system and faulted in anew page by page
 * (~1,700 page faults, a fifth of the parse of 110,000 samples). Not for the server's batches,
 * which live as long as an upload: many of those at once in one-buffer form kept the process's
 * memory high after a load test.
 */
export function allocGpsColumns(capacity: number, oneBuffer = false): GpsColumns {
  const n = capacity;
  const buffer = oneBuffer ? new ArrayBuffer(n * 64) : undefined;
  let at = 0;
  const take = <T>(make: (b: ArrayBuffer, offset: number, length: number) => T, width: number): T => {
    const view = make(buffer ?? new ArrayBuffer(n * width), buffer ? at : 0, n);
    at += n * width;
    return view;
  };
  const f64 = () => take((b, o, l) => new Float64Array(b, o, l), 8);
  const lat = f64(), lon = f64(), speed = f64(), timeMs = f64(), roll = f64(), leanFiltered = f64();
  const line = take((b, o, l) => new Uint32Array(b, o, l), 4);
  const lapCount = take((b, o, l) => new Int32Array(b, o, l), 4);
  const meterSum = take((b, o, l) => new Int32Array(b, o, l), 4);
  const satellites = take((b, o, l) => new Uint16Array(b, o, l), 2);
  const firstLap = take((b, o, l) => new Uint8Array(b, o, l), 1);
  const heat = take((b, o, l) => new Uint8Array(b, o, l), 1);
  return { count: 0, line, lat, lon, speed, satellites, timeMs, lapCount, firstLap, heat, roll, leanFiltered, meterSum };
}

const GPS_COLUMN_KEYS = ['line', 'lat', 'lon', 'speed', 'satellites', 'timeMs', 'lapCount', 'firstLap', 'heat', 'roll', 'leanFiltered', 'meterSum'] as const;
export type GpsColumnKey = (typeof GPS_COLUMN_KEYS)[number];
export { GPS_COLUMN_KEYS };

/** Trims every column to `count` (views, no copy). */
export function trimGpsColumns(c: GpsColumns): GpsColumns {
  const out = { count: c.count } as GpsColumns;
  for (const k of GPS_COLUMN_KEYS) (out as unknown as Record<string, unknown>)[k] = c[k].subarray(0, c.count);
  return out;
}

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
function parseGpsLineStrict(line: string, n: number, problems: Problems, c: GpsColumns): boolean {
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
  if (lat === undefined || lat < -90 || lat > 90) return void problems.add(n, 'latitude', 'latitude'), false;
  if (lon === undefined || lon < -180 || lon > 180) return void problems.add(n, 'longitude', 'longitude'), false;
  const speed = toNum(f[1]!.trim());
  if (speed === undefined || speed < 0 || speed > 1000) return void problems.add(n, 'strSpeedGps', 'number'), false;
  const sats = toInt(f[2]!.trim());
  if (sats === undefined || sats < 0 || sats > 255) return void problems.add(n, 'strSatGps', 'integer'), false;
  const timeMs = gpsTimeToMs(f[3]!.trim());
  if (timeMs === undefined) return void problems.add(n, 'timeGps', 'time'), false;
  const lapCount = toInt(f[4]!.trim());
  if (lapCount === undefined || lapCount < 0 || lapCount > 1_000_000) return void problems.add(n, 'lapCount', 'integer'), false;
  const first = f[5]!.trim();
  if (first !== '0' && first !== '1') return void problems.add(n, 'bFirstLap', 'flag'), false;
  const heat = HEATS.indexOf(f[6]!.trim().toUpperCase() as Heat);
  if (heat < 0) return void problems.add(n, 'strBateria', 'heat'), false;
  const roll = toNum(f[7]!.trim());
  if (roll === undefined || Math.abs(roll) > 90) return void problems.add(n, 'roll', 'number'), false;
  const lean = toNum(f[8]!.trim());
  if (lean === undefined || Math.abs(lean) > 90) return void problems.add(n, 'leanFiltered', 'number'), false;
  const meterSum = toInt(f[9]!.trim());
  if (meterSum === undefined || meterSum < 0 || meterSum > 2_000_000_000) return void problems.add(n, 'meterSum', 'integer'), false;
  const i = c.count++;
  c.line[i] = n;
  setSample(c, i, lat, lon, speed, sats, timeMs, lapCount, first === '1' ? 1 : 0, heat, roll, lean, meterSum);
  return true;
}

/** Stores one sample's fields at index i (both parsers; small enough for V8 to inline). */
function setSample(
  c: GpsColumns, i: number, lat: number, lon: number, speed: number, sats: number, timeMs: number,
  lapCount: number, first: number, heat: number, roll: number, lean: number, meterSum: number,
): void {
  c.lat[i] = lat;
  c.lon[i] = lon;
  c.speed[i] = speed;
  c.satellites[i] = sats;
  c.timeMs[i] = timeMs;
  c.lapCount[i] = lapCount;
  c.firstLap[i] = first;
  c.heat[i] = heat;
  c.roll[i] = roll;
  c.leanFiltered[i] = lean;
  c.meterSum[i] = meterSum;
}

/** Reference parser (split-based): the fast one must agree with it on every input. */
export function parseGpsSixReference(text: string): ParseResult<GpsColumns> {
  const problems = new Problems();
  let capacity = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) capacity++;
  const c = allocGpsColumns(capacity);
  let count = 0;
  for (const [n, line] of lines(text)) {
    count++;
    parseGpsLineStrict(line, n, problems, c);
  }
  return { value: trimGpsColumns(c), problems: problems.list, lines: count };
}

/** Exact powers of ten: m / POW10[k] with m < 2^53 is the correctly rounded value of the decimal text. */
export const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** POW10 as a typed array: a load the optimizing compiler need not guard. */
const DIV10 = Float64Array.from(POW10);
const PIPE = 124;
const COMMA = 44;
const DOT = 46;
const MINUS = 45;
/** Lines one call of fastGpsRun takes at most (see there). */
const RUN_LINES = 1024;

/**
 * Fast path for a run of canonical gps.six lines from b[from] (bytes end at `end`): no spaces,
 * uppercase heat, plain decimals ([-]digits[.digits], at most 15 digits: exact, m / 10^k with
 * m < 2^53), each then the line's end. Stores each line at c[c.count] with its number (from
 * `firstLineNo`) and goes on until a line is anything else, the columns are full or the bytes
 * end; returns where it stopped (the start of the line it did not take, past the newline after
 * the last one it took, or end + 1 after a last line without newline, as the line loop counts).
 * The strict parser then decides the line it stopped at. No separate newline search, no call per
 * line or per field: each of the seven numeric fields has its scanner written out in line,
 * specialised to it (see the loop), digits are taken two at a time, and the columns are looked up once
 * per run. `end` is the length of `b`: a digit loop stops there because b[end] reads undefined.
 */
function fastGpsRun(b: Uint8Array, from: number, end: number, c: GpsColumns, firstLineNo: number): number {
  const latCol = c.lat, lonCol = c.lon, speedCol = c.speed, satCol = c.satellites, timeCol = c.timeMs, lapCol = c.lapCount;
  const firstCol = c.firstLap, heatCol = c.heat, rollCol = c.roll, leanCol = c.leanFiltered, meterCol = c.meterSum, lineCol = c.line;
  let i = c.count;
  // At most RUN_LINES lines a call: called a hundred times a file rather than once, the function
  // is optimized as a whole after the first calls instead of through its loop (on-stack
  // replacement), whose code came out up to 1.4× slower from one process to the next.
  const stop = Math.min(lineCol.length, i + RUN_LINES);
  let lineNo = firstLineNo;
  let start = from;
  run: while (start < end && i < stop) {
    let p = start;
    let lat = 0, lon = 0, speed = 0, sats = 0, lapCount = 0, roll = 0, lean = 0;
    let timeMs = 0, first = 0, heat = 0;
    // The fields in line order, each numeric field's scanner written out where it is used:
    // lat, lon, speed, satellites (integer), time, lapCount (integer), first-lap flag and heat,
    // roll, leanFiltered, then meterSum. Deliberately repeated: one scanner in a loop over the
    // fields (the form before) measured 1.15–1.4× slower, through a helper 1.26× slower (V8 does
    // not inline a function called seven times a line), a shared digit-run helper 1.04–1.17×
    // slower. The property test checks every field against the reference parser.
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      let ch = b[p]!;
      if (digits === 0) break run;
      let k = 0;
      if (ch === DOT) {
        const fracStart = ++p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        k = p - fracStart;
        ch = b[p]!;
        if (k === 0) break run;
      }
      if (digits + k > 15 || p >= end || ch !== COMMA) break run;
      p++;
      const mag = k === 0 ? m : m / DIV10[k]!;
      lat = neg ? -mag : mag;
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      let ch = b[p]!;
      if (digits === 0) break run;
      let k = 0;
      if (ch === DOT) {
        const fracStart = ++p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        k = p - fracStart;
        ch = b[p]!;
        if (k === 0) break run;
      }
      if (digits + k > 15 || p >= end || ch !== PIPE) break run;
      p++;
      const mag = k === 0 ? m : m / DIV10[k]!;
      lon = neg ? -mag : mag;
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      let ch = b[p]!;
      if (digits === 0) break run;
      let k = 0;
      if (ch === DOT) {
        const fracStart = ++p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        k = p - fracStart;
        ch = b[p]!;
        if (k === 0) break run;
      }
      if (digits + k > 15 || p >= end || ch !== PIPE) break run;
      p++;
      const mag = k === 0 ? m : m / DIV10[k]!;
      speed = neg ? -mag : mag;
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      const ch = b[p]!;
      if (digits === 0) break run;
      if (digits > 15 || p >= end || ch !== PIPE) break run;
      p++;
      sats = neg ? -m : m;
    }
    {
      if (end - p < 7) break run;
      const d0 = b[p]! - 48, d1 = b[p + 1]! - 48, d2 = b[p + 2]! - 48, d3 = b[p + 3]! - 48, d4 = b[p + 4]! - 48, d5 = b[p + 5]! - 48;
      if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 || d3 < 0 || d3 > 9 || d4 < 0 || d4 > 9 || d5 < 0 || d5 > 9) break run;
      const hh = d0 * 10 + d1;
      const mi = d2 * 10 + d3;
      const ss = d4 * 10 + d5;
      p += 6;
      let frac = 0;
      let fd = 0;
      if (b[p] === DOT) {
        p++;
        let d = b[p]! - 48;
        while (d >= 0 && d <= 9 && fd < 4 && p < end) {
          frac = frac * 10 + d;
          fd++;
          d = b[++p]! - 48;
        }
        if (fd === 0 || fd > 3) break run;
      }
      if (b[p] !== PIPE || hh > 23 || mi > 59 || ss > 60) break run;
      p++;
      timeMs = ((hh * 60 + mi) * 60 + ss) * 1000 + (fd === 3 ? frac : frac * DIV10[3 - fd]!);
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      const ch = b[p]!;
      if (digits === 0) break run;
      if (digits > 15 || p >= end || ch !== PIPE) break run;
      p++;
      lapCount = neg ? -m : m;
    }
    {
      first = b[p]! - 48;
      if ((first !== 0 && first !== 1) || b[p + 1] !== PIPE) break run;
      heat = b[p + 2]! - 65;
      if (heat < 0 || heat > 3 || b[p + 3] !== PIPE) break run;
      p += 4;
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      let ch = b[p]!;
      if (digits === 0) break run;
      let k = 0;
      if (ch === DOT) {
        const fracStart = ++p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        k = p - fracStart;
        ch = b[p]!;
        if (k === 0) break run;
      }
      if (digits + k > 15 || p >= end || ch !== PIPE) break run;
      p++;
      const mag = k === 0 ? m : m / DIV10[k]!;
      roll = neg ? -mag : mag;
    }
    {
      let neg = false;
      if (b[p] === MINUS) {
        neg = true;
        p++;
      }
      let m = 0;
      const intStart = p;
      for (;;) {
        const d0 = b[p]! - 48;
        if (!(d0 >= 0 && d0 <= 9)) break;
        const d1 = b[p + 1]! - 48;
        if (!(d1 >= 0 && d1 <= 9)) {
          m = m * 10 + d0;
          p++;
          break;
        }
        m = m * 100 + (d0 * 10 + d1);
        p += 2;
      }
      const digits = p - intStart;
      let ch = b[p]!;
      if (digits === 0) break run;
      let k = 0;
      if (ch === DOT) {
        const fracStart = ++p;
        for (;;) {
          const d0 = b[p]! - 48;
          if (!(d0 >= 0 && d0 <= 9)) break;
          const d1 = b[p + 1]! - 48;
          if (!(d1 >= 0 && d1 <= 9)) {
            m = m * 10 + d0;
            p++;
            break;
          }
          m = m * 100 + (d0 * 10 + d1);
          p += 2;
        }
        k = p - fracStart;
        ch = b[p]!;
        if (k === 0) break run;
      }
      if (digits + k > 15 || p >= end || ch !== PIPE) break run;
      p++;
      const mag = k === 0 ? m : m / DIV10[k]!;
      lean = neg ? -mag : mag;
    }
    let meterSum = 0;
    const digitsStart = p;
    let d = b[p]! - 48;
    while (d >= 0 && d <= 9) {
      meterSum = meterSum * 10 + d;
      d = b[++p]! - 48;
    }
    const md = p - digitsStart;
    if (p - start > MAX_LINE_LENGTH) break run;
    // The line ends here: LF, CR LF, CR at the end of the bytes, or the end of the bytes.
    if (b[p] === 13 && p < end) p++;
    if (p < end && b[p] !== 10) break run;
    if (
      md === 0 || md > 10 || meterSum > 2_000_000_000 || lat < -90 || lat > 90 || lon < -180 || lon > 180 ||
      speed < 0 || speed > 1000 || sats > 255 || sats < 0 || lapCount < 0 || lapCount > 1_000_000 || roll < -90 || roll > 90 || lean < -90 || lean > 90
    ) {
      break run;
    }
    latCol[i] = lat;
    lonCol[i] = lon;
    speedCol[i] = speed;
    satCol[i] = sats;
    timeCol[i] = timeMs;
    lapCol[i] = lapCount;
    firstCol[i] = first;
    heatCol[i] = heat;
    rollCol[i] = roll;
    leanCol[i] = lean;
    meterCol[i] = meterSum;
    lineCol[i] = lineNo;
    i++;
    lineNo++;
    start = p + 1;
  }
  c.count = i;
  return start;
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
function parseGpsLinesInto(bytes: Uint8Array, lineOffset: number, problems: Problems, columns: GpsColumns): { lines: number; lineCount: number; columns: GpsColumns } {
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

export interface GpsStreamSummary {
  /** Non-empty lines seen. */
  lines: number;
  /** Samples kept. */
  indexed: number;
  problems: LineProblem[];
  /** Set when the body is not a six text file at all (parsing stopped there). */
  rejection: BodyRejection | undefined;
}

/**
 * gps.six parsed as it arrives, in bounded memory: bytes are pushed in any chunks; whole lines
 * are parsed (same rules and line numbers as parseGpsSix) and their columns handed to `onColumns`
 * a batch at a time; a partial line waits for the next chunk, and a line that grows past
 * MAX_LINE_LENGTH is dropped as it streams (reported 'lineTooLong', never buffered). The
 * whole-body checks run on the way: NUL bytes (binary, UTF-16) and invalid UTF-8 stop parsing.
 */
export class GpsSixStream {
  private readonly problems = new Problems();
  private carry: Uint8Array = new Uint8Array(0);
  private skippingLongLine = false;
  private lineNo = 0;
  private lines = 0;
  private indexed = 0;
  private bytes = 0;
  private rejection: BodyRejection | undefined;

  /** Reused for every batch: `onColumns` must copy what it keeps before returning. */
  private work = allocGpsColumns(4096);

  /**
   * `isUtf8` checks whole chunks (Node's native check on the server); by default a streaming
   * TextDecoder, which also runs in a browser.
   */
  constructor(
    private readonly onColumns: (c: GpsColumns) => void = () => {},
    isUtf8?: (b: Uint8Array) => boolean,
  ) {
    this.utf8 = isUtf8 ? new Utf8Chunks(isUtf8) : undefined;
  }

  private readonly utf8: Utf8Chunks | undefined;

  // Validates UTF-8 across chunk boundaries, every byte (also those of dropped long lines).
  private readonly utf8Check = new TextDecoder('utf-8', { fatal: true });

  push(chunk: Uint8Array): void {
    if (this.rejection || chunk.length === 0) return;
    this.bytes += chunk.length;
    if (chunk.includes(0)) {
      this.rejection = 'binary';
      return;
    }
    if (!this.validUtf8(chunk)) {
      this.rejection = 'invalidUtf8';
      return;
    }
    let data = chunk;
    const cut = data.lastIndexOf(10);
    if (cut === -1) {
      // No line ends here: keep at most one line's worth.
      this.hold(data);
      return;
    }
    let whole: Uint8Array;
    if (this.skippingLongLine) {
      this.skippingLongLine = false;
      this.lineNo++;
      this.lines++;
      this.problems.add(this.lineNo, '*', 'lineTooLong');
      const first = data.indexOf(10);
      whole = data.subarray(first + 1, cut);
      if (first === cut) whole = new Uint8Array(0);
      data = data.subarray(cut + 1);
      if (first !== cut) this.parse(whole);
      this.carry = new Uint8Array(0);
      this.hold(data);
      return;
    }
    if (this.carry.length) {
      // The line begun in an earlier chunk is joined alone (at most a line's bytes copied), and
      // the rest of the chunk parsed where it lies.
      const first = data.indexOf(10);
      const joined = concat(this.carry, data.subarray(0, first));
      this.carry = new Uint8Array(0);
      this.parse(joined, first === cut ? undefined : data.subarray(first + 1, cut));
    } else {
      this.parse(data.subarray(0, cut));
    }
    this.hold(data.subarray(cut + 1));
  }

  /** Parses what is left and returns the summary. */
  end(): GpsStreamSummary {
    if (!this.rejection && !this.utf8EndsClean()) this.rejection = 'invalidUtf8'; // a character cut off at the end
    if (!this.rejection) {
      if (this.skippingLongLine) {
        this.lineNo++;
        this.lines++;
        this.problems.add(this.lineNo, '*', 'lineTooLong');
      } else if (this.carry.length) {
        this.parse(this.carry);
      }
      this.carry = new Uint8Array(0);
      if (this.bytes === 0) this.rejection = 'empty';
    }
    return { lines: this.lines, indexed: this.indexed, problems: this.problems.list, rejection: this.rejection };
  }

  private validUtf8(chunk: Uint8Array): boolean {
    if (this.utf8) return this.utf8.push(chunk);
    try {
      this.utf8Check.decode(chunk, { stream: true });
      return true;
    } catch {
      return false;
    }
  }

  private utf8EndsClean(): boolean {
    if (this.utf8) return this.utf8.end();
    try {
      this.utf8Check.decode();
      return true;
    } catch {
      return false;
    }
  }

  private hold(rest: Uint8Array): void {
    if (this.skippingLongLine) return;
    if (this.carry.length + rest.length > MAX_LINE_LENGTH + 1) {
      // CR of a CRLF line still fits: +1. Anything longer is not a line we would keep.
      this.skippingLongLine = true;
      this.carry = new Uint8Array(0);
      return;
    }
    this.carry = this.carry.length ? concat(this.carry, rest) : rest.slice();
  }

  /**
   * Parses whole lines (the newline after the last one already cut off), in `b` and then in
   * `more` (the lines after b's, when given), and hands their columns over in one batch.
   */
  private parse(b: Uint8Array, more?: Uint8Array): void {
    this.work.count = 0;
    for (const part of more ? [b, more] : [b]) {
      const r = parseGpsLinesInto(part, this.lineNo, this.problems, this.work);
      this.work = r.columns;
      this.lineNo += r.lineCount;
      this.lines += r.lines;
    }
    const c = this.work;
    this.indexed += c.count;
    if (c.count) this.onColumns(trimGpsColumns(c));
  }
}

/**
 * UTF-8 validity of a byte stream with a whole-buffer checker: a character cut at a chunk's end
 * (at most 3 bytes) is held and checked with the start of the next chunk.
 */
class Utf8Chunks {
  private tail: Uint8Array = new Uint8Array(0);
  constructor(private readonly isUtf8: (b: Uint8Array) => boolean) {}

  push(chunk: Uint8Array): boolean {
    let start = 0;
    if (this.tail.length) {
      const lead = this.tail[0]!;
      const need = utf8Length(lead) - this.tail.length;
      if (chunk.length < need) {
        this.tail = concat(this.tail, chunk);
        return chunk.every((x) => (x & 0xc0) === 0x80);
      }
      if (!this.isUtf8(concat(this.tail, chunk.subarray(0, need)))) return false;
      this.tail = new Uint8Array(0);
      start = need;
    }
    let end = chunk.length;
    let i = end - 1;
    while (i >= start && end - i <= 3 && (chunk[i]! & 0xc0) === 0x80) i--;
    if (i >= start && utf8Length(chunk[i]!) > end - i) {
      this.tail = chunk.slice(i);
      end = i;
    }
    return this.isUtf8(chunk.subarray(start, end));
  }

  end(): boolean {
    return this.tail.length === 0;
  }
}

/** Bytes in the UTF-8 sequence this lead byte starts (1 for what is not a lead: the checker refuses it). */
function utf8Length(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xc0 && lead <= 0xdf) return 2;
  return 1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
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

// ---------- whole-body checks (before any line parsing) ----------

export type BodyRejection = 'binary' | 'invalidUtf8' | 'noValidLine' | 'empty';

/** Decodes an upload; refuses what is not a six text file at all (NUL bytes, invalid UTF-8, UTF-16). */
export function decodeSixBody(bytes: Uint8Array): { text: string } | { rejection: BodyRejection } {
  if (bytes.length === 0) return { rejection: 'empty' };
  if (bytes.includes(0)) return { rejection: 'binary' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    return { rejection: 'invalidUtf8' };
  }
}
