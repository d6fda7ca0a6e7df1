/**
 * TrackAddict's CSV export (RaceRender's data format): `#` comment lines (`# RaceRender Data:
 * TrackAddict 4.8.0 …`, `# End Point: …`), one quoted header row, then rows on the phone's
 * timeline (GPS, accelerometer and OBD merged, ~20 rows a second against a GPS at 1-10 Hz). A row
 * is a new fix where `GPS_Update` is 1. `UTC Time` is seconds since the epoch (from 4.x; older
 * files only have `Time`, seconds since the start, and the start in the file's name,
 * `Log-YYYYMMDD-HHMMSS`, in the phone's local time). `Speed (MPH)` or `Speed (Km/h)` as the app
 * was set. The logger's laps: `Lap` counts them (0 from the start of the recording to the first
 * crossing), and at each crossing TrackAddict writes `# Lap N: hh:mm:ss.sss`, lap N's own time,
 * more exact than the rows around it (the crossing is interpolated between 1 Hz fixes). Its line
 * is where `# End Point: lat, lon` says (the heading after `@` is -1 where unknown).
 */
import { AppError } from '../errors';
import { haversineM } from '../geo';
import type { LatLon } from '../tracks/gate';
import { splitCsvLine } from './csv-line';
import { localClockToUtcMs, localToUtcMs } from './local-time';
import { num } from '../formats/numbers';
import { lineReader, refuseTooManyLaps, TraceBuilder, type FormatReader, type RowColumns } from './trace';

/** A header row longer than this is no TrackAddict header (OBD channels make it long, not this long). */
const MAX_HEADER_LINE = 16_384;
const MAX_COLUMNS = 512;
/** A fix this far from the one before, within MOVED_WITHIN_MS, was moving (a standing 1 Hz phone GPS wanders less). */
const MOVED_M = 5;
const MOVED_WITHIN_MS = 2_000;

/** `# Lap 3: 00:01:47.089` → [3, 107.089]. */
export function trackAddictLapLine(line: string): [number, number] | undefined {
  const m = /^#\s*Lap\s+(\d{1,6})\s*:\s*(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2}(?:\.\d{1,6})?)\s*$/.exec(line);
  if (!m) return undefined;
  const seconds = Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  return seconds > 0 ? [Number(m[1]), Math.round(seconds * 1e6) / 1e6] : undefined;
}

/** `# End Point: 51.99907, 13.68830  @ -1.00 deg` → where TrackAddict's start/finish is. */
export function trackAddictEndPoint(line: string): LatLon | undefined {
  const m = /^#\s*End Point:\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)/.exec(line);
  if (!m) return undefined;
  const [lat, lon] = [Number(m[1]), Number(m[2])];
  // 0, 0 is what an app writes for a point it never had.
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (lat !== 0 || lon !== 0) ? { lat, lon } : undefined;
}

