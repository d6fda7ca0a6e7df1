/**
 * SpeedAngle `.sa` (the motorcycle logger with a lean sensor): a `#KEY=value=` header (`#D=` the
 * start in the logger's local time as MM-DD-YYYY hh:mm:ss, `#S=` the track), a `<trackplan
 * #sectors=N>` of gate lines (`n,lat1,lon1,lat2,lon2`), a `<timer>` with the logger's own line
 * crossings (`#line,m:ss.sss` from the start, each followed by a row of six numbers), and a
 * `<trace #pt=N>` of rows at a fixed 10 Hz without timestamps: latitude, longitude, lean
 * (degrees), …, speed (mph), …, satellites, and a last field marking the row just before a line
 * crossing (the line's number, `F` for the start/finish, 0 for none).
 *
 * The start/finish is the plan's last line, N, not line 1: in the loggers' own files (a Grattan
 * plan of 2 lines, a Killarney plan of 3) the trace's `F` rows fall on line N's gate, the timer's
 * `#N` crossings are within a row of them, and only `#N` is followed by the lap's summary (lowest
 * and highest speed, leans); lines 1..N-1 are the sector lines in the order they are ridden. In a
 * one-line plan the start/finish is line 1.
 */
import { AppError } from '../errors';
import type { Gate } from '../tracks/gate';
import { localClockToUtcMs, localToUtcMs } from './local-time';
import { num } from '../formats/numbers';
import { lineReader, refuseTooManyLaps, TraceBuilder, type FormatReader } from './trace';

const STEP_MS = 100;
const MPH = 1.609344;

export function createSpeedAngleReader(): FormatReader {
  const out = new TraceBuilder();
  let section: 'header' | 'trackplan' | 'timer' | 'trace' | 'done' = 'header';
  let startLocalMs: number | undefined;
  let trackName: string | undefined;
  let fileGate: Gate | undefined;
  /** The start/finish line's number: the plan's last line (1 without a plan). */
  let finishLine = 1;
  let declared: number | undefined;
  let rows = 0;
  /** The timer's start/finish crossings, ms from the start (the logger's own, to the ms). */
  const crossings: number[] = [];
  /** The rows marked `F` (the row before each start/finish crossing). */
  const finishRows: number[] = [];

  const row = (line: string) => {
    const t = line.trim();
    if (t === '' || t.startsWith(';')) return;
    if (t.startsWith('<')) {
      const tag = /^<(\/?)(\w+)(.*)>$/.exec(t);
      if (!tag) return;
      if (tag[1]) section = tag[2] === 'trace' ? 'done' : 'header';
      else if (tag[2] === 'trackplan' || tag[2] === 'timer') section = tag[2];
      else if (tag[2] === 'trace') {
        section = 'trace';
        declared = num(/#pt=(\d+)/.exec(tag[3] ?? '')?.[1]);
        if (startLocalMs === undefined)
          throw new AppError(
            'import/no-date',
            'SpeedAngle file without its #D= start line; nothing was stored.',
            undefined,
            { id: 'imports.refused.speedAngleNoStart' },
          );
      }
      return;
    }
    if (section === 'header') {
      const m = /^#(\w+)=(.*?)=?$/.exec(t);
      if (!m) return;
      if (m[1] === 'D') {
        const d = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(m[2]!.trim());
        if (d) {
          const [mo, day, y, h, mi, s] = d.slice(1).map(Number);
          startLocalMs = Date.UTC(y!, mo! - 1, day, h, mi, s);
        }
      } else if (m[1] === 'S') trackName = m[2]!.trim().slice(0, 64) || undefined;
      return;
    }
    if (section === 'trackplan') {
      const f = t.split(',').map((s) => num(s));
      if (f.length !== 5 || !f.every((v) => v !== undefined) || !Number.isInteger(f[0]) || f[0]! < finishLine) return;
      finishLine = f[0]!;
      fileGate = { a: { lat: f[1]!, lon: f[2]! }, b: { lat: f[3]!, lon: f[4]! } };
      return;
    }
    if (section === 'timer') {
      const m = /^#(\d+),(\d+):(\d+(?:\.\d+)?)$/.exec(t);
      // A sector line's crossings are no lap's end: only the start/finish's are kept.
      if (!m || Number(m[1]) !== finishLine) return;
      // Refused past the bound: a timer of millions of crossings is a bomb, not a day's laps.
      refuseTooManyLaps(crossings.length, 'SpeedAngle');
      crossings.push((Number(m[2]) * 60 + Number(m[3])) * 1000);
      return;
    }
    if (section !== 'trace') return;
    const f = t.split(',');
    const k = rows++;
    if (f.length >= 11 && f[f.length - 1]!.trim() === 'F') {
      refuseTooManyLaps(finishRows.length, 'SpeedAngle');
      finishRows.push(k);
    }
    const lat = num(f[0]);
    const lon = num(f[1]);
    const mph = num(f[6]);
    if (f.length < 11 || lat === undefined || lon === undefined || mph === undefined) {
      out.counts.badLines++;
      return;
    }
    const sats = Math.round(num(f[8]) ?? NaN);
    out.addFix(startLocalMs! + k * STEP_MS, lat, lon, mph * MPH, sats, num(f[2]) ?? NaN);
  };
  return lineReader(
    out,
    row,
    (line) => section === 'trace' && line.split(',').length >= 11,
    (lines) => {
      if (section !== 'trace' && section !== 'done')
        throw new AppError('import/no-fix', 'SpeedAngle file without a <trace>; nothing was stored.', undefined, {
          id: 'imports.refused.speedAngleNoTrace',
        });
      if (section === 'trace' || (declared !== undefined && rows < declared)) out.truncatedAt = lines;
      const trace = localToUtcMs(out.trace());
      const utcStart = trace.count ? localClockToUtcMs(startLocalMs!, trace.lat[0]!, trace.lon[0]!) : 0;
      const ends = finishCrossings(crossings, finishRows);
      return {
        format: 'speedangle',
        trace,
        loggerLaps: ends
          .slice(1)
          .map((end, k) => ({ seconds: Math.round(end - ends[k]!) / 1000, endMs: utcStart + end })),
        ...(fileGate ? { fileGate } : {}),
        ...(trackName ? { trackName } : {}),
        warnings: out.warnings(),
        lines,
      };
    },
  );
}

/**
 * The start/finish crossings, ms from the start: the trace's `F` rows, each timed by the timer's
 * crossing of that line within a row of it (the logger's own time, to the ms), else at the row's
 * time (10 Hz). A file whose trace marks no row `F` has only its timer's crossings of the line.
 */
function finishCrossings(timer: readonly number[], finishRows: readonly number[]): number[] {
  if (!finishRows.length) return [...timer];
  const out: number[] = [];
  let j = 0;
  for (const row of finishRows) {
    const at = row * STEP_MS;
    while (j < timer.length && timer[j]! < at - STEP_MS) j++;
    out.push(j < timer.length && timer[j]! <= at + 2 * STEP_MS ? timer[j]! : at);
  }
  return out;
}
