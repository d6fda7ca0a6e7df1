/** TrackAddict's files written from a generated session (truth known): for the tests and the fuzzer. */
import type { GpsColumns } from '../../formats/gps-columns';
import type { Lap } from '../../formats/lap-six';
import { utcToLocalClockMs } from '../local-time';
import { epochTimes, type Day } from './writers';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `hh:mm:ss.sss`, as TrackAddict writes a lap's time. */
const hms = (ms: number) =>
  `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${((ms % 60_000) / 1000).toFixed(3).padStart(6, '0')}`;

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
  const names = [
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