/** `Log-20220531-085930 Goodwood Motorcircuit - 2.57.527.csv` → its start in local clock ms, as if UTC. */
export function trackAddictFileStart(filename: string): number | undefined {
  const m = /(?:^|[\\/])Log-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(filename);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

const SPEED_FACTORS: [RegExp, number][] = [
  [/^mph$/i, 1.609344],
  [/^(km\/h|kph|kmh)$/i, 1],
  [/^m\/s$/i, 3.6],
];

export function createTrackAddictReader(filename = ''): FormatReader {
  const out = new TraceBuilder();
  let names: string[] | undefined;
  let cols:
    (RowColumns & { time: number; utc: number; lap: number; update: number; lat: number; lon: number }) | undefined;
  /** Without `UTC Time`: the start from the file's name, local clock (moved to UTC at the end). */
  let localStart: number | undefined;
  let lastLat = NaN;
  let lastLon = NaN;
  let lastMs = -Infinity;
  let lapNumber: number | undefined;
  /** The logger's own time of the lap just ended, from its `# Lap N:` line, until the row that starts the next. */
  let pending: [number, number] | undefined;
  /** Where the Lap column changed (file ms) and the own time of the lap that ended there, if written. */
  const changes: { ms: number; seconds: number | undefined }[] = [];
  /** The logger's start/finish, from its `# End Point` line. */
  let endPoint: LatLon | undefined;

  const header = (line: string) => {
    const f = splitCsvLine(line).map((s) => s.trim());
    if (!(f.includes('Latitude') && f.includes('Longitude') && f[0] === 'Time')) return;
    if (f.length > MAX_COLUMNS)
      throw new AppError(
        'import/no-fix',
        `TrackAddict CSV with more than ${MAX_COLUMNS} columns; nothing was stored.`,
        undefined,
        { id: 'imports.refused.trackAddictColumns', values: { max: MAX_COLUMNS } },
      );
    names = f;
    const speed = f.findIndex((n) => /^Speed \(([^)]+)\)$/i.test(n));
    const unit = speed >= 0 ? /\(([^)]+)\)/.exec(f[speed]!)![1]!.trim() : '';
    const factor = SPEED_FACTORS.find(([re]) => re.test(unit))?.[1];
    cols = {
      time: 0,
      utc: f.indexOf('UTC Time'),
      lap: f.indexOf('Lap'),
      update: f.indexOf('GPS_Update'),
      lat: f.indexOf('Latitude'),
      lon: f.indexOf('Longitude'),
      speed: factor === undefined ? -1 : speed,
      speedFactor: factor ?? 1,
      sats: f.findIndex((n) => /^(GPS )?Sat(ellite)?s$/i.test(n)),
      lean: -1,
    };
    if (cols.utc < 0) {
      localStart = trackAddictFileStart(filename);
      if (localStart === undefined)
        throw new AppError(
          'import/no-date',
          'TrackAddict CSV without "UTC Time", named other than Log-YYYYMMDD-HHMMSS: the day is unknown; nothing was stored.',
          undefined,
          { id: 'imports.refused.trackAddictNoDate' },
        );
    }
  };

  const row = (line: string) => {
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.trim() === '') return;
    if (line.charCodeAt(0) === 35) {
      // '#': metadata (the logger's line among it), and within the rows the logger's lap times.
      pending = trackAddictLapLine(line) ?? pending;
      endPoint ??= trackAddictEndPoint(line);
      return;
    }
    if (!cols) return header(line);
    const c = cols;
    const f = line.split(',');
    const seconds = num(f[c.utc >= 0 ? c.utc : c.time]);
    if (seconds === undefined) {
      out.counts.badLines++;
      return;
    }
    const ms = c.utc >= 0 ? Math.round(seconds * 1000) : localStart! + Math.round(seconds * 1000);
    const lap = c.lap >= 0 ? num(f[c.lap]) : undefined;
    if (lap !== undefined && lap !== lapNumber) {
      // As every reader's: more laps of its own than any day at a track has is refused, not cut.
      refuseTooManyLaps(changes.length, 'TrackAddict');
      if (lapNumber !== undefined)
        changes.push({ ms, seconds: pending && pending[0] === lapNumber ? pending[1] : undefined });
      pending = undefined;
      lapNumber = lap;
    }
    if (c.update >= 0 && num(f[c.update]) !== 1) return;
    const lat = num(f[c.lat]);
    const lon = num(f[c.lon]);
    if (lat === undefined || lon === undefined) {
      out.counts.badLines++;
      return;
    }
    // Without GPS_Update a fix is where the position changed (the rows between repeat it).
    if (c.update < 0 && lat === lastLat && lon === lastLon) return;
    // TrackAddict writes a speed of 0 where the phone's GPS gave none, moving or not (at the
    // Spreewaldring for 7 s at 60 km/h): where the fix moved since the last, it is unknown (computed
    // from the positions), not a stop that would end a lap.
    const written = num(f[c.speed]);
    const moved = written === 0 && ms - lastMs <= MOVED_WITHIN_MS && haversineM(lastLat, lastLon, lat, lon) > MOVED_M;
    lastLat = lat;
    lastLon = lon;
    lastMs = ms;
    if (moved) out.addFix(ms, lat, lon, NaN, Math.round(num(f[c.sats]) ?? NaN), NaN);
    else out.addRow(f, c, ms, lat, lon);
  };

  return lineReader(
    out,
    row,
    (line) => line.startsWith('#') || (names !== undefined && line.split(',').length === names.length),
    (lines) => {
      if (!cols)
        throw new AppError(
          'import/no-fix',
          'TrackAddict CSV without its column names row ("Time", …, "Latitude", "Longitude"); nothing was stored.',
          undefined,
          { id: 'imports.refused.trackAddictHeader' },
        );
      const trace = localStart === undefined ? out.trace() : localToUtcMs(out.trace());
      // The Lap column's changes are on the file's clock: moved to UTC as its fixes were.
      const shift =
        localStart !== undefined && trace.count
          ? localStart - localClockToUtcMs(localStart, trace.lat[0]!, trace.lon[0]!)
          : 0;
      // Lap 0 runs from the start of the recording: a lap is between two changes of the Lap column.
      const loggerLaps = changes
        .slice(1)
        .map(({ ms, seconds }, k) => ({ seconds: seconds ?? (ms - changes[k]!.ms) / 1000, endMs: ms - shift }));
      return {
        format: 'trackaddict',
        trace,
        loggerLaps,
        ...(endPoint && loggerLaps.length ? { filePoint: endPoint } : {}),
        warnings: out.warnings(),
        lines,
      };
    },
    MAX_HEADER_LINE,
  );
}
