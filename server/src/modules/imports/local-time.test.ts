import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gpxChunks } from '#core/formats/exports.ts';
import { allocGpsColumns } from '#core/formats/gps-columns.ts';
import {
  localClockToUtcMs,
  localDay,
  sessionStartUtcMs,
  timeZoneAt,
  utcOffsetHours,
  utcToLocalClockMs,
} from '#core/imports/local-time.ts';
import { readImport } from '#core/imports/test-support/read-import.ts';
import { parseCatalogue } from '../tracks/track-catalogue';

// Issue 59: a place's local time is its time zone's, summer time included (the tz database by
// coordinates, then Intl), not 15° of longitude an hour.

const real = (folder: string, file: string) =>
  gunzipSync(readFileSync(new URL(`../../../test/real-recordings/${folder}/${file}`, import.meta.url)));

async function firstFix(bytes: Uint8Array, name: string) {
  const r = await readImport([bytes], name);
  if (r.kind !== 'trace') throw new Error('expected a trace');
  return { utcMs: r.file.trace.timeMs[0]!, lat: r.file.trace.lat[0]!, lon: r.file.trace.lon[0]!, trace: r.file.trace };
}

/** `…_20251231_111318…` or `Log-20220531-085930…`: the logger's start on its local clock (ms as if UTC). */
function startInName(name: string): number {
  const m = /(\d{4})(\d{2})(\d{2})[_-](\d{2})(\d{2})(\d{2})/.exec(name)!;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d, h, mi, s);
}

describe('the local times of real recordings are their places’ (the logger named each file by its local start)', () => {
  // Each file has UTC times, and its name the logger's local clock at (about) its first fix.
  const files: { folder: string; file: string; zone: string; hours: number }[] = [
    {
      folder: 'racechrono-tianma-lap9',
      file: 'session_20251231_111318_tianma_lap9_v3.csv.gz',
      zone: 'Asia/Shanghai',
      hours: 8,
    },
    {
      folder: 'racechrono-tianma-lap13',
      file: 'session_20251231_111959_tianma_lap13_v3.csv.gz',
      zone: 'Asia/Shanghai',
      hours: 8,
    },
    {
      // Goodwood in May: British Summer Time, UTC+1 (longitude -0.75 would say UTC+0).
      folder: 'trackaddict-goodwood-2022',
      file: 'Log-20220531-085930 Goodwood Motorcircuit - 2.57.527.csv.gz',
      zone: 'Europe/London',
      hours: 1,
    },
  ];
  for (const f of files)
    it(`${f.file}: ${f.zone}, UTC${f.hours >= 0 ? '+' : ''}${f.hours}, the name's clock within 2 s`, async () => {
      const fix = await firstFix(real(f.folder, f.file), f.file);
      expect(timeZoneAt(fix.lat, fix.lon)).toBe(f.zone);
      expect(utcOffsetHours(fix.lat, fix.lon, fix.utcMs)).toBe(f.hours);
      expect(Math.abs(utcToLocalClockMs(fix.utcMs, fix.lat, fix.lon) - startInName(f.file))).toBeLessThanOrEqual(2000);
    });

  it('the Spreewaldring in June is UTC+2 (summer time; its longitude, 13.7°, would say UTC+1)', async () => {
    const fix = await firstFix(real('trackaddict-stc-2019', 'STC_log.csv.gz'), 'STC_log.csv');
    expect(timeZoneAt(fix.lat, fix.lon)).toBe('Europe/Berlin');
    expect(new Date(utcToLocalClockMs(fix.utcMs, fix.lat, fix.lon)).toISOString()).toBe('2019-06-05T13:28:31.000Z');
  });

  it('the catalogue’s Tianma excerpt (assets/import-samples) is of 31 Dec 2025, 11:13 in Shanghai', async () => {
    const bytes = readFileSync(
      new URL('../../../../assets/import-samples/racechrono-v3-tianma-excerpt.csv', import.meta.url),
    );
    const fix = await firstFix(bytes, 'session.csv');
    expect(localDay(fix.trace)).toEqual({ y: 2025, m: 12, d: 31 });
    expect(new Date(utcToLocalClockMs(fix.utcMs, fix.lat, fix.lon)).toISOString().slice(11, 19)).toBe('11:13:17');
  });
});

describe('the track catalogue’s circuits: each in its zone, summer time as that zone keeps it', () => {
  const tracks = parseCatalogue(
    gunzipSync(readFileSync(new URL('../../../../assets/track-catalogue/tracks.ndjson.gz', import.meta.url))).toString(
      'utf8',
    ),
  );
  const summer = Date.UTC(2024, 7, 10, 16); // 10 Aug 2024
  const winter = Date.UTC(2024, 0, 15, 16); // 15 Jan 2024
  const cases: { name: string; zone: string; august: number; january: number }[] = [
    // Michigan: Eastern Time, UTC-4 in August (15° an hour made it UTC-6).
    { name: 'Grattan Raceway Park', zone: 'America/Detroit', august: -4, january: -5 },
    { name: 'Shanghai Tianma Circuit', zone: 'Asia/Shanghai', august: 8, january: 8 },
    { name: 'Autódromo de Interlagos', zone: 'America/Sao_Paulo', august: -3, january: -3 },
    { name: 'Phillip Island Grand Prix Circuit', zone: 'Australia/Melbourne', august: 10, january: 11 },
    { name: 'Mugello Circuit', zone: 'Europe/Rome', august: 2, january: 1 },
    { name: 'Suzuka Circuit', zone: 'Asia/Tokyo', august: 9, january: 9 },
    // Argentina keeps UTC-3 at a longitude of 65° W (15° an hour: UTC-4).
    {
      name: 'Autódromo Internacional de Termas de Río Hondo',
      zone: 'America/Argentina/Cordoba',
      august: -3,
      january: -3,
    },
  ];
  for (const c of cases)
    it(`${c.name}: ${c.zone}, UTC${c.august} in August, UTC${c.january} in January`, () => {
      const track = tracks.find((t) => t.name === c.name);
      expect(track, c.name).toBeDefined();
      const [lat, lon] = track!.startFinish;
      expect(timeZoneAt(lat, lon)).toBe(c.zone);
      expect(utcOffsetHours(lat, lon, summer)).toBe(c.august);
      expect(utcOffsetHours(lat, lon, winter)).toBe(c.january);
    });

  it('every circuit has a zone of the tz database, and an offset Intl knows', () => {
    for (const t of tracks) {
      const zone = timeZoneAt(...t.startFinish);
      expect(zone, t.name).toMatch(/^[A-Za-z_]+(\/[A-Za-z_+-]+)*$|^Etc\/GMT[+-]?\d*$/);
      expect(Math.abs(utcOffsetHours(...t.startFinish, summer)), t.name).toBeLessThanOrEqual(14);
    }
  });
});

