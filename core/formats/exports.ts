import type { GpsColumns } from './six-format';
import { HEATS } from './six-format';
import { elapsedMs } from '../analysis/gps-analysis';
import { parseDdmmyyyy } from './dates';

export interface ExportRange {
  start: number;
  end: number;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RaceRender's column names (Time in seconds from the first exported sample), plus lean and heat. */
export function toRaceRenderCsv(c: GpsColumns, range: ExportRange = { start: 0, end: c.count }): string {
  const lines = ['Time,Latitude,Longitude,Speed (KPH),Lap,Lean Angle,Satellites,Heat'];
  const t0 = c.timeMs[range.start] ?? 0;
  for (let i = range.start; i < range.end; i++) {
    lines.push(
      [
        (elapsedMs(t0, c.timeMs[i]!) / 1000).toFixed(3),
        c.lat[i]!.toFixed(7),
        c.lon[i]!.toFixed(7),
        c.speed[i]!.toFixed(1),
        String(c.lapCount[i]),
        c.roll[i]!.toFixed(1),
        String(c.satellites[i]),
        csvField(HEATS[c.heat[i]!]!),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** GPX 1.1 track with UTC times (session date + GPS time of day) and speed (m/s, Garmin TrackPointExtension). */
export function toGpx(c: GpsColumns, meta: { name: string; date: string }, range: ExportRange = { start: 0, end: c.count }): string {
  const d = parseDdmmyyyy(meta.date);
  const midnight = d ? Date.UTC(d.y, d.m - 1, d.d) : 0;
  let dayOffset = 0;
  const pts: string[] = [];
  for (let i = range.start; i < range.end; i++) {
    if (i > range.start && c.timeMs[i]! < c.timeMs[i - 1]! - 43_200_000) dayOffset += 86_400_000; // crossed midnight
    const iso = new Date(midnight + dayOffset + c.timeMs[i]!).toISOString();
    pts.push(
      `<trkpt lat="${c.lat[i]!.toFixed(7)}" lon="${c.lon[i]!.toFixed(7)}"><time>${iso}</time>` +
        `<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>${(c.speed[i]! / 3.6).toFixed(2)}</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gpx version="1.1" creator="Voltas" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">\n' +
    `<metadata><name>${xml(meta.name)}</name></metadata>\n<trk><name>${xml(meta.name)}</name><trkseg>\n${pts.join('\n')}\n</trkseg></trk>\n</gpx>\n`
  );
}
