/**
 * RaceChrono's CSV export, version 3: a header block (`Format,3`, then session key/value lines),
 * the column names (a name may repeat: `speed` from the GPS, from a calculation, from the OBD),
 * their units, and their sources (`100: gps`, `calc`, `200: obd`). The rows are one timeline
 * merged from every source, so a GPS value repeats between two fixes: a row is a new fix only
 * where the GPS position changed. GPS columns are taken from the GPS source; the lean angle from
 * whichever source has it (marked when that is `calc`).
 */
import { AppError } from '../errors';
import { splitCsvLine } from './csv-line';
import { num } from '../formats/numbers';
import { lineReader, refuseTooManyLaps, TraceBuilder, type FormatReader, type RowColumns } from './trace';

interface Columns extends RowColumns {
  time: number;
  lat: number;
  lon: number;
  lap: number;
}

function pick(names: string[], sources: string[], name: string, gpsSource: string): number {
  const fromGps = names.findIndex((n, i) => n === name && sources[i] === gpsSource);
  return fromGps >= 0 ? fromGps : names.indexOf(name);
}

export function createRaceChronoReader(): FormatReader {
  const out = new TraceBuilder();
  let phase: 'header' | 'units' | 'sources' | 'rows' = 'header';
  let names: string[] = [];
  let units: string[] = [];
  let cols: Columns | undefined;
  let trackName: string | undefined;
  let leanCalculated = false;
  let lastLat = NaN;
  let lastLon = NaN;
  let lapNumber: number | undefined;
  const lapStarts: number[] = [];

  const row = (line: string) => {
    if (line.trim() === '') return;
    if (phase === 'header') {
      const f = splitCsvLine(line);
      if (f[0] === 'Track name' && f[1]) trackName = f[1].trim().slice(0, 64) || undefined;
      if (f.includes('timestamp') && f.includes('latitude')) {
        names = f.map((s) => s.trim());
        phase = 'units';
      }
      return;
    }
    if (phase === 'units') {
      units = splitCsvLine(line).map((s) => s.trim());
      phase = 'sources';
      return;
    }
    if (phase === 'sources') {
      const sources = splitCsvLine(line).map((s) => s.trim());
      const gps = sources.find((s) => /gps/i.test(s)) ?? '';
      const speed = pick(names, sources, 'speed', gps);
      const lean = names.indexOf('lean_angle');
      leanCalculated = lean >= 0 && sources[lean] === 'calc';
      cols = {
        time: names.indexOf('timestamp'),
        lat: pick(names, sources, 'latitude', gps),
        lon: pick(names, sources, 'longitude', gps),
        speed,
        speedFactor: /km\/h/i.test(units[speed] ?? '') ? 1 : 3.6,
        sats: pick(names, sources, 'satellites', gps),
        lean,
        lap: names.indexOf('lap_number'),
      };
      phase = 'rows';
      return;
    }
    const c = cols!;
    const f = line.split(',');
    const t = num(f[c.time]);
    const lat = num(f[c.lat]);
    const lon = num(f[c.lon]);
    if (t === undefined || lat === undefined || lon === undefined) {
      out.counts.badLines++;
      return;
    }
    const lap = c.lap >= 0 ? num(f[c.lap]) : undefined;
    if (lap !== undefined && lap !== lapNumber) {
      if (lapNumber !== undefined) {
        // Refused past the bound: a lap number changing on every row is no logger's laps.
        refuseTooManyLaps(lapStarts.length, 'RaceChrono');
        lapStarts.push(t * 1000);
      }
      lapNumber = lap;
    }
    if (lat === lastLat && lon === lastLon) return; // the same fix again between two GPS updates
    lastLat = lat;
    lastLon = lon;
    out.addRow(f, c, Math.round(t * 1000), lat, lon);
  };
  return lineReader(
    out,
    row,
    (line) => phase === 'rows' && line.split(',').length === names.length,
    (lines) => {
      if (phase !== 'rows')
        throw new AppError(
          'import/no-fix',
          'RaceChrono CSV without its column names, units and sources rows; nothing was stored.',
          undefined,
          { id: 'imports.refused.raceChronoHeader' },
        );
      return {
        format: 'racechrono',
        trace: out.trace(),
        loggerLaps: lapStarts.slice(1).map((end, k) => ({ seconds: (end - lapStarts[k]!) / 1000, endMs: end })),
        ...(trackName ? { trackName } : {}),
        leanCalculated: leanCalculated && out.count > 0,
        warnings: [...out.warnings(), ...(leanCalculated ? [{ code: 'leanCalculated' as const }] : [])],
        lines,
      };
    },
  );
}
