import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '#core/errors.ts';
import { detectFormat } from '#core/imports/detect.ts';
import type { ReadImport } from '#core/imports/importer.ts';
import { readImport } from '#core/imports/test-support/read-import.ts';
import { checksumOk, createNmeaReader } from '#core/imports/nmea.ts';
import { nmeaSentence } from '#core/imports/test-support/writers.ts';
import { num } from '#core/formats/numbers.ts';
import { LineSplitter } from '#core/formats/lines.ts';
import { MAX_LOGGER_LAPS, TraceBuilder } from '#core/imports/trace.ts';
import { hhmmssToMs } from '#core/imports/vbo.ts';
import { parseAimDate, parseClock } from '#core/imports/aim-csv.ts';
import { trackAddictEndPoint, trackAddictFileStart, trackAddictLapLine } from '#core/imports/trackaddict-csv.ts';
import { readImportFile } from './import-worker';
import { say } from '#core/i18n/import-warnings.ts';
import { translate } from '#server/lib/i18n.ts';

// Each reader on real bytes, on hand-made edge cases, and on hostile input: what is complete is
// kept, what is not is counted, and a file that cannot be read is refused with its reason.

const enc = (s: string) => new TextEncoder().encode(s);
const read = (text: string | Uint8Array, name = 'x') => readImport([typeof text === 'string' ? enc(text) : text], name);
const trace = async (text: string | Uint8Array, name = 'x') => {
  const r: ReadImport = await read(text, name);
  if (r.kind !== 'trace') throw new Error('expected a trace');
  return r.file;
};
const pt = translate('pt-BR');
/** A refusal's mensagem as a Portuguese reader gets it. */
const words = (e: AppError) => (e.mensagem ?? []).map((ref) => say(pt, ref)).join(' ');

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const REAL_RACECHRONO = readFileSync(
  new URL('../../../../assets/import-samples/racechrono-v3-tianma-excerpt.csv', import.meta.url),
  'utf8',
);

describe('RaceChrono CSV v3 (real export excerpt)', () => {
  it('reads GPS columns from the GPS source, speed in km/h, lean marked as calculated, the repeated row dropped', async () => {
    const f = await trace(REAL_RACECHRONO, 'session.csv');
    expect(f.format).toBe('racechrono');
    expect(f.trackName).toBe('Tianma');
    expect(f.trace.count).toBe(23); // 24 rows, one of them the same fix again
    expect(f.trace.timeMs[0]).toBe(1767150797440);
    expect(f.trace.lat[0]).toBeCloseTo(31.0781678, 7);
    expect(f.trace.lon[0]).toBeCloseTo(121.1164132, 7);
    expect(f.trace.speedKmh[0]).toBeCloseTo(33.453 * 3.6, 3); // the GPS speed, not the calc or OBD one
    expect(f.trace.satellites[0]).toBe(8);
    expect(f.trace.leanDeg[0]).toBeCloseTo(-18.56046, 4);
    expect(f.leanCalculated).toBe(true);
    expect(f.warnings.map((w) => w.code)).toEqual(['leanCalculated']);
  });

  it('cut in the middle of a row: the complete rows kept, and where it stopped', async () => {
    const cut = REAL_RACECHRONO.slice(0, REAL_RACECHRONO.length - 120);
    const f = await trace(cut, 'session.csv');
    expect(f.trace.count).toBe(22);
    expect(f.warnings).toContainEqual({ code: 'truncated', line: 36 });
  });

  it('without its units and sources rows: refused with the reason', async () => {
    const head = REAL_RACECHRONO.split('\n').slice(0, 10).join('\n');
    expect(words(await refusal(read(head)))).toMatch(/linhas de nomes, unidades e fontes/);
  });
});

