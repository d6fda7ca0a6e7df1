/**
 * Every import format written from a generated session (truth known): for the tests, the fuzzer
 * and the benchmarks. Times are the generator's UTC times of day on `day`.
 */
import type { GpsColumns } from '../../formats/gps-columns';
import type { Lap } from '../../formats/lap-six';
import { HEATS } from '../../formats/six-lines';
import { crossingFraction, planarGate, type Gate } from '../../tracks/gate';
import { utcToLocalClockMs } from '../local-time';
import type { ImportedTrace } from '../trace';

export interface Day {
  y: number;
  m: number;
  d: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAY_MS = 86_400_000;

/** ms since the epoch of every sample (the time of day rolling over midnight). */
export function epochTimes(c: GpsColumns, day: Day): number[] {
  const base = Date.UTC(day.y, day.m - 1, day.d);
  let add = 0;
  return Array.from({ length: c.count }, (_, i) => {
    if (i > 0 && c.timeMs[i]! < c.timeMs[i - 1]! - DAY_MS / 2) add += DAY_MS;
    return base + add + c.timeMs[i]!;
  });
}

const hhmmss = (ms: number, decimals = 2) => {
  const t = ((ms % DAY_MS) + DAY_MS) % DAY_MS;
  const s = (t % 60_000) / 1000;
  return `${pad(Math.floor(t / 3_600_000))}${pad(Math.floor((t % 3_600_000) / 60_000))}${s.toFixed(decimals).padStart(decimals + 3, '0')}`;
};

export function writeGpx(
  c: GpsColumns,
  day: Day,
  options: { version?: '1.0' | '1.1'; encoding?: 'UTF-8' | 'windows-1252'; name?: string } = {},
): string {
  const version = options.version ?? '1.1';
  const times = epochTimes(c, day);
  const out: string[] = [
    `<?xml version="1.0" encoding="${options.encoding ?? 'UTF-8'}"?>`,
    version === '1.1'
      ? '<gpx version="1.1" creator="Voltas test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">'
      : '<gpx version="1.0" creator="Voltas test" xmlns="http://www.topografix.com/GPX/1/0">',
    `<trk><name>${options.name ?? 'Sessão'}</name><trkseg>`,
  ];
  for (let i = 0; i < c.count; i++) {
    const time = new Date(times[i]!).toISOString();
    const ms = (c.speed[i]! / 3.6).toFixed(3);
    out.push(
      version === '1.1'
        ? `<trkpt lat="${c.lat[i]}" lon="${c.lon[i]}"><time>${time}</time><sat>${c.satellites[i]}</sat><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>${ms}</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>`
        : `<trkpt lat="${c.lat[i]}" lon="${c.lon[i]}"><time>${time}</time><speed>${ms}</speed><sat>${c.satellites[i]}</sat></trkpt>`,
    );
  }
  out.push('</trkseg></trk></gpx>', '');
  return out.join('\n');
}

/**
 * A GPX of a file's fixes as Voltas read them, from `startUtcMs` on (by default as read): the
 * same ride exported by another app (a SpeedAngle ride converted to GPX, at its real UTC times).
 */
export function writeGpxOfTrace(t: ImportedTrace, startUtcMs = t.timeMs[0]!): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Voltas test" xmlns="http://www.topografix.com/GPX/1/1">',
    '<trk><name>Sessão</name><trkseg>',
  ];
  for (let i = 0; i < t.count; i++)
    out.push(
      `<trkpt lat="${t.lat[i]}" lon="${t.lon[i]}"><time>${new Date(startUtcMs + t.timeMs[i]! - t.timeMs[0]!).toISOString()}</time>` +
        (t.satellites[i]! >= 0 ? `<sat>${t.satellites[i]}</sat>` : '') +
        '</trkpt>',
    );
  out.push('</trkseg></trk></gpx>', '');
  return out.join('\n');
}

