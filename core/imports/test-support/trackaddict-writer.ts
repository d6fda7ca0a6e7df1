/** TrackAddict's files written from a generated session (truth known): for the tests and the fuzzer. */
import type { GpsColumns } from '../../formats/gps-columns';
import type { Lap } from '../../formats/lap-six';
import { createRandom } from '../../sim/random';
import { crossingFraction, planarGate, type Gate } from '../../tracks/gate';
import { gateCentre } from '../../tracks/track-definition';
import { utcToLocalClockMs } from '../local-time';
import { epochTimes, type Day } from './writers';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `hh:mm:ss.sss`, as TrackAddict writes a lap's time. */
const hms = (ms: number) =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${((ms % 60_000) / 1000).toFixed(3).padStart(6, '0')}`;

/** TrackAddict's columns, as its iOS and Android apps write them (without UTC Time on old versions). */
function columnNames(utc: boolean, mph: boolean): string[] {
  return [
    'Time',
    ...(utc ? ['UTC Time'] : []),
    'Lap',
    'Predicted Lap Time',
    'Predicted vs Best Lap',
    'GPS_Update',
    'GPS_Delay',
    'Latitude',
    'Longitude',
    'Altitude (m)',
    'Altitude (ft)',
    `Speed (${mph ? 'MPH' : 'Km/h'})`,
    'Heading',
    'Accuracy (m)',
    'Accel X',
    'Accel Y',
    'Accel Z',
  ];
}

/** TrackAddict's own name for a recording: its start in the phone's local clock. */
export function trackAddictFileName(c: GpsColumns, day: Day, track = 'Interlagos'): string {
  const local = new Date(utcToLocalClockMs(epochTimes(c, day)[0]!, c.lat[0]!, c.lon[0]!));
  const [y, m, d, h, mi, s] = [
    local.getUTCFullYear(),
    local.getUTCMonth() + 1,
    local.getUTCDate(),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
  ];
  return `Log-${y}${pad(m)}${pad(d)}-${pad(h)}${pad(mi)}${pad(s)} ${track}.csv`;
}

/**
 * TrackAddict (RaceRender CSV): `#` comments, a quoted header, a sensor row between two GPS rows
 * (GPS_Update 0, the fix repeated), `Lap` counting the generator's laps (one per lap of `laps`,
 * which are the samples' laps in order) and `# Lap N: hh:mm:ss.sss` with lap N's exact time before
 * the row that starts the next; `# Session End`. `utc: false` is a 3.x file (no `UTC Time`: the
 * start is in the name, see trackAddictFileName).
 */
export function writeTrackAddict(
  c: GpsColumns,
  day: Day,
  laps: readonly Lap[],
  options: { speed?: 'MPH' | 'Km/h'; utc?: boolean; crlf?: boolean; bom?: boolean } = {},
): string {
  const times = epochTimes(c, day);
  const utc = options.utc ?? true;
  const mph = (options.speed ?? 'Km/h') === 'MPH';
  const names = columnNames(utc, mph);
  const out = [
    `${options.bom ? '\uFEFF' : ''}# RaceRender Data: TrackAddict ${utc ? '4.8.0 on iOS 15.5' : '3.4.2 on iOS 10.1.1'} [iPhone12,1] (Mode: 0)`,
    `# End Point: ${c.lat[0]!.toFixed(6)}, ${c.lon[0]!.toFixed(6)}  @ -1.00 deg`,
    '# GPS: iOS; Type: 1',
    names.map((n) => `"${n}"`).join(','),
  ];
  let lap = 0;
  const row = (t: number, i: number, gps: boolean) =>
    [
      ((t - times[0]!) / 1000).toFixed(3),
      ...(utc ? [(t / 1000).toFixed(3)] : []),
      lap,
      0,
      0,
      gps ? 1 : 0,
      '0.000',
      c.lat[i]!.toFixed(7),
      c.lon[i]!.toFixed(7),
      '780.0',
      2559,
      (mph ? c.speed[i]! / 1.609344 : c.speed[i]!).toFixed(1),
      '90.0',
      '3.0',
      '0.01',
      '-0.40',
      '-0.98',
    ].join(',');
  for (let i = 0; i < c.count; i++) {
    if (i > 0 && (c.lapCount[i] !== c.lapCount[i - 1] || c.heat[i] !== c.heat[i - 1])) {
      out.push(`# Lap ${lap}: ${hms(laps[lap]!.lapTimeMs)}`);
      lap++;
    }
    out.push(row(times[i]!, i, true));
    // A sensor row between two fixes: the GPS columns repeat.
    if (i + 1 < c.count) out.push(row((times[i]! + times[i + 1]!) / 2, i, false));
  }
  out.push('# Session End');
  const nl = options.crlf ? '\r\n' : '\n';
  return out.join(nl) + nl;
}