describe('GPX', () => {
  const gpx = (body: string, decl = '<?xml version="1.0" encoding="UTF-8"?>') =>
    `${decl}\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Autódromo José Carlos Pace</name><trkseg>${body}</trkseg></trk></gpx>`;
  const pt = (k: number) =>
    `<trkpt lat="${-23.7 + k * 1e-4}" lon="-46.69"><time>2026-11-15T13:00:${String(k).padStart(2, '0')}Z</time></trkpt>`;
  const points = Array.from({ length: 20 }, (_, k) => pt(k)).join('');

  it('windows-1252 as declared: the name decodes right, speed computed later from positions', async () => {
    const bytes = Uint8Array.from(Buffer.from(gpx(points, '<?xml version="1.0" encoding="windows-1252"?>'), 'latin1'));
    const f = await trace(bytes);
    expect(f.trackName).toBe('Autódromo José Carlos Pace');
    expect(f.trace.count).toBe(20);
    expect(Number.isNaN(f.trace.speedKmh[0]!)).toBe(true);
  });

  it('a UTF-8 byte order mark, and a namespace prefix on every element', async () => {
    const prefixed =
      '\uFEFF<?xml version="1.0"?><g:gpx xmlns:g="http://www.topografix.com/GPX/1/0"><g:trk><g:trkseg><g:trkpt lat="1" lon="2"><g:time>2026-01-01T00:00:00Z</g:time><g:speed>10</g:speed><g:sat>9</g:sat></g:trkpt></g:trkseg></g:trk></g:gpx>';
    const f = await trace(prefixed);
    expect(f.trace.speedKmh[0]).toBeCloseTo(36, 5);
    expect(f.trace.satellites[0]).toBe(9);
  });

  it('billion laughs and external entities are refused at once', async () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, k) => `<!ENTITY lol${k + 1} "${`&lol${k || ''};`.repeat(10)}">`).join('')}]><gpx>&lol9;</gpx>`;
    expect((await refusal(read(lol))).code).toBe('import/xml-dtd');
    const xxe = '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]><gpx>&x;</gpx>';
    expect((await refusal(read(xxe))).code).toBe('import/xml-dtd');
    // Declared after a megabyte of points: still refused when it arrives.
    const late = [
      enc(gpx(points).slice(0, -29)),
      enc(points.repeat(Math.ceil((1 << 20) / points.length))),
      enc('<!DOCTYPE x>'),
    ];
    expect((await refusal(readImport(late, 'x.gpx'))).code).toBe('import/xml-dtd');
  });

  // Issue 34: the hand-written XML reader checked each attribute against every earlier one of its
  // tag and read an unfinished tag again with every piece (11 s of the server's thread for this
  // file), and held a text of any length.
  const manyAttributes = gpx(points).replace(
    '</trkseg>',
    `</trkseg>${Array.from({ length: 60 }, (_, t) => `<extensions${Array.from({ length: 8000 }, (_, k) => ` a${k}="${t}"`).join('')}/>`).join('\n')}`,
  );

  /** The text in pieces of `size` bytes, counting those the reader took. */
  function* piecesOf(text: string | Iterable<string>, size: number, taken: { n: number }): Generator<Uint8Array> {
    for (const part of typeof text === 'string' ? [text] : text)
      for (let at = 0; at < part.length; at += size) {
        taken.n++;
        yield enc(part.slice(at, at + size));
      }
  }

  it('60 tags of 8,000 attributes each: 422 at the first tag’s 65th attribute, whole or in 1 KB pieces', async () => {
    expect(manyAttributes.length).toBeGreaterThan(3_500_000);
    const whole = await refusal(read(manyAttributes, 'x.gpx'));
    expect([whole.code, whole.status]).toEqual(['import/xml-limit', 422]);
    expect(words(whole)).toContain('mais de 64 atributos');
    const taken = { n: 0 };
    const e = await refusal(readImport(piecesOf(manyAttributes, 1024, taken), 'x.gpx'));
    expect([e.code, e.status]).toEqual(['import/xml-limit', 422]);
    // Refused within its first tag: about 3.4 KB of the 3.8 MB were read.
    expect(taken.n).toBeLessThanOrEqual(5);
  });

  it('a <name> of 200 MB, sent in pieces: refused once 64 KiB of it went by with no tag, the rest never read', async () => {
    const head =
      '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>';
    const megabyte = 'Interlagos '.repeat(95_325).slice(0, 1 << 20);
    function* name() {
      yield head;
      for (let k = 0; k < 200; k++) yield megabyte;
      yield `</name><trkseg>${points}</trkseg></trk></gpx>`;
    }
    const taken = { n: 0 };
    const e = await refusal(readImport(piecesOf(name(), 4096, taken), 'x.gpx'));
    expect([e.code, e.status]).toEqual(['import/xml-limit', 422]);
    expect(words(e)).toContain('sem abrir nem fechar uma tag');
    // 64 KiB of the name and at most one piece of saxes' (16 Ki characters) more: ~20 pieces of 4 KB of the 51,200.
    expect(taken.n).toBeLessThanOrEqual(22);
  });

  it('broken XML halfway: the points before it kept, and the line it stopped at', async () => {
    const f = await trace(gpx(points.slice(0, 600) + '<trkpt lat="1" <<<' + points.slice(600)));
    expect(f.trace.count).toBeGreaterThan(0);
    expect(f.trace.count).toBeLessThan(20);
    expect(f.warnings[0]).toMatchObject({ code: 'truncated' });
  });

  it('points without time, or with bad coordinates, are counted and left out', async () => {
    const f = await trace(
      gpx(points + '<trkpt lat="x" lon="1"><time>2026-11-15T13:01:00Z</time></trkpt><trkpt lat="1" lon="1"></trkpt>'),
    );
    expect(f.trace.count).toBe(20);
    expect(f.warnings).toContainEqual({ code: 'badLines', count: 2 });
  });

  it('an encoding nobody reads: 415 naming it', async () => {
    const e = await refusal(read(gpx(points, '<?xml version="1.0" encoding="x-klingon"?>')));
    expect(e.code).toBe('import/unsupported-format');
    expect(words(e)).toContain('x-klingon');
  });
});

describe('NMEA 0183', () => {
  it('the reference sentences’ checksums', () => {
    expect(checksumOk('$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A')).toBe(true);
    expect(checksumOk('$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47')).toBe(true);
    expect(checksumOk('$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B')).toBe(false);
  });

  it('position, speed in knots, satellites from the GGA of the same second; a bad checksum counted; midnight rolls into the next day', async () => {
    const rows = [
      nmeaSentence('GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,'),
      nmeaSentence('GPRMC,235959.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W'),
      '$GPRMC,000000.00,A,4807.039,N,01131.000,E,022.4,084.4,240394,003.1,W*00',
      nmeaSentence('GPRMC,000000.50,A,4807.040,N,01131.000,E,022.4,084.4,240394,003.1,W'),
    ];
    const f = await trace(rows.join('\r\n') + '\r\n');
    expect(f.trace.count).toBe(2);
    expect(f.trace.lat[0]).toBeCloseTo(48 + 7.038 / 60, 9);
    expect(f.trace.speedKmh[0]).toBeCloseTo(22.4 * 1.852, 4);
    expect(f.trace.satellites[0]).toBe(8);
    expect(f.trace.timeMs[1]! - f.trace.timeMs[0]!).toBe(1500);
    expect(f.warnings).toContainEqual({ code: 'badChecksums', count: 1 });
  });

  it('GGA only: refused, there is no date', async () => {
    const e = await refusal(read(nmeaSentence('GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,') + '\n'));
    expect(e.code).toBe('import/no-date');
  });

  it('a reader fed one byte at a time reads the same', () => {
    const text =
      [0, 1, 2]
        .map((k) => nmeaSentence(`GPRMC,12000${k}.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,,`))
        .join('\n') + '\n';
    const r = createNmeaReader();
    for (const ch of text) r.write(ch);
    expect(r.end().trace.count).toBe(3);
  });
});

describe('VBO', () => {
  const vbo = (rows: string[], extra = '') =>
    `File created on 15/11/2026 at 10:00:00\r\n\r\n[header]\r\nsatellites\r\ntime\r\n${extra}[column names]\r\nsats time lat long velocity\r\n\r\n[data]\r\n${rows.join('\r\n')}\r\n`;
  it('minutes of arc, longitude positive west, flags in the satellites, midnight rollover', async () => {
    const f = await trace(vbo(['137 235959.90 -01422.0 +02801.0 100.0', '137 000000.00 -01422.0 +02801.01 100.0']));
    expect(f.trace.lat[0]).toBeCloseTo(-1422 / 60, 9);
    expect(f.trace.lon[0]).toBeCloseTo(-2801 / 60, 9);
    expect(f.trace.satellites[0]).toBe(9); // 137 = 128 (DGPS) + 9
    expect(f.trace.timeMs[1]! - f.trace.timeMs[0]!).toBe(100);
    expect(new Date(f.trace.timeMs[0]!).toISOString()).toBe('2026-11-15T23:59:59.900Z');
  });
  it('the [laptiming] line, whichever way round its points are written', async () => {
    const rows = ['009 120000.00 -01422.0 +02801.0 100.0'];
    const latFirst = await trace(
      vbo(rows, '[laptiming]\r\nStart -01422.0 +02801.1 -01422.0 +02800.9 ¬ Start / Finish\r\n'),
    );
    const lonFirst = await trace(
      vbo(rows, '[laptiming]\r\nStart +02801.1 -01422.0 +02800.9 -01422.0 ¬ Start / Finish\r\n'),
    );
    for (const f of [latFirst, lonFirst]) {
      expect(f.fileGate!.a.lat).toBeCloseTo(-1422 / 60, 6);
      expect(f.fileGate!.a.lon).toBeCloseTo(-2801.1 / 60, 6);
    }
  });
  it('without its date line: refused, naming it', async () => {
    const e = await refusal(read(vbo(['009 120000.00 -01422.0 +02801.0 100.0']).split('\r\n').slice(1).join('\r\n')));
    expect(e.code).toBe('import/no-date');
    expect(words(e)).toContain('File created on');
  });
});

describe('AiM CSV and SpeedAngle headers', () => {
  it('AiM dates and clocks as Race Studio writes them', () => {
    expect(parseAimDate('Saturday, November 14, 2026')).toEqual([2026, 11, 14]);
    expect(parseAimDate('14/11/2026')).toEqual([2026, 11, 14]);
    expect(parseAimDate('11/14/2026')).toEqual([2026, 11, 14]);
    expect(parseAimDate('2026-11-14')).toEqual([2026, 11, 14]);
    expect(parseAimDate('ontem')).toBeUndefined();
    expect(parseClock('2:57 PM')).toBe((14 * 60 + 57) * 60_000);
    expect(parseClock('12:05:30 AM')).toBe((5 * 60 + 30) * 1000);
    expect(parseClock('25:00')).toBeUndefined();
  });
  it('SpeedAngle without its #D= start, and one cut short of its #pt=', async () => {
    const head = '; APEX Trace\n#S=INTERLAGOS=\n<trace #pt=3>\n-23.7,-46.69,0,0,0,0,50,0,9,1,0\n';
    expect((await refusal(read(head))).code).toBe('import/no-date');
    const f = await trace(
      '#D=11-15-2026 10:00:00=\n#S=INTERLAGOS=\n<trace #pt=3>\n-23.700000,-46.690000,12,0,0,0,50,0,9,1,0\n-23.700100,-46.690000,12,0,0,0,50,0,9,1,0\n-23.7002',
    );
    expect(f.trace.count).toBe(2);
    expect(f.trace.leanDeg[0]).toBe(12);
    expect(f.trackName).toBe('INTERLAGOS');
    expect(f.warnings[0]).toMatchObject({ code: 'truncated' });
    // 10:00 local at longitude -46.69 (UTC-3): 13:00 UTC.
    expect(new Date(f.trace.timeMs[0]!).toISOString()).toBe('2026-11-15T13:00:00.000Z');
  });
});

describe('TrackAddict CSV', () => {
  // The first lines of a TrackAddict 4.8 export as it writes them (quoted header, OBD columns in MPH and °F).
  const head = [
    '# RaceRender Data: TrackAddict 4.8.0 on iOS 15.5 [iPhone12,1] (Mode: 0)',
    '# End Point: 50.857952, -0.752617  @ -1.00 deg',
    '"Time","UTC Time","Lap","Predicted Lap Time","Predicted vs Best Lap","GPS_Update","GPS_Delay","Latitude","Longitude","Altitude (m)","Altitude (ft)","Speed (MPH)","Heading","Accuracy (m)","Accel X","Accel Y","Accel Z","Vehicle Speed (mph) *OBD"',
  ];
  const row = (t: number, lap: number, gps: 0 | 1, lat: number, mph = 50) =>
    `${t.toFixed(3)},${(1653983971 + t).toFixed(3)},${lap},0,0,${gps},0.000,${lat.toFixed(7)},-0.7527217,28.2,93,${mph.toFixed(1)},165.7,5.0,0.37,-0.94,-0.96,99.0`;

  it('a fix per GPS_Update row, speed from MPH (not the OBD column), the Lap changes as laps timed by their # Lap lines', async () => {
    const text = [
      ...head,
      row(0, 0, 1, 50.85),
      row(0.05, 0, 0, 50.85),
      row(1, 0, 1, 50.8502),
      '# Lap 0: 00:00:01.900',
      row(2, 1, 1, 50.8504),
      row(3, 1, 1, 50.8506),
      '# Lap 1: 00:00:02.040',
      '# Sector 1: 00:00:01.000',
      row(4, 2, 1, 50.8508),
      row(5, 2, 1, 50.851),
      row(6, 3, 1, 50.8512), // a lap without its # Lap line: timed by the rows
      row(7, 3, 1, 50.8514),
      '# Session End',
    ].join('\r\n');
    const f = await trace('\uFEFF' + text, 'goodwood.csv');
    expect(f.format).toBe('trackaddict');
    expect(f.trace.count).toBe(8);
    expect(new Date(f.trace.timeMs[0]!).toISOString()).toBe('2022-05-31T07:59:31.000Z');
    expect(f.trace.speedKmh[0]).toBeCloseTo(80.467, 3);
    expect(f.loggerLaps).toEqual([
      { seconds: 2.04, endMs: Date.UTC(2022, 4, 31, 7, 59, 35) },
      { seconds: 2, endMs: Date.UTC(2022, 4, 31, 7, 59, 37) },
    ]);
    expect(f.warnings).toEqual([]);
  });

  it('a 3.x file: no UTC Time, the start from its name in local time; refused, naming it, when the name is not its own', async () => {
    const old = [
      '# RaceRender Data: TrackAddict 3.4.2 on iOS 10.1.1 [iPhone8,4] (Mode: 0)',
      '"Time","Lap","Predicted Lap Time","Predicted vs Best Lap","GPS_Update","GPS_Delay","Latitude","Longitude","Altitude (m)","Altitude (ft)","Speed (MPH)","Heading","Accuracy (m)","Accel X","Accel Y","Accel Z"',
      '0.000,0,0,0,1,0.000,34.8708676,-118.2630034,735.5,2413,13.2,303.4,5.0,0.00,0.00,0.00',
      '0.010,0,0,0,0,0.000,34.8708676,-118.2630034,735.5,2413,13.2,303.4,5.0,0.04,0.01,-0.06',
      '1.000,0,0,0,1,0.000,34.8709676,-118.2631034,735.5,2413,14.2,303.4,5.0,0.04,0.01,-0.06',
      '',
    ].join('\n');
    const f = await trace(old, 'Log-20161120-093000 Willow Springs.csv');
    expect(f.trace.count).toBe(2);
    // 09:30 local at longitude -118.26 (UTC-8): 17:30 UTC.
    expect(new Date(f.trace.timeMs[0]!).toISOString()).toBe('2016-11-20T17:30:00.000Z');
    const e = await refusal(read(old, 'sessao.csv'));
    expect(e.code).toBe('import/no-date');
    expect(words(e)).toContain('UTC Time');
    expect(trackAddictFileStart('Log-20221399-000000.csv')).toBeUndefined();
  });

  it('its # Lap lines as the app writes them, and nothing else', () => {
    expect(trackAddictLapLine('# Lap 0: 00:02:03.202')).toEqual([0, 123.202]);
    expect(trackAddictLapLine('# Lap 12: 01:02:03.5')).toEqual([12, 3723.5]);
    expect(trackAddictLapLine('# Lap 3: 00:01:56.145')).toEqual([3, 116.145]);
    for (const no of [
      '# Sector 1: 00:00:31.000',
      '# Lap 1: 00:00:00.000',
      '# Lap 1: soon',
      '# Lap : 00:01:00.000',
      '# Pit Lane Entry',
    ])
      expect(trackAddictLapLine(no), no).toBeUndefined();
  });

  it('its line from # End Point, as the real files write it, and nothing else (issue 59)', () => {
    expect(trackAddictEndPoint('# End Point: 51.99907, 13.68830  @ -1.00 deg')).toEqual({
      lat: 51.99907,
      lon: 13.6883,
    });
    expect(trackAddictEndPoint('# End Point: 50.857952, -0.752617  @ -1.00 deg')).toEqual({
      lat: 50.857952,
      lon: -0.752617,
    });
    for (const no of [
      '# End Point: 0.00000, 0.00000  @ -1.00 deg',
      '# End Point: 95.1, 10.0',
      '# End Point:',
      '# GPS: iOS',
    ])
      expect(trackAddictEndPoint(no), no).toBeUndefined();
  });

  it('cut in the middle of a row: the complete rows kept, and where it stopped; without its header row: refused', async () => {
    const f = await trace(
      [...head, row(0, 0, 1, 50.85), row(1, 0, 1, 50.8502), row(2, 0, 1, 50.8504).slice(0, 30)].join('\n'),
    );
    expect(f.trace.count).toBe(2);
    expect(f.warnings).toContainEqual({ code: 'truncated', line: 6 });
    const e = await refusal(
      read(
        head
          .slice(0, 2)
          .concat(row(0, 0, 1, 50.85))
          .join('\n') + '\n',
      ),
    );
    expect(e.code).toBe('import/no-fix');
    expect(words(e)).toContain('TrackAddict');
  });

  it('hostile: a header of thousands of columns is refused; so is a Lap column that changes on every row past MAX_LOGGER_LAPS', async () => {
    const wide = [
      '# RaceRender Data: TrackAddict 4.8.0',
      `"Time","UTC Time","Latitude","Longitude",${Array.from({ length: 600 }, (_, k) => `"c${k}"`).join(',')}`,
      '',
    ].join('\n');
    expect(words(await refusal(read(wide)))).toContain('colunas');
    const rows = [...head];
    for (let k = 0; k < MAX_LOGGER_LAPS; k++) rows.push(row(k, k, 1, 50.85 + k * 1e-5));
    expect((await trace(rows.join('\n') + '\n')).loggerLaps.length).toBe(MAX_LOGGER_LAPS - 2); // lap 0 (from the start) is no lap
    for (let k = MAX_LOGGER_LAPS; k < MAX_LOGGER_LAPS + 500; k++) rows.push(row(k, k, 1, 50.85 + k * 1e-5));
    expect(words(await refusal(read(rows.join('\n') + '\n')))).toContain('voltas próprias');
  });
});

describe('what every reader shares', () => {
  it('fixes going backwards, repeated, or jumping impossibly far are dropped and counted; gaps counted', () => {
    const b = new TraceBuilder();
    const at = (s: number, lat = -23.7) => b.add({ timeMs: Date.UTC(2026, 10, 15) + s * 1000, lat, lon: -46.69 });
    at(0);
    at(1);
    at(1); // repeated
    at(0.5); // backwards
    at(2, -22.7); // 111 km in a second
    at(3);
    at(20); // a gap
    at(Number.NaN);
    at(21, 95);
    expect(b.count).toBe(4);
    expect(b.counts).toMatchObject({ duplicates: 1, backwards: 1, jumps: 1, gaps: 1, badLines: 2 });
  });

  it('one time read an hour ahead does not drop the rest of the file: that fix goes, the others stay', () => {
    const b = new TraceBuilder();
    const at = (s: number) => b.add({ timeMs: Date.UTC(2026, 10, 15) + s * 1000, lat: -23.7 + s * 1e-5, lon: -46.69 });
    for (let s = 0; s < 100; s++) at(s === 50 ? 50 + 3600 : s);
    expect(b.count).toBe(99);
    expect(b.counts.backwards).toBe(1);
  });

  it('a line of 10 MB without a break is refused whole, never held', () => {
    const seen: number[] = [];
    let bad = 0;
    const s = new LineSplitter(
      (_l, n) => seen.push(n),
      () => bad++,
    );
    s.write('ok\n');
    for (let k = 0; k < 10; k++) s.write('x'.repeat(1 << 20));
    s.write('\nok\n');
    expect(seen).toEqual([1, 3]);
    expect(bad).toBe(1);
  });

  it('the format comes from the content, whatever the name', () => {
    expect(detectFormat('<?xml version="1.0"?>\n<gpx version="1.0">')).toBe('gpx');
    expect(detectFormat(REAL_RACECHRONO)).toBe('racechrono');
    expect(detectFormat('File created on 15/11/2026 at 10:00:00\r\n')).toBe('vbo');
    expect(detectFormat('"Format","AiM CSV File"\n')).toBe('aim');
    expect(detectFormat('$GNRMC,120000.00,A,\n')).toBe('nmea');
    expect(detectFormat('; APEX Trace $Revision: 3.0.1 $\n#D=07-19-2022 17:30:14=\n')).toBe('speedangle');
    expect(detectFormat('-23.701234,-46.697654|187.3|12|140151.100|5|0|A|-42.5|-41.8|1234\n')).toBe('gps.six');
    expect(detectFormat('0132456|A|92.456|23456,1,0,0,23.456,1034|\n')).toBe('lap.six');
    expect(
      detectFormat('\uFEFF# RaceRender Data: TrackAddict 4.3.5 on Android 9 [samsung SM-N960F] (Mode: 0)\r\n'),
    ).toBe('trackaddict');
    expect(
      detectFormat(
        '"Time","UTC Time","Lap","Predicted Lap Time","Predicted vs Best Lap","GPS_Update","GPS_Delay","Latitude"\n',
      ),
    ).toBe('trackaddict');
    expect(detectFormat('Time,Latitude,Longitude,Speed (KPH),Lap,Lean Angle,Satellites,Heat\r\n')).toBeUndefined(); // Voltas's own RaceRender export: no day in it
    expect(detectFormat('PK\u0003\u0004')).toBeUndefined();
    expect(detectFormat('<kml></kml>')).toBeUndefined();
  });

  it('an empty file, and one with no fix at all, are refused with the reason', async () => {
    expect((await refusal(readImport([], 'x'))).code).toBe('import/no-fix');
    const e = await refusal(
      read(
        'File created on 15/11/2026 at 10:00:00\n[column names]\nsats time lat long velocity\n[data]\nbad row\nworse\n',
      ),
    );
    expect(e.code).toBe('import/no-fix');
    expect(words(e)).toContain('2 linhas ilegíveis');
  });
});

describe('numbers and times as loggers write them', () => {
  it('num reads a sign, digits, decimals and an exponent, blanks around; refuses anything else', () => {
    const read: [string, number][] = [
      ['1', 1],
      ['0', 0],
      ['0.5', 0.5],
      ['0e5', 0],
      ['-1', -1],
      ['+1.5', 1.5],
      ['.5', 0.5],
      ['5.', 5],
      [' 42 ', 42],
      ['1e5', 1e5],
      ['1E-3', 0.001],
      ['\t3.25\r', 3.25],
      ['-23.7012345', -23.7012345],
      ['9007199254740993', 9007199254740992],
    ];
    for (const [s, v] of read) expect(num(s), JSON.stringify(s)).toBe(v);
    expect(Object.is(num('-0'), -0)).toBe(true);
    for (const s of [
      '',
      ' ',
      '-',
      '.',
      'e5',
      '1e',
      '1e+',
      '0x1A',
      '0b1',
      '0O7',
      ' 0X1f ',
      '1e400',
      'Infinity',
      'NaN',
      '1,5',
      '1.2.3',
      '--1',
      '12a',
      '1 2',
    ])
      expect(num(s), JSON.stringify(s)).toBeUndefined();
    expect(num(undefined)).toBeUndefined();
  });

  it('hhmmssToMs reads hhmmss[.fraction] of a day, to the ms; refuses anything else', () => {
    const read: [string, number][] = [
      ['000000', 0],
      ['235959.99', 86_399_990],
      ['120000.5', 43_200_500],
      ['120060.9', 43_260_900],
      ['120000.123456', 43_200_123],
    ];
    for (const [s, v] of read) expect(hhmmssToMs(s), s).toBe(v);
    for (const s of [
      '240000',
      '126000',
      '120061',
      '12000',
      '1200000',
      '120000.',
      '12a000',
      '-12000',
      `120000.${'1'.repeat(16)}`,
    ])
      expect(hhmmssToMs(s), s).toBeUndefined();
  });
});

describe('hostile input that grows with its lines, or with its inflation', () => {
  const sa = (timerLines: number) =>
    [
      '#D=11-15-2026 10:00:00=',
      '<timer #unit=KM/h>',
      ...Array.from(
        { length: timerLines },
        (_, k) => `#1,${Math.floor(k / 60)}:${String(k % 60).padStart(2, '0')}.000`,
      ),
      '</timer>',
      '<trace #pt=1>',
      '-23.7,-46.6,0,0,0,0,50,0,9,1,0',
      '',
    ].join('\n');

  it('a SpeedAngle <timer> of 5,001 laps is refused, one of 5,000 read (the logger’s laps are kept per line)', async () => {
    expect((await refusal(read(sa(5002), 'a.sa'))).code).toBe('import/too-complex');
    expect((await trace(sa(5001), 'a.sa')).loggerLaps.length).toBe(5000);
  });

  it('a RaceChrono lap number changing on every row is refused past 5,000 laps', async () => {
    const head = REAL_RACECHRONO.split('\n').slice(0, 12);
    const names = head.find((l) => l.includes('timestamp'))!.split(',');
    const row = (k: number) =>
      names
        .map((n) =>
          n === 'timestamp'
            ? String(1767150797 + k / 10)
            : n === 'lap_number'
              ? String(k)
              : n === 'latitude'
                ? '31.0781678'
                : n === 'longitude'
                  ? '121.1164132'
                  : '1',
        )
        .join(',');
    const rows = Array.from({ length: 5100 }, (_, k) => row(k));
    const e = await refusal(
      read(
        [
          ...REAL_RACECHRONO.split('\n').slice(
            0,
            REAL_RACECHRONO.split('\n').indexOf(head.find((l) => l.includes('timestamp'))!) + 3,
          ),
          ...rows,
          '',
        ].join('\n'),
      ),
    );
    expect(e.code).toBe('import/too-complex');
  });

  it('an AiM header that never ends is refused past 500 lines, not held line by line', async () => {
    const lines = ['"Format","AiM CSV File"', ...Array.from({ length: 600 }, (_, k) => `"Campo ${k}","valor"`), ''];
    const e = await refusal(read(lines.join('\n')));
    expect(e.code).toBe('import/too-complex');
    expect(words(e)).toContain('linhas de cabeçalho');
  });

  describe('a received .gz (read as the import worker reads it)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-gz-'));
    const job = (bytes: Buffer, limits = { maxBytes: 1 << 20, inflateRatio: 20 }) => {
      const file = path.join(dir, `f${Math.random()}`);
      writeFileSync(file, bytes);
      return {
        task: 'read' as const,
        file,
        filename: 'a.nmea.gz',
        size: bytes.length,
        maxInflatedBytes: Math.min(limits.maxBytes, limits.inflateRatio * bytes.length),
        ...limits,
      };
    };
    const nmea = nmeaSentence('GPRMC,120000.00,A,2342.000,S,04641.000,W,10.0,90.0,151126,,') + '\n';

    it('inflating past 20 times its size: 413 there (a bomb of blanks is ~1000 times)', async () => {
      const e = await refusal(
        readImportFile(job(gzipSync(Buffer.concat([Buffer.from(nmea), Buffer.alloc(500_000, 0x20)])))),
      );
      expect(e.code).toBe('import/too-large');
      expect(words(e)).toContain('20 vezes');
    });

    it('past the import limit, whatever the ratio: 413', async () => {
      const e = await refusal(
        readImportFile(
          job(gzipSync(Buffer.concat([Buffer.from(nmea), Buffer.alloc(3 << 20, 0x20)])), {
            maxBytes: 1 << 20,
            inflateRatio: 1e6,
          }),
        ),
      );
      expect(e.code).toBe('import/too-large');
    });

    it('damaged, or cut short: 422 import/corrupt-gzip', async () => {
      const good = gzipSync(Buffer.from(nmea.repeat(2000)));
      const flipped = Buffer.from(good);
      for (let i = 100; i < 140; i++) flipped[i] = flipped[i]! ^ 0x5a;
      const generous = { maxBytes: 1 << 20, inflateRatio: 1e6 }; // the data's own fault, not its ratio
      expect((await refusal(readImportFile(job(flipped, generous)))).code).toBe('import/corrupt-gzip');
      expect((await refusal(readImportFile(job(good.subarray(0, good.length >> 1), generous)))).code).toBe(
        'import/corrupt-gzip',
      );
      rmSync(dir, { recursive: true, force: true });
    });
  });
});
