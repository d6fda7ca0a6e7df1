// A session's samples exported as RaceRender CSV or GPX 1.1, in pieces the server streams.
import type { GpsColumns } from './gps-columns';
import { HEATS } from './six-lines';
import { elapsedMs } from '../analysis/gps-analysis';
import { parseDdmmyyyy } from './dates';
import { sessionStartUtcMs } from '../imports/local-time';
import { speedIn, type Units } from '../units';

export interface ExportRange {
  start: number;
  end: number;
}

/**
 * Rows per piece of an export: the server streams the pieces, so a session of millions of samples
 * is never one string in memory, and other requests are served between pieces.
 */
const EXPORT_ROWS_PER_CHUNK = 2000;

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * RaceRender's column names (Time in seconds from the first exported sample), plus lean and heat; in
 * pieces. The speed in the rider's units: RaceRender reads "Speed (KPH)" and "Speed (MPH)" alike.
 */
export function* raceRenderCsvChunks(
  c: GpsColumns,
  range: ExportRange = { start: 0, end: c.count },
  units: Units = 'metric',
): Generator<string> {
  yield `Time,Latitude,Longitude,Speed (${units === 'imperial' ? 'MPH' : 'KPH'}),Lap,Lean Angle,Satellites,Heat\r\n`;
  const t0 = c.timeMs[range.start] ?? 0;
  for (let from = range.start; from < range.end; from += EXPORT_ROWS_PER_CHUNK) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(range.end, from + EXPORT_ROWS_PER_CHUNK); i++) {
      lines.push(
        [
          (elapsedMs(t0, c.timeMs[i]!) / 1000).toFixed(3),
          c.lat[i]!.toFixed(7),
          c.lon[i]!.toFixed(7),
          speedIn(c.speed[i]!, units).toFixed(1),
          String(c.lapCount[i]),
          c.roll[i]!.toFixed(1),
          String(c.satellites[i]),
          csvField(HEATS[c.heat[i]!]!),
        ].join(','),
      );
    }
    yield `${lines.join('\r\n')}\r\n`;
  }
}

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * GPX 1.1 track with UTC times (session date + GPS time of day; `local`: the date is the local day
 * where it was ridden, an import's, see sessionStartUtcMs) and speed (m/s, Garmin
 * TrackPointExtension); in pieces.
 */
export function* gpxChunks(
  c: GpsColumns,
  meta: { name: string; date: string; local?: boolean },
  range: ExportRange = { start: 0, end: c.count },
): Generator<string> {
  const d = parseDdmmyyyy(meta.date);
  const at = meta.local && c.count ? { lat: c.lat[0]!, lon: c.lon[0]! } : undefined;
  const midnight = d && c.count ? sessionStartUtcMs(d, c.timeMs[0]!, at) - c.timeMs[0]! : 0;
  let dayOffset = 0;
  // A lap after midnight UTC of a session begun before it is of the next day.
  for (let i = 1; i <= range.start && i < c.count; i++)
    if (c.timeMs[i]! < c.timeMs[i - 1]! - 43_200_000) dayOffset += 86_400_000;
  yield (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gpx version="1.1" creator="Voltas" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">\n' +
    `<metadata><name>${xml(meta.name)}</name></metadata>\n<trk><name>${xml(meta.name)}</name><trkseg>\n`
  );
  for (let from = range.start; from < range.end; from += EXPORT_ROWS_PER_CHUNK) {
    const pts: string[] = [];
    for (let i = from; i < Math.min(range.end, from + EXPORT_ROWS_PER_CHUNK); i++) {
      if (i > range.start && c.timeMs[i]! < c.timeMs[i - 1]! - 43_200_000) dayOffset += 86_400_000; // crossed midnight
      const iso = new Date(midnight + dayOffset + c.timeMs[i]!).toISOString();
      pts.push(
        `<trkpt lat="${c.lat[i]!.toFixed(7)}" lon="${c.lon[i]!.toFixed(7)}"><time>${iso}</time>` +
          `<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>${(c.speed[i]! / 3.6).toFixed(2)}</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>`,
      );
    }
    yield `${pts.join('\n')}\n`;
  }
  yield '</trkseg></trk>\n</gpx>\n';
}
