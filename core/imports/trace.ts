/**
 * What every importer produces: the fixes of a logger's file in time order, cleaned as they
 * arrive (times going backwards, repeated fixes and impossible jumps dropped and counted), with
 * what the file says about itself (its own laps, its start/finish line, its track's name).
 */
import { AppError } from '../errors';
import { LineSplitter } from '../formats/lines';
import { num } from '../formats/numbers';
import { haversineM } from '../geo';
import type { Gate, LatLon } from '../tracks/gate';

export const IMPORT_FORMATS = [
  'gpx',
  'racechrono',
  'vbo',
  'aim',
  'nmea',
  'speedangle',
  'trackaddict',
  'gps.six',
  'lap.six',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What was dropped or noticed while reading, by kind (counts, never one warning per line). */
export interface ImportCounts {
  /** Lines that are no fix at all (a malformed row, a bad field). */
  badLines: number;
  /** NMEA sentences whose checksum did not match (kept out). */
  badChecksums: number;
  /** Fixes whose time went backwards. */
  backwards: number;
  /** Fixes with the time of the previous one (repeated rows, merged timelines). */
  duplicates: number;
  /** Fixes that would mean moving faster than any motorcycle. */
  jumps: number;
  /** Pauses of over GAP_MS between fixes (kept: the rider stopped, or the signal did). */
  gaps: number;
  /** Fixes past MAX_FIXES, left out. */
  beyondLimit: number;
}

/** The warnings that count what was left out or seen (`ImportCounts`). */
const COUNTED = ['badLines', 'badChecksums', 'backwards', 'duplicates', 'jumps', 'gaps', 'beyondLimit'] as const;

export const IMPORT_WARNING_CODES = [
  'truncated',
  ...COUNTED,
  'fileLineUnused',
  'loggerLapsUnmatched',
  'leanCalculated',
  'sameRecording',
] as const;

export interface ImportWarning {
  code: (typeof IMPORT_WARNING_CODES)[number];
  /** How many (for the counted kinds, and the logger's laps no GPS lap matches). */
  count?: number;
  /** Where the file stopped being readable (1-based line), for 'truncated'. */
  line?: number;
  /** The file imported before that this one repeats, for 'sameRecording'. */
  file?: string;
}

/** A lap as the logger itself timed it. */
export interface LoggerLap {
  seconds: number;
  /** When it ended, ms since the epoch (to place it on the trace), where the file says. */
  endMs?: number;
}

/** Faster than this between two fixes is a GPS glitch, not riding (m/s: 600 km/h). */
const MAX_SPEED_MS = 600 / 3.6;
/** A pause this long between fixes is reported (the rider stopped, or the signal did). */
const GAP_MS = 5_000;
/** After this many glitches in a row the new place is believed (the GPS moved for good). */
const MAX_JUMP_RUN = 25;
/** A fix dated outside these years is a broken clock, not a ride. */
const EARLIEST_MS = Date.UTC(1990, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);
/** No file holds more fixes than this (3 h at 100 Hz); the fixes beyond it are left out, and said so. */
export const MAX_FIXES = 1_080_000;

/**
 * A day at a track has fewer than 1,000 laps: a file whose logger laps (line crossings, lap
 * starts) pass this is not a logger's, and is refused rather than kept line by line.
 */
export const MAX_LOGGER_LAPS = 5_000;

/** Called before keeping one more of the file's own laps (`count` kept so far). */
export function refuseTooManyLaps(count: number, format: string): void {
  if (count > MAX_LOGGER_LAPS)
    throw new AppError(
      'import/too-complex',
      `The ${format} file holds more than ${MAX_LOGGER_LAPS} laps of its own, which no day at a track has; nothing was stored.`,
      undefined,
      { id: 'imports.refused.tooManyLaps', values: { format, max: MAX_LOGGER_LAPS } },
    );
}

class Growable<T extends Float64Array | Int16Array> {
  constructor(
    private make: (n: number) => T,
    public data: T = make(4096),
  ) {}
  push(at: number, v: number): void {
    if (at >= this.data.length) this.resize(Math.ceil(this.data.length * 1.5)); // less slack than doubling: a long file holds ~a million fixes
    this.data[at] = v;
  }
  /** Room for `n` values at once (no growth, and no garbage of outgrown buffers, on the way there). */
  reserve(n: number): void {
    if (n > this.data.length) this.resize(n);
  }
  private resize(n: number): void {
    const bigger = this.make(n);
    bigger.set(this.data);
    this.data = bigger;
  }
}

/**
 * The cleaned fixes, in columns. Unknown speed, satellites and lean are NaN / -1 until
 * `sessionTrace` (to-session.ts) fills them in place.
 */
export interface ImportedTrace {
  count: number;
  /** ms since the epoch (UTC). */
  timeMs: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  /** km/h; NaN where the file has none (computed later from positions). */
  speedKmh: Float64Array;
  /** -1 where the file has none. */
  satellites: Int16Array;
  /** degrees, negative to the left; NaN where the file has none. */
  leanDeg: Float64Array;
}

export interface ImportedFile {
  format: ImportFormat;
  trace: ImportedTrace;
  loggerLaps: LoggerLap[];
  /** The file's own start/finish line, where it has one (checked against the trace before use). */
  fileGate?: Gate;
  /**
   * The file's own start/finish as a point (TrackAddict's `# End Point`), where its logger timed
   * the laps it gives: the session is timed at a line across the track there (import-session.ts).
   */
  filePoint?: LatLon;
  /** The track's name as the file gives it. */
  trackName?: string;
  /** A lean angle present but computed by the logging app, not measured. */
  leanCalculated?: boolean;
  warnings: ImportWarning[];
  /** Non-empty lines (or XML points) read. */
  lines: number;
}

export interface Fix {
  timeMs: number;
  lat: number;
  lon: number;
  speedKmh?: number;
  satellites?: number;
  leanDeg?: number;
}

/** Where a CSV row holds speed, satellites and lean (-1: not in the file). */
export interface RowColumns {
  speed: number;
  speedFactor: number;
  sats: number;
  lean: number;
}

/** Collects fixes in time order; drops what cannot be a real one and counts it. */
export class TraceBuilder {
  count = 0;
  readonly counts: ImportCounts = {
    badLines: 0,
    badChecksums: 0,
    backwards: 0,
    duplicates: 0,
    jumps: 0,
    gaps: 0,
    beyondLimit: 0,
  };
  truncatedAt: number | undefined;
  private time = new Growable((n) => new Float64Array(n));
  private lat = new Growable((n) => new Float64Array(n));
  private lon = new Growable((n) => new Float64Array(n));
  private speed = new Growable((n) => new Float64Array(n));
  private sats = new Growable((n) => new Int16Array(n));
  private lean = new Growable((n) => new Float64Array(n));
  private jumpRun = 0;
  /** Fixes just dropped in a row as earlier than the last one kept. */
  private behind: Fix[] = [];

  /** `maxFixes`: MAX_FIXES (tests make it small). */
  constructor(private readonly maxFixes = MAX_FIXES) {}

  add(f: Fix): void {
    this.addFix(f.timeMs, f.lat, f.lon, f.speedKmh ?? NaN, f.satellites ?? NaN, f.leanDeg ?? NaN);
  }

  /**
   * The fix of a CSV row `f` at `timeMs`, `lat`, `lon`: its speed (× `speedFactor` to km/h),
   * satellites and lean from their columns (-1 where the file has none: `f[-1]` reads as absent).
   */
  addRow(f: readonly string[], c: RowColumns, timeMs: number, lat: number, lon: number): void {
    const speed = num(f[c.speed]) ?? NaN;
    this.addFix(timeMs, lat, lon, speed * c.speedFactor, Math.round(num(f[c.sats]) ?? NaN), num(f[c.lean]) ?? NaN);
  }

  /** `add` with the fix as numbers (NaN: not in the file), for readers that make no object per fix. */
  addFix(timeMs: number, lat: number, lon: number, speedKmh: number, satellites: number, leanDeg: number): void {
    const plausible = timeMs >= EARLIEST_MS && timeMs < LATEST_MS;
    if (!(plausible && Number.isFinite(lat) && Number.isFinite(lon)) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      this.counts.badLines++;
      return;
    }
    if (lat === 0 && lon === 0) {
      this.counts.badLines++; // no fix yet: loggers write zeros
      return;
    }
    const n = this.count;
    if (n > 0) {
      const dt = timeMs - this.time.data[n - 1]!;
      if (dt < 0) return this.behindLastKept({ timeMs, lat, lon, speedKmh, satellites, leanDeg });
      if (dt === 0) return void this.counts.duplicates++;
      const d = haversineM(this.lat.data[n - 1]!, this.lon.data[n - 1]!, lat, lon);
      if (d > 50 && d / (dt / 1000) > MAX_SPEED_MS && this.jumpRun < MAX_JUMP_RUN) {
        this.jumpRun++;
        this.counts.jumps++;
        return;
      }
      if (dt > GAP_MS) this.counts.gaps++;
    }
    if (n >= this.maxFixes) return void this.counts.beyondLimit++;
    this.jumpRun = 0;
    if (this.behind.length) this.behind = [];
    this.time.push(n, timeMs);
    this.lat.push(n, lat);
    this.lon.push(n, lon);
    this.speed.push(n, Number.isFinite(speedKmh) && speedKmh >= 0 ? speedKmh : NaN);
    this.sats.push(n, Number.isInteger(satellites) && satellites >= 0 ? Math.min(satellites, 255) : -1);
    this.lean.push(n, Number.isFinite(leanDeg) && Math.abs(leanDeg) <= 90 ? leanDeg : NaN);
    this.count = n + 1;
  }

  /**
   * A fix earlier than the last one kept is dropped; but when the next MAX_JUMP_RUN fixes all are,
   * the few kept fixes ahead of them were the glitch (a time read wrong, a digit flipped), not
   * everything after: those go, and the dropped ones come back.
   */
  private behindLastKept(f: Fix): void {
    this.counts.backwards++;
    this.behind.push(f);
    if (this.behind.length < MAX_JUMP_RUN) return;
    const replay = this.behind;
    this.behind = [];
    let ahead = 0;
    while (ahead < this.count && this.time.data[this.count - 1 - ahead]! >= replay[0]!.timeMs) ahead++;
    if (ahead > MAX_JUMP_RUN) return; // a long stretch, not a glitch: the file's later part stays dropped
    this.count -= ahead;
    this.counts.backwards += ahead - replay.length;
    this.jumpRun = 0;
    for (const r of replay) this.add(r);
  }

  /** Room for `n` fixes in all (a guess from the file's size: see ImportReader). */
  reserve(n: number): void {
    const fixes = Math.min(n, this.maxFixes);
    for (const g of [this.time, this.lat, this.lon, this.speed, this.sats, this.lean]) g.reserve(fixes);
  }

  trace(): ImportedTrace {
    const n = this.count;
    return {
      count: n,
      timeMs: this.time.data.subarray(0, n),
      lat: this.lat.data.subarray(0, n),
      lon: this.lon.data.subarray(0, n),
      speedKmh: this.speed.data.subarray(0, n),
      satellites: this.sats.data.subarray(0, n),
      leanDeg: this.lean.data.subarray(0, n),
    };
  }

  /** The counted problems as warnings (only those that happened). */
  warnings(): ImportWarning[] {
    const out: ImportWarning[] = [];
    if (this.truncatedAt !== undefined) out.push({ code: 'truncated', line: this.truncatedAt });
    for (const code of COUNTED) {
      if (this.counts[code] > 0) out.push({ code, count: this.counts[code] });
    }
    return out;
  }
}

/** A reader of one format: text in pieces as it arrives, then the end. */
export interface FormatReader {
  write(text: string): void;
  end(): ImportedFile;
  /** The fixes so far. */
  readonly fixes: TraceBuilder;
}

/**
 * A reader of a line-based format: `row` gets each line; the last one, when the file does not end
 * with a line break, only if `whole(line)` says nothing of it is missing (else the file was cut
 * there, and says so). `finish` then builds the answer from what was read. A line longer than
 * `maxLine` is counted bad, never held.
 */
export function lineReader(
  out: TraceBuilder,
  row: (line: string, n: number) => void,
  whole: (line: string) => boolean,
  finish: (lines: number) => ImportedFile,
  maxLine?: number,
): FormatReader {
  const lines = new LineSplitter(row, () => out.counts.badLines++, maxLine);
  return {
    fixes: out,
    write: (text) => lines.write(text),
    end() {
      const last = lines.end();
      if (last && whole(last.line)) row(last.line, last.n);
      else if (last && last.line.trim() !== '') out.truncatedAt = last.n;
      return finish(lines.lines);
    },
  };
}