/** RaceChrono v3: a merged timeline (a calc row between GPS fixes repeats the fix), three speed columns. */
export function writeRaceChrono(c: GpsColumns, day: Day, options: { trackName?: string } = {}): string {
  const times = epochTimes(c, day);
  const out = [
    'This file is created using RaceChrono Pro v9.1.3 ( http://racechrono.com/ ).',
    'Format,3',
    `Session title,"${options.trackName ?? 'Teste'}"`,
    'Session type,Lap timing',
    `Track name,"${options.trackName ?? 'Teste'}"`,
    'Driver name,',
    `Created,${pad(day.d)}/${pad(day.m)}/${day.y},10:00`,
    'Note,',
    '',
    'timestamp,fragment_id,lap_number,elapsed_time,distance_traveled,latitude,longitude,satellites,speed,lean_angle,speed,rpm,speed',
    'unix time,,,s,m,deg,deg,sats,m/s,deg,m/s,rpm,m/s',
    ',,,,,100: gps,100: gps,100: gps,100: gps,calc,calc,200: obd,200: obd',
  ];
  const row = (t: number, i: number, lap: number) =>
    `${(t / 1000).toFixed(3)},0,${lap},${((t - times[0]!) / 1000).toFixed(3)},0,${c.lat[i]!.toFixed(7)},${c.lon[i]!.toFixed(7)},${c.satellites[i]},${(c.speed[i]! / 3.6).toFixed(3)},${c.leanFiltered[i]},${(c.speed[i]! / 3.6 + 0.2).toFixed(3)},9000,${(c.speed[i]! / 3.6 + 1).toFixed(3)}`;
  for (let i = 0; i < c.count; i++) {
    out.push(row(times[i]!, i, c.lapCount[i]!));
    // An OBD row between two fixes: the GPS columns repeat.
    if (i + 1 < c.count) out.push(row((times[i]! + times[i + 1]!) / 2, i, c.lapCount[i]!));
  }
  return out.join('\n') + '\n';
}

const vboMinutes = (deg: number, width: number) =>
  `${deg < 0 ? '-' : '+'}${(Math.abs(deg) * 60).toFixed(5).padStart(width, '0')}`;

