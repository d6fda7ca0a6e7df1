/**
 * Racelogic VBO: the date only in line 1 (`File created on DD/MM/YYYY at HH:MM:SS`), then
 * sections: `[header]`, `[comments]`, `[session data]`, `[laptiming]`, `[column names]`, `[data]`
 * (space-separated rows). Latitude and longitude are in minutes of arc, longitude positive to the
 * WEST; time is UTC `hhmmss.ss` (rolling over at midnight); velocity in km/h; the satellites
 * field carries flags (+64 brake trigger, +128 DGPS).
 */
import { AppError } from '../errors';
import type { Gate } from '../tracks/gate';
import { num } from '../formats/numbers';
import { lineReader, TraceBuilder, type FormatReader } from './trace';

const DAY_MS = 86_400_000;

/** `hhmmss.ss` → ms of the day, UTC. */
export function hhmmssToMs(raw: string): number | undefined {
  if (!/^\d{6}(?:\.\d{1,15})?$/.test(raw)) return undefined;
  const h = Number(raw.slice(0, 2));
  const mi = Number(raw.slice(2, 4));
  const s = Number(raw.slice(4));
  return h > 23 || mi > 59 || s >= 61 ? undefined : Math.round(((h * 60 + mi) * 60 + s) * 1000);
}

/** The four numbers of a `[laptiming]` line, both ways loggers write them (lat first or lon first). */
function laptimingGates(values: number[]): Gate[] {
  const [p, q, r, s] = values.map((v) => v / 60) as [number, number, number, number];
  return [
    { a: { lat: p, lon: -q }, b: { lat: r, lon: -s } },
    { a: { lat: q, lon: -p }, b: { lat: s, lon: -r } },
  ];
}

export function createVboReader(): FormatReader {
  const out = new TraceBuilder();
  let dayMs: number | undefined;
  let section = '';
  let names: string[] = [];
  let startGates: Gate[] = [];
  let cols: { sats: number; time: number; lat: number; lon: number; speed: number; lean: number } | undefined;
  let day = 0;
  let lastTod: number | undefined;

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
        throw new AppError('import/no-fix', 'VBO without time, lat and long columns; nothing was stored.', undefined, {
          id: 'imports.refused.vboColumns',
        });
      if (dayMs === undefined)
        throw new AppError(
          'import/no-date',
          'VBO without "File created on DD/MM/YYYY" in its first line; nothing was stored.',
          undefined,
          { id: 'imports.refused.vboNoDate' },
        );
    }
    // One space between fields, as loggers write them; any run of blanks otherwise.
    let f = t.split(' ');
    if (f.length !== names.length) f = t.split(/\s+/);
    const tod = f.length < names.length ? undefined : hhmmssToMs(f[cols.time] ?? '');
    const latMin = num(f[cols.lat]);
    const lonMin = num(f[cols.lon]);
    const sats = cols.sats >= 0 ? num(f[cols.sats]) : undefined;
    const speed = cols.speed >= 0 ? num(f[cols.speed]) : undefined;
    const lean = cols.lean >= 0 ? num(f[cols.lean]) : undefined;
    if (tod === undefined || latMin === undefined || lonMin === undefined) {
      out.counts.badLines++;
      return;
    }
    if (lastTod !== undefined && tod < lastTod - DAY_MS / 2) day++; // past midnight
    lastTod = tod;
    out.addFix(
      dayMs! + day * DAY_MS + tod,
      latMin / 60,
      -lonMin / 60,
      speed ?? NaN,
      sats === undefined ? NaN : Math.round(sats) & 63,
      lean ?? NaN,
    );
  };
  return lineReader(
    out,
    row,
    (line) => section === 'data' && line.trim().split(/\s+/).length >= names.length,
    (lines) => {
      if (!cols)
        throw new AppError('import/no-fix', 'VBO without a [data] section; nothing was stored.', undefined, {
          id: 'imports.refused.vboNoData',
        });
      const trace = out.trace();
      // Of the two readings of the file's line, the one that lies where the trace runs.
      const near = (g: Gate) =>
        trace.count > 0 && Math.abs(g.a.lat - trace.lat[0]!) < 0.05 && Math.abs(g.a.lon - trace.lon[0]!) < 0.05;
      const fileGate = startGates.find(near);
      return {
        format: 'vbo',
        trace,
        loggerLaps: [],
        ...(fileGate ? { fileGate } : {}),
        warnings: out.warnings(),
        lines,
      };
    },
  );
}
