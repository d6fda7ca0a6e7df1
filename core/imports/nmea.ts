/**
 * NMEA 0183 as GPS modules write it: `$GPRMC`/`$GNRMC` (time, position, speed in knots, date) and
 * `$GPGGA`/`$GNGGA` (time, position, satellites), `ddmm.mmmm,N/S` coordinates, 1-25 fixes a
 * second. A fix is an RMC with status A; the GGA of the same second adds its satellites. The date
 * comes only from RMC. A sentence whose checksum does not match is left out and counted.
 */
import { num } from '../formats/numbers';
import { lineReader, TraceBuilder, type FormatReader } from './trace';
import { hhmmssToMs } from './vbo';
import { AppError } from '../errors';

/** `4807.038,N` → 48.1173; undefined if malformed. */
function nmeaDegrees(value: string, hemisphere: string): number | undefined {
  const m = /^(\d{2,3})(\d{2}(?:\.\d+)?)$/.exec(value);
  if (!m || !/^[NSEW]$/.test(hemisphere)) return undefined;
  const deg = Number(m[1]) + Number(m[2]) / 60;
  return hemisphere === 'S' || hemisphere === 'W' ? -deg : deg;
}

/** Whether the `*hh` checksum matches (true when the sentence has none). */
export function checksumOk(sentence: string): boolean {
  const star = sentence.lastIndexOf('*');
  if (star < 0) return true;
  let x = 0;
  for (let i = 1; i < star; i++) x ^= sentence.charCodeAt(i);
  return sentence.slice(star + 1, star + 3).toUpperCase() === x.toString(16).toUpperCase().padStart(2, '0');
}

export function createNmeaReader(): FormatReader {
  const out = new TraceBuilder();
  let rmcSeen = false;
  let pending:
    { key: string; timeMs?: number; lat?: number; lon?: number; speedKmh?: number; sats?: number } | undefined;

  const flush = () => {
    if (pending?.timeMs !== undefined)
      out.add({
        timeMs: pending.timeMs,
        lat: pending.lat!,
        lon: pending.lon!,
        speedKmh: pending.speedKmh!,
        ...(pending.sats !== undefined ? { satellites: pending.sats } : {}),
      });
    pending = undefined;
  };
  const at = (key: string) => {
    if (pending?.key !== key) {
      flush();
      pending = { key };
    }
    return pending!;
  };

  const row = (line: string) => {
    const s = line.trim();
    if (!s.startsWith('$')) return;
    if (!checksumOk(s)) {
      out.counts.badChecksums++;
      return;
    }
    const body = s.includes('*') ? s.slice(0, s.lastIndexOf('*')) : s;
    const f = body.split(',');
    const type = f[0]!.slice(3);
    if (type === 'RMC') {
      rmcSeen = true;
      const tod = hhmmssToMs(f[1] ?? '');
      const date = /^(\d{2})(\d{2})(\d{2})$/.exec(f[9] ?? '');
      const lat = nmeaDegrees(f[3] ?? '', f[4] ?? '');
      const lon = nmeaDegrees(f[5] ?? '', f[6] ?? '');
      const knots = num(f[7]);
      if (f[2] === 'V') return; // no fix yet
      if (tod === undefined || !date || lat === undefined || lon === undefined || knots === undefined) {
        out.counts.badLines++;
        return;
      }
      const p = at(f[1]!);
      p.timeMs = Date.UTC(2000 + Number(date[3]), Number(date[2]) - 1, Number(date[1])) + tod;
      p.lat = lat;
      p.lon = lon;
      p.speedKmh = knots * 1.852;
    } else if (type === 'GGA') {
      const sats = num(f[7]);
      if (hhmmssToMs(f[1] ?? '') === undefined) {
        out.counts.badLines++;
        return;
      }
      if (sats !== undefined) at(f[1]!).sats = sats;
    }
  };
  return lineReader(
    out,
    row,
    (line) => line.includes('*') && checksumOk(line.trim()),
    (lines) => {
      flush();
      if (!rmcSeen)
        throw new AppError(
          'import/no-date',
          'NMEA without $GPRMC/$GNRMC sentences: they alone carry the date; nothing was stored.',
          undefined,
          { id: 'imports.refused.nmeaNoDate' },
        );
      return { format: 'nmea', trace: out.trace(), loggerLaps: [], warnings: out.warnings(), lines };
    },
  );
}