/** VBO: minutes of arc, longitude positive west, UTC hhmmss.ss, CRLF. */
export function writeVbo(c: GpsColumns, day: Day, options: { gate?: Gate; lonFirst?: boolean } = {}): string {
  const times = epochTimes(c, day);
  const lines = [
    `File created on ${pad(day.d)}/${pad(day.m)}/${day.y} at 10:00:00`,
    '',
    '[header]',
    'satellites',
    'time',
    'latitude',
    'longitude',
    'velocity kmh',
    'heading',
    'lean-angle',
    '',
  ];
  lines.push('[comments]', 'Generated by the Voltas tests', '');
  if (options.gate) {
    const g = options.gate;
    const pt = (p: { lat: number; lon: number }) =>
      options.lonFirst
        ? `${vboMinutes(-p.lon, 11)} ${vboMinutes(p.lat, 11)}`
        : `${vboMinutes(p.lat, 11)} ${vboMinutes(-p.lon, 11)}`;
    lines.push('[laptiming]', `Start ${pt(g.a)} ${pt(g.b)} ¬ Start / Finish`, '');
  }
  lines.push('[column names]', 'sats time lat long velocity heading lean-angle', '', '[data]');
  for (let i = 0; i < c.count; i++) {
    lines.push(
      `${pad(c.satellites[i]! + 128, 3)} ${hhmmss(times[i]!)} ${vboMinutes(c.lat[i]!, 11)} ${vboMinutes(-c.lon[i]!, 11)} ${c.speed[i]!.toFixed(3)} 000.00 ${c.leanFiltered[i]!.toFixed(2)}`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}

const clock = (ms: number) => {
  const s = ms / 1000;
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(3).padStart(6, '0')}`;
};

/** AiM CSV: local date and time in the header, uniform rows, the laps as beacon markers and segment times. */
export function writeAim(c: GpsColumns, day: Day, laps: readonly Lap[], hz: number): string {
  const times = epochTimes(c, day);
  const local = new Date(utcToLocalClockMs(times[0]!, c.lat[0]!, c.lon[0]!));
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const h = local.getUTCHours();
  const clockText = `${((h + 11) % 12) + 1}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
  let at = 0;
  const beacons = laps.map((l) => (at += l.lapTimeMs) / 1000);
  const q = (v: unknown) => `"${String(v)}"`;
  const out = [
    [q('Format'), q('AiM CSV File')],
    [q('Session'), q('Treino livre')],
    [q('Vehicle'), q('R1')],
    [q('Racer'), q('Piloto')],
    [
      q('Date'),
      q(
        `${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][local.getUTCDay()]}, ${months[local.getUTCMonth()]} ${local.getUTCDate()}, ${local.getUTCFullYear()}`,
      ),
    ],
    [q('Time'), q(clockText)],
    [q('Sample Rate'), q(hz)],
    [q('Duration'), q(((times[c.count - 1]! - times[0]!) / 1000).toFixed(3))],
    [q('Segment'), q('Session')],
    [q('Beacon Markers'), ...beacons.map((b) => q(b.toFixed(3)))],
    [q('Segment Times'), ...laps.map((l) => q(clock(l.lapTimeMs)))],
  ].map((r) => r.join(','));
  out.push(
    '',
    ['Time', 'GPS Speed', 'GPS Nsat', 'GPS Latitude', 'GPS Longitude', 'Lean Angle'].map(q).join(','),
    ['s', 'km/h', '#', 'deg', 'deg', 'deg'].map(q).join(','),
    '',
  );
  for (let i = 0; i < c.count; i++)
    out.push(
      [
        ((times[i]! - times[0]!) / 1000).toFixed(3),
        c.speed[i]!.toFixed(2),
        c.satellites[i],
        c.lat[i]!.toFixed(8),
        c.lon[i]!.toFixed(8),
        c.leanFiltered[i],
      ]
        .map(q)
        .join(','),
    );
  return out.join('\n') + '\n';
}

const nmeaCoord = (deg: number, lat: boolean) => {
  const a = Math.abs(deg);
  const d = Math.floor(a);
  return `${pad(d, lat ? 2 : 3)}${((a - d) * 60).toFixed(6).padStart(9, '0')},${lat ? (deg < 0 ? 'S' : 'N') : deg < 0 ? 'W' : 'E'}`;
};

export function nmeaSentence(body: string): string {
  let x = 0;
  for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
  return `$${body}*${x.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** NMEA 0183: a GGA and an RMC per fix (GN talker), CRLF. */
export function writeNmea(c: GpsColumns, day: Day): string {
  const times = epochTimes(c, day);
  const out: string[] = [];
  for (let i = 0; i < c.count; i++) {
    const t = hhmmss(times[i]!, 2);
    const dt = new Date(times[i]!);
    const date = `${pad(dt.getUTCDate())}${pad(dt.getUTCMonth() + 1)}${pad(dt.getUTCFullYear() % 100)}`;
    out.push(
      nmeaSentence(
        `GNGGA,${t},${nmeaCoord(c.lat[i]!, true)},${nmeaCoord(c.lon[i]!, false)},1,${pad(c.satellites[i]!)},0.8,780.0,M,-3.0,M,,`,
      ),
    );
    out.push(
      nmeaSentence(
        `GNRMC,${t},A,${nmeaCoord(c.lat[i]!, true)},${nmeaCoord(c.lon[i]!, false)},${(c.speed[i]! / 1.852).toFixed(3)},90.0,${date},,,A`,
      ),
    );
  }
  return out.join('\r\n') + '\r\n';
}

/**
 * SpeedAngle .sa: a 10 Hz trace (the columns must be 10 Hz), local start time, the logger's line
 * crossings. The plan is the start/finish `gate` alone, or with `sectorGate` a sector line 1 and the
 * start/finish line 2, as the logger numbers them (its last line is the start/finish). The timer
 * holds every crossing in time order: the start/finish's at the end of each of `laps`, laid end to
 * end from its heat's first sample; the sector line's where the trace crosses it. Each trace row
 * just before a crossing is marked with the line's number, `F` for the start/finish.
 */
export function writeSpeedAngle(
  c: GpsColumns,
  day: Day,
  laps: readonly Lap[],
  gate: Gate,
  /** `utcOffsetHours`: the logger's clock, hours ahead of UTC (else the place's, as the reader reads it). */
  options: { trackName?: string; sectorGate?: Gate; utcOffsetHours?: number } = {},
): string {
  const times = epochTimes(c, day);
  const local = new Date(
    options.utcOffsetHours === undefined
      ? utcToLocalClockMs(times[0]!, c.lat[0]!, c.lon[0]!)
      : times[0]! + options.utcOffsetHours * 3_600_000,
  );
  const plan = options.sectorGate ? [options.sectorGate, gate] : [gate];
  const out = [
    '; APEX Trace $Revision: 3.0.1 $ (c)2009-2014 SpeedAngle.com',
    '#V=4.0.0=',
    `#D=${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}-${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}=`,
    '#MOD=DASH_APEX=',
    `#S=${(options.trackName ?? 'INTERLAGOS').padEnd(14)}=`,
    `<trackplan #sectors=${plan.length}>`,
    ...plan.map(
      (g, k) => `${k + 1},${g.a.lat.toFixed(6)},${g.a.lon.toFixed(6)},${g.b.lat.toFixed(6)},${g.b.lon.toFixed(6)}`,
    ),
    '</trackplan>',
    '<timer #unit=KM/h>',
  ];
  // The logger writes a row every 100 ms, stopped or not: the trace resampled to exactly that.
  const rows: { lat: number; lon: number; text: string }[] = [];
  let i = 0;
  for (let t = times[0]!; t <= times[c.count - 1]!; t += 100) {
    while (i + 1 < c.count - 1 && times[i + 1]! <= t) i++;
    const span = times[i + 1]! - times[i]!;
    const moving = span <= 1000;
    const f = moving ? Math.min(1, (t - times[i]!) / span) : 0;
    const lerp = (col: Float64Array) => col[i]! + (col[i + 1]! - col[i]!) * f;
    const mph = moving ? lerp(c.speed) / 1.609344 : 0;
    const [lat, lon] = [Number(lerp(c.lat).toFixed(6)), Number(lerp(c.lon).toFixed(6))];
    rows.push({
      lat,
      lon,
      text: `${lat.toFixed(6)},${lon.toFixed(6)},${Math.round(c.leanFiltered[i]!)},0,0,0,${Math.round(mph)},0,${c.satellites[i]},1`,
    });
  }
  const marks = new Map<number, string>();
  const crossings: { ms: number; line: number }[] = [];
  const finish = plan.length;
  const heatStart = new Map<number, number>();
  for (let k = 0; k < c.count; k++) if (!heatStart.has(c.heat[k]!)) heatStart.set(c.heat[k]!, times[k]! - times[0]!);
  let at = 0;
  let heat = -1;
  for (const l of laps) {
    const h = HEATS.indexOf(l.heat);
    if (h !== heat) [heat, at] = [h, heatStart.get(h) ?? at];
    at += l.lapTimeMs;
    crossings.push({ ms: at, line: finish });
    if (at / 100 < rows.length) marks.set(Math.floor(at / 100), 'F');
  }
  if (options.sectorGate) {
    const g = planarGate(options.sectorGate);
    for (let k = 1; k < rows.length; k++) {
      const [px, py] = g.proj.toXY(rows[k - 1]!.lat, rows[k - 1]!.lon);
      const [qx, qy] = g.proj.toXY(rows[k]!.lat, rows[k]!.lon);
      const frac = crossingFraction(g, px, py, qx, qy);
      if (frac === undefined) continue;
      crossings.push({ ms: Math.round((k - 1 + frac) * 100), line: 1 });
      if (!marks.has(k - 1)) marks.set(k - 1, '1');
    }
  }
  crossings.sort((a, b) => a.ms - b.ms);
  for (const x of crossings) out.push(`#${x.line},${clock(x.ms)}`, '0,0,0,0,0,0');
  out.push(
    '</timer>',
    `<trace #pt=${rows.length}>`,
    ...rows.map((r, k) => `${r.text},${marks.get(k) ?? 0}`),
    '</trace>',
    '',
  );
  return out.join('\n');
}
