/**
 * Racelogic VBO: the date only in line 1 (`File created on DD/MM/YYYY at HH:MM:SS`), then
 * sections: `[header]`, `[comments]`, `[session data]`, `[laptiming]`, `[column names]`, `[data]`
 * (space-separated rows). Latitude and longitude are in minutes of arc, longitude positive to the
 * WEST; time is UTC `hhmmss.ss` (rolling over at midnight); velocity in km/h; the satellites
 * field carries flags (+64 brake trigger, +128 DGPS).
 */
import { AppError } from '../errors';
import { POW10 } from '../formats/gps-six-fast';
import { scanVboRow } from './vbo-row-fast';
import type { Gate } from '../tracks/gate';
import { lineReader, num, TraceBuilder, type FormatReader, type ImportedFile } from './trace';

const DAY_MS = 86_400_000;

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;

/** `hhmmss.ss` → ms of the day (every fix of a VBO or NMEA file: read by character, not by a pattern). */
export function hhmmssToMs(raw: string): number | undefined {
  if (raw.length < 6) return undefined;
  for (let i = 0; i < 6; i++) if (digit(raw, i) < 0 || digit(raw, i) > 9) return undefined;
  const h = digit(raw, 0) * 10 + digit(raw, 1);
  const mi = digit(raw, 2) * 10 + digit(raw, 3);
  let s = digit(raw, 4) * 10 + digit(raw, 5);
  if (raw.length > 6) {
    if (raw.charCodeAt(6) !== 46 || raw.length === 7 || raw.length > 22) return undefined;
    let fraction = 0;
    for (let i = 7; i < raw.length; i++) {
      const d = digit(raw, i);
      if (d < 0 || d > 9) return undefined;
      fraction = fraction * 10 + d;
    }
    s += fraction / POW10[raw.length - 7]!;
  }
  if (h > 23 || mi > 59 || s >= 61) return undefined;
  return Math.round(((h * 60 + mi) * 60 + s) * 1000);
}

/** The four numbers of a `[laptiming]` line, both ways loggers write them (lat first or lon first). */
function laptimingGates(values: number[]): Gate[] {
  const [p, q, r, s] = values.map((v) => v / 60) as [number, number, number, number];
  return [
    { a: { lat: p, lon: -q }, b: { lat: r, lon: -s } },
    { a: { lat: q, lon: -p }, b: { lat: s, lon: -r } },
  ];
}