/**
 * A TrackAddict recording as a phone makes it of a ride (Android, 4.x, the layout of the real
 * export in server/test/real-recordings/trackaddict-stc-2019): `c` is the ride's exact path (the
 * generator's, 10 Hz, no GPS error); the phone records from `fromMs` to `toMs` (started and stopped
 * mid-lap), a fix a second with the phone's GPS error (`noiseM`, metres, each way), rows between
 * fixes from its other sensors. Its laps are at its own line `gate`, named by `# End Point` (the
 * gate's centre): the Lap column counts the exact path's crossings, and each `# Lap N:` is the exact
 * time between two (TrackAddict times its crossing between fixes). Returns the file and the
 * logger's laps (lap 1 on; lap 0 runs from the start of the recording), seconds to the ms.
 */
export function writeTrackAddictRide(
  c: GpsColumns,
  day: Day,
  gate: Gate,
  options: { fromMs: number; toMs: number; noiseM: number; seed: number },
): { text: string; laps: number[] } {
  const times = epochTimes(c, day);
  const g = planarGate(gate);
  // The exact path's crossings of the logger's line while it records.
  const crossings: number[] = [];
  for (let i = 1; i < c.count; i++) {
    const [px, py] = g.proj.toXY(c.lat[i - 1]!, c.lon[i - 1]!);
    const [qx, qy] = g.proj.toXY(c.lat[i]!, c.lon[i]!);
    const f = crossingFraction(g, px, py, qx, qy);
    if (f === undefined) continue;
    const ms = times[i - 1]! + f * (times[i]! - times[i - 1]!);
    if (ms > options.fromMs && ms < options.toMs) crossings.push(ms);
  }
  const rnd = createRandom(options.seed);
  const centre = gateCentre(gate);
  const names = [
    ...columnNames(true, false),
    'Brake (calculated)',
    'Barometric Pressure (kPa)',
    'Pressure Altitude (m)',
  ];
  const out = [
    '# RaceRender Data: TrackAddict 4.6.2 on Android 11 [samsung SM-G991B] (Mode: 0)',
    `# End Point: ${centre.lat.toFixed(5)}, ${centre.lon.toFixed(5)}  @ -1.00 deg`,
    '# GPS: Android; Mode: Android',
    '# User Settings: SL1;U1;AS1;LT1/1;EC0;VC-1;VQ3;VS0;VSOIS0;VIF1',
    '# Device Free Space: 41236 MB',
    names.map((n) => `"${n}"`).join(','),
  ];
  /** The exact path at `t` (ms since the epoch), between its samples. */
  let j = 0;
  const at = (t: number) => {
    while (j + 2 < c.count && times[j + 1]! <= t) j++;
    const f = Math.max(0, Math.min(1, (t - times[j]!) / (times[j + 1]! - times[j]! || 1)));
    const lerp = (col: ArrayLike<number>) => col[j]! + (col[j + 1]! - col[j]!) * f;
    return { lat: lerp(c.lat), lon: lerp(c.lon), speed: lerp(c.speed) };
  };
  let lap = 0;
  let fix = { lat: 0, lon: 0, speed: 0 };
  for (let t = options.fromMs; t <= options.toMs; t += 250) {
    while (lap < crossings.length && crossings[lap]! <= t) {
      const since = lap === 0 ? options.fromMs : crossings[lap - 1]!;
      out.push(`# Lap ${lap}: ${hms(Math.round(crossings[lap]! - since))}`);
      lap++;
    }
    // A fix a second (the phone's GPS), three rows of its other sensors between.
    const gps = (t - options.fromMs) % 1000 === 0;
    if (gps) {
      const p = at(t);
      const [x, y] = g.proj.toXY(p.lat, p.lon);
      const [lat, lon] = g.proj.toLatLon(x + rnd.normal() * options.noiseM, y + rnd.normal() * options.noiseM);
      fix = { lat, lon, speed: p.speed };
    }
    out.push(
      [
        ((t - options.fromMs) / 1000).toFixed(3),
        (t / 1000).toFixed(3),
        lap,
        0,
        0,
        gps ? 1 : 0,
        '0.000',
        fix.lat.toFixed(7),
        fix.lon.toFixed(7),
        '780.0',
        2559,
        fix.speed.toFixed(1),
        '0.0',
        '4.0',
        '0.01',
        '-0.40',
        '-0.98',
        1,
        '92.31',
        '780.2',
      ].join(','),
    );
  }
  out.push('# Session End');
  const laps = crossings.slice(1).map((ms, k) => Math.round(ms - crossings[k]!) / 1000);
  return { text: out.join('\n') + '\n', laps };
}