describe('a wall-clock time at a place, to UTC and back', () => {
  const grattan = [42.98, -85.16] as const;
  it('Grattan, 10 Aug 2024 12:00 local is 16:00 UTC', () => {
    expect(new Date(localClockToUtcMs(Date.UTC(2024, 7, 10, 12), ...grattan)).toISOString()).toBe(
      '2024-08-10T16:00:00.000Z',
    );
    expect(utcToLocalClockMs(Date.UTC(2024, 7, 10, 16), ...grattan)).toBe(Date.UTC(2024, 7, 10, 12));
  });
  it('the day a session is named by is the local one: 23:30 at Interlagos is 02:30 UTC the next day', () => {
    const t = {
      count: 1,
      timeMs: Float64Array.of(Date.UTC(2024, 2, 2, 2, 30)),
      lat: Float64Array.of(-23.7),
      lon: Float64Array.of(-46.7),
    };
    expect(localDay(t as never)).toEqual({ y: 2024, m: 3, d: 1 });
  });
});

describe('a SpeedAngle ride at Grattan (its #D= start on the logger’s local clock)', () => {
  // 10 Aug 2024, 12:00:00 on the logger: 16:00 UTC (Eastern Daylight Time), not 18:00 (UTC-6).
  const rows = Array.from({ length: 20 }, (_, k) => `${(42.96 + k * 1e-5).toFixed(6)},-85.216000,0,0,0,0,40,0,9,0,0`);
  const sa = [
    '; APEX Trace $Revision: 3.0.1 $ (c)2009-2014 SpeedAngle.com',
    '#V=4.0.0=',
    '#D=08-10-2024 12:00:00=',
    '#S=GRATTAN       =',
    '<trace #pt=20>',
    ...rows,
    '</trace>',
  ].join('\r\n');
  it('its first fix is at 16:00:00 UTC, and the session is of 10 Aug', async () => {
    const fix = await firstFix(new TextEncoder().encode(sa), 'grattan.sa');
    expect(new Date(fix.utcMs).toISOString()).toBe('2024-08-10T16:00:00.000Z');
    expect(localDay(fix.trace)).toEqual({ y: 2024, m: 8, d: 10 });
  });
});

describe('a session’s first fix from its date and UTC time of day (an import’s date is the local day)', () => {
  const phillipIsland = { lat: -38.5026538, lon: 145.2321883 };
  it('9:00 at Phillip Island on 15 Jan (an import) is 22:00 UTC on the 14th; a device’s date is the UTC day', () => {
    const day = { y: 2024, m: 1, d: 15 };
    const tod = 22 * 3_600_000;
    expect(new Date(sessionStartUtcMs(day, tod, phillipIsland)).toISOString()).toBe('2024-01-14T22:00:00.000Z');
    expect(new Date(sessionStartUtcMs(day, tod)).toISOString()).toBe('2024-01-15T22:00:00.000Z');
    // Where the local and UTC days agree, nothing moves.
    expect(new Date(sessionStartUtcMs(day, 3 * 3_600_000, phillipIsland)).toISOString()).toBe(
      '2024-01-15T03:00:00.000Z',
    );
  });
  it('22:30 at Interlagos on 1 Mar is 01:30 UTC on the 2nd', () => {
    const t = sessionStartUtcMs({ y: 2024, m: 3, d: 1 }, 90 * 60_000, { lat: -23.7, lon: -46.7 });
    expect(new Date(t).toISOString()).toBe('2024-03-02T01:30:00.000Z');
  });
  it('an imported morning at Phillip Island exports as GPX at its real UTC times', () => {
    const c = allocGpsColumns(3);
    c.count = 3;
    [86_399_000, 0, 1_000].forEach((tod, i) => {
      c.timeMs[i] = tod; // 23:59:59 UTC, then past midnight
      c.lat[i] = phillipIsland.lat;
      c.lon[i] = phillipIsland.lon;
    });
    const gpx = [...gpxChunks(c, { name: 'PI', date: '15012024', local: true })].join('');
    expect([...gpx.matchAll(/<time>([^<]+)<\/time>/g)].map((m) => m[1])).toEqual([
      '2024-01-14T23:59:59.000Z',
      '2024-01-15T00:00:00.000Z',
      '2024-01-15T00:00:01.000Z',
    ]);
    // One lap of it, past midnight, is still of that day.
    const lap = [...gpxChunks(c, { name: 'PI', date: '15012024', local: true }, { start: 1, end: 3 })].join('');
    expect(lap).toContain('<time>2024-01-15T00:00:00.000Z</time>');
  });
});