/** `fastRows: false` reads every row the plain way (the tests' oracle for scanVboRow). */
export function createVboReader(options: { fastRows?: boolean } = {}): FormatReader {
  const fastRows = options.fastRows ?? true;
  const out = new TraceBuilder();
  let dayMs: number | undefined;
  let section = '';
  let names: string[] = [];
  let startGates: Gate[] = [];
  let cols: { sats: number; time: number; lat: number; lon: number; speed: number; lean: number } | undefined;
  let day = 0;
  let lastTod: number | undefined;
  // Field → slot in `values` for the in-place row reader: time, lat, long, sats, velocity, lean.
  let slots = new Int8Array(0);
  const values = new Float64Array(6);

  const row = (line: string, n: number) => {
    const t = line.trim();
    if (n === 1 || (dayMs === undefined && /^File created on/i.test(t))) {
      const m = /(\d{2})\/(\d{2})\/(\d{4})/.exec(t);
      if (m) {
        const ms = Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]));
        if (Number.isFinite(ms) && Number(m[2]) >= 1 && Number(m[2]) <= 12) dayMs = ms;
      }
      return;
    }
    if (t === '') return;
    const sec = t.charCodeAt(0) === 91 ? /^\[(.+)\]$/.exec(t) : null;
    if (sec) {
      section = sec[1]!.toLowerCase();
      return;
    }
    if (section === 'laptiming') {
      const f = t.split(/\s+/);
      if (/^start$/i.test(f[0] ?? '')) {
        const values = f.slice(1, 5).map(num);
        if (values.every((v) => v !== undefined)) startGates = laptimingGates(values as number[]);
      }
      return;
    }
    if (section === 'column names') {
      names = t.split(/\s+/).map((s) => s.toLowerCase());
      return;
    }
    if (section !== 'data') return;
    if (!cols) {
      const at = (...candidates: string[]) => names.findIndex((n) => candidates.includes(n));
      cols = {
        sats: at('sats', 'satellites'),
        time: at('time', 'utc-time'),
        lat: at('lat', 'latitude'),
        lon: at('long', 'lon', 'longitude'),
        speed: at('velocity', 'velocity_kmh', 'speed'),
        lean: at('lean-angle', 'lean_angle', 'lean', 'roll_angle'),
      };
      if (cols.time < 0 || cols.lat < 0 || cols.lon < 0)
        throw new AppError(
          'import/no-fix',
          'VBO without time, lat and long columns; nothing was stored.',
          undefined,
          'VBO sem as colunas time, lat e long; nada foi gravado.',
        );
      if (dayMs === undefined)
        throw new AppError(
          'import/no-date',
          'VBO without "File created on DD/MM/YYYY" in its first line; nothing was stored.',
          undefined,
          'O VBO não traz "File created on DD/MM/AAAA" na primeira linha, então não se sabe o dia; nada foi gravado.',
        );
      slots = new Int8Array(names.length).fill(-1);
      [cols.time, cols.lat, cols.lon, cols.sats, cols.speed, cols.lean].forEach((field, slot) => {
        if (field >= 0) slots[field] = slot;
      });
    }
    let tod: number | undefined;
    let latMin: number | undefined;
    let lonMin: number | undefined;
    let sats: number | undefined;
    let speed: number | undefined;
    let lean: number | undefined;
    if (fastRows && scanVboRow(t, names.length, slots, cols.time, values)) {
      tod = values[0];
      latMin = values[1];
      lonMin = values[2];
      if (cols.sats >= 0) sats = values[3];
      if (cols.speed >= 0) speed = values[4];
      if (cols.lean >= 0) lean = values[5];
    } else {
      // One space between fields, as loggers write them; any run of blanks otherwise.
      let f = t.split(' ');
      if (f.length !== names.length) f = t.split(/\s+/);
      tod = hhmmssToMs(f[cols.time] ?? '');
      latMin = num(f[cols.lat]);
      lonMin = num(f[cols.lon]);
      if (f.length < names.length) tod = undefined;
      sats = cols.sats >= 0 ? num(f[cols.sats]) : undefined;
      speed = cols.speed >= 0 ? num(f[cols.speed]) : undefined;
      lean = cols.lean >= 0 ? num(f[cols.lean]) : undefined;
    }
    if (tod === undefined || latMin === undefined || lonMin === undefined) {
      out.counts.badLines++;
      return;
    }
    if (lastTod !== undefined && tod < lastTod - DAY_MS / 2) day++; // past midnight
    lastTod = tod;
    out.add({
      timeMs: dayMs! + day * DAY_MS + tod,
      lat: latMin / 60,
      lon: -lonMin / 60,
      speedKmh: speed,
      satellites: sats === undefined ? undefined : Math.round(sats) & 63,
      leanDeg: lean,
    });
  };
  return lineReader(
    out,
    row,
    (line) => section === 'data' && line.trim().split(/\s+/).length >= names.length,
    (lines): ImportedFile => {
      if (!cols)
        throw new AppError('import/no-fix', 'VBO without a [data] section; nothing was stored.', undefined, 'VBO sem a seção [data]; nada foi gravado.');
      const trace = out.trace();
      // Of the two readings of the file's line, the one that lies where the trace runs.
      const near = (g: Gate) => trace.count > 0 && Math.abs(g.a.lat - trace.lat[0]!) < 0.05 && Math.abs(g.a.lon - trace.lon[0]!) < 0.05;
      const fileGate = startGates.find(near);
      return { format: 'vbo', trace, loggerLaps: [], ...(fileGate ? { fileGate } : {}), warnings: out.warnings(), lines: lines };
    },
  );
}
