/**
 * AiM's CSV export (Race Studio): a quoted header block (`"Format","AiM CSV File"`, session,
 * racer, `"Date"`, `"Time"`, `"Sample Rate"`, `"Beacon Markers"`, `"Segment Times"`), the names
 * row, the units row, then rows at a uniform rate. The segment times are the logger's own laps.
 * Date and time are the logger's local time: the caller turns them into UTC (see localToUtc).
 */
import { AppError } from '../errors';
import { splitCsvLine } from './csv-line';
import { num } from '../formats/numbers';
import { lineReader, TraceBuilder, type FormatReader, type LoggerLap, type RowColumns } from './trace';
import { localClockToUtcMs, localToUtcMs } from './local-time';

/** Race Studio writes about 15 header lines; a file with this many and no names row yet is refused. */
const MAX_HEADER_LINES = 500;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** `Saturday, November 14, 2026`, `November 14, 2026`, `14/11/2026` or `2026-11-14` → [y, m, d]. */
export function parseAimDate(raw: string): [number, number, number] | undefined {
  const s = raw.trim().toLowerCase();
  let m = /([a-z]+)\s+(\d{1,2}),?\s+(\d{4})/.exec(s);
  if (m && MONTHS.includes(m[1]!)) return [Number(m[3]), MONTHS.indexOf(m[1]!) + 1, Number(m[2])];
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(s);
  if (m) {
    // Day first, as AiM writes it outside the US; month first where the day could not be.
    const [a, b] = [Number(m[1]), Number(m[2])];
    return b > 12 ? [Number(m[3]), a, b] : [Number(m[3]), b, a];
  }
  return undefined;
}

/** `10:32 AM`, `2:57:03 PM`, `14:57:03` → ms of the day. */
export function parseClock(raw: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*(am|pm)?$/i.exec(raw.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const pm = m[4]?.toLowerCase() === 'pm';
  if (m[4]) h = (h % 12) + (pm ? 12 : 0);
  if (h > 23 || Number(m[2]) > 59) return undefined;
  return ((h * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000;
}

/** `1:35.123` or `95.123` → seconds. */
function lapSeconds(raw: string): number | undefined {
  const m = /^(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(raw.trim());
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

export function createAimReader(): FormatReader {
  const out = new TraceBuilder();
  const header = new Map<string, string[]>();
  let phase: 'header' | 'units' | 'rows' = 'header';
  let names: string[] = [];
  let units: string[] = [];
  let cols: (RowColumns & { time: number; lat: number; lon: number }) | undefined;
  let startLocalMs: number | undefined;
  let rowIndex = 0;
  let rate = 0;

  const row = (line: string) => {
    if (line.trim() === '') return;
    const f = splitCsvLine(line).map((s) => s.trim());
    if (phase === 'header') {
      if (f[0] === 'Time' && f.length > 2) {
        names = f;
        phase = 'units';
        return;
      }
      // Refused past the bound rather than kept: every header line is held until the names row.
      if (header.size >= MAX_HEADER_LINES)
        throw new AppError(
          'import/too-complex',
          `AiM CSV with more than ${MAX_HEADER_LINES} header lines before its names row; nothing was stored.`,
          undefined,
          { id: 'imports.refused.aimHeaderLines', values: { max: MAX_HEADER_LINES } },
        );
      header.set(f[0]!, f.slice(1));
      return;
    }
    if (phase === 'units') {
      units = f;
      phase = 'rows';
      const find = (re: RegExp) => names.findIndex((n) => re.test(n));
      const speed = find(/^GPS Speed$/i);
      cols = {
        time: 0,
        lat: find(/^GPS Latitude$/i),
        lon: find(/^GPS Longitude$/i),
        speed,
        speedFactor: /m\/s/i.test(units[speed] ?? '') ? 3.6 : /mph/i.test(units[speed] ?? '') ? 1.609344 : 1,
        sats: find(/^GPS Nsat$/i),
        lean: find(/lean|roll angle/i),
      };
      if (cols.lat < 0 || cols.lon < 0)
        throw new AppError(
          'import/no-fix',
          'AiM CSV without "GPS Latitude" and "GPS Longitude" columns; nothing was stored.',
          undefined,
          { id: 'imports.refused.aimNoPosition' },
        );
      const date = parseAimDate(header.get('Date')?.[0] ?? '');
      const clock = parseClock(header.get('Time')?.[0] ?? '');
      if (!date || clock === undefined)
        throw new AppError(
          'import/no-date',
          'AiM CSV without a readable "Date" and "Time"; nothing was stored.',
          undefined,
          { id: 'imports.refused.aimNoDate' },
        );
      startLocalMs = Date.UTC(date[0], date[1] - 1, date[2]) + clock;
      rate = num(header.get('Sample Rate')?.[0]) ?? 0;
      return;
    }
    const c = cols!;
    const t = num(f[c.time]) ?? (rate > 0 ? rowIndex / rate : undefined);
    rowIndex++;
    const lat = num(f[c.lat]);
    const lon = num(f[c.lon]);
    if (t === undefined || lat === undefined || lon === undefined) {
      out.counts.badLines++;
      return;
    }
    // Local time for now: turned into UTC at the end, once the place is known.
    out.addRow(f, c, startLocalMs! + Math.round(t * 1000), lat, lon);
  };
  return lineReader(
    out,
    row,
    (line) => phase === 'rows' && splitCsvLine(line).length >= names.length,
    (lines) => {
      if (phase !== 'rows')
        throw new AppError(
          'import/no-fix',
          'AiM CSV without its names and units rows; nothing was stored.',
          undefined,
          { id: 'imports.refused.aimHeader' },
        );
      const trace = localToUtcMs(out.trace());
      const loggerLaps: LoggerLap[] = [];
      const segments = (header.get('Segment Times') ?? []).map(lapSeconds);
      const beacons = (header.get('Beacon Markers') ?? []).map((s) => num(s));
      const utcStart = trace.count ? localClockToUtcMs(startLocalMs!, trace.lat[0]!, trace.lon[0]!) : 0;
      // Segment k ends at beacon k (seconds from the start); the first and last are out and in.
      segments.forEach((seconds, k) => {
        const end = beacons[k];
        if (seconds !== undefined && seconds > 0)
          loggerLaps.push({ seconds, ...(end !== undefined ? { endMs: utcStart + end * 1000 } : {}) });
      });
      const session = header.get('Session')?.[0]?.slice(0, 64);
      return {
        format: 'aim',
        trace,
        loggerLaps,
        ...(session ? { trackName: session } : {}),
        warnings: out.warnings(),
        lines,
      };
    },
  );
}
