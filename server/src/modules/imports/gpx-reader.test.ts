import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '../../../../core/formats/gps-six';
import { trimGpsColumns } from '../../../../core/formats/gps-columns';
import { createGpxReader, isoMs, isoMsIn } from '../../../../core/imports/gpx';
import { createSaxesGpxReader } from '../../../../core/imports/test-support/gpx-saxes';
import { writeGpx } from '../../../../core/imports/test-support/writers';
import type { FormatReader, ImportedFile } from '../../../../core/imports/trace';
import { generateSession } from '../../../../core/sim/session-generator';
import { loadTracks } from '../../lib/track-files';

// The import's own XML reader (xml-scan.ts) against saxes, a general XML parser driving the same
// point events: the same points, counts, name and stopping line on every file below.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const c = parseGpsSix(generateSession(interlagos, { seed: 3, heats: 1, lapsPerHeat: [2, 2] }).gpsSix).value;
const few = trimGpsColumns({ ...c, count: 300 });
const day = { y: 2026, m: 11, d: 15 };

type Outcome = { refused: string } | (Omit<ImportedFile, 'trace'> & { trace: Record<string, number[]> });

function readWith(make: () => FormatReader, text: string, piece: number): Outcome {
  const reader = make();
  try {
    for (let at = 0; at < text.length; at += piece) reader.write(text.slice(at, at + piece));
    const f = reader.end();
    const { count, ...columns } = f.trace;
    return { ...f, trace: { count: [count], ...Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)])) } };
  } catch (e) {
    return { refused: (e as { code?: string }).code ?? String(e) };
  }
}

function expectSame(text: string, pieces = [1 << 20, 65_536, 7]) {
  const oracle = readWith(createSaxesGpxReader, text, 1 << 20);
  for (const piece of pieces) expect(readWith(createGpxReader, text, piece), `pieces of ${piece}: ${text.slice(0, 400)}`).toEqual(oracle);
  return oracle;
}

const wrap = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>Pista</name><trkseg>\n${body}\n</trkseg></trk></gpx>\n`;
const pt = (k: number, inner = '') =>
  `<trkpt lat="${-23.7 + k * 1e-4}" lon="-46.69"><time>2026-11-15T13:00:${String(k).padStart(2, '0')}Z</time>${inner}</trkpt>`;

describe('the GPX reader against saxes', () => {
  it('GPX 1.1 with Garmin extensions and GPX 1.0 with speed, read in pieces of any size', () => {
    const v11 = expectSame(writeGpx(few, day), [1 << 20, 65_536, 333, 7, 1]);
    expect('trace' in v11 && v11.trace.count![0]).toBe(300);
    const v10 = expectSame(writeGpx(few, day, { version: '1.0', name: 'Interlagos &amp; cia' }));
    expect('trackName' in v10 && v10.trackName).toBe('Interlagos & cia');
  });

  it('what real files hold: comments, CDATA, references, single quotes, self-closing points, prefixes, a BOM, blanks inside tags', () => {
    const body = [
      pt(0, '<!-- a comment <trkpt> inside -->'),
      `<trkpt lat='-23.7001' lon = "-46.69" ><time><![CDATA[2026-11-15T13:00:01Z]]></time><speed>1&#48;.5</speed></trkpt>`,
      '<trkpt lat="-23.7002" lon="-46.69"/>',
      '<?custom instruction?>',
      `<trkpt\n  lat="-23.7003"\n  lon="-46.69"\n><g:time xmlns:g="x">2026-11-15T13:00:03Z</g:time><extensions><ns3:TrackPointExtension><ns3:speed>12</ns3:speed></ns3:TrackPointExtension></extensions></trkpt>`,
      `<trkpt lat="-23.7004" lon="-46.69" desc="a &gt; b"><time>2026-11-15T13:00:04Z</time><sat>7</sat><lean>-31.5</lean></trkpt>`,
    ].join('\n');
    const f = expectSame(`\uFEFF${wrap(body)}`, [1 << 20, 5, 1]);
    expect('trace' in f && f.trace.count![0]).toBe(4);
    expect('warnings' in f && f.warnings).toEqual([{ code: 'badLines', count: 1 }]);
  });

  it('a file cut anywhere: the same points kept and the same line given', () => {
    const text = writeGpx(trimGpsColumns({ ...c, count: 40 }), day);
    for (let at = 0; at < text.length; at += 13) expectSame(text.slice(0, at), [65_536, 7]);
  });

  it('broken XML: unclosed or crossed tags, bad attributes, text outside the root, unknown references, a second root', () => {
    const points = Array.from({ length: 12 }, (_, k) => pt(k)).join('\n');
    const breakages = [
      '<trkpt lat="1" <<<',
      '<trkpt lat="1" lon="2"><time>x</trkpt>',
      '<trkpt lat=1 lon="2">',
      '<trkpt lat="1" lat="1">',
      '<trkpt lat="1"lon="2">',
      '</gpx>',
      '<time>&nbsp;</time>',
      '<1abc/>',
      '<!ELEMENT x>',
    ];
    for (const broken of breakages) {
      const f = expectSame(wrap(points.replace('\n', `\n${broken}\n`)));
      expect('warnings' in f && f.warnings[0], broken).toMatchObject({ code: 'truncated', line: 5 });
    }
    expectSame(`${wrap(points)}trailing text`);
    expectSame(`${wrap(points)}<gpx></gpx>`);
  });

  it('nesting past 64 levels stops the reading there, the points before it kept (a file of opening tags holds no memory)', () => {
    const points = Array.from({ length: 12 }, (_, k) => pt(k)).join('\n');
    const deep = `${'<x>'.repeat(100_000)}`;
    const reader = createGpxReader();
    const text = wrap(`${points}\n${deep}`);
    for (let at = 0; at < text.length; at += 65_536) reader.write(text.slice(at, at + 65_536));
    const f = reader.end();
    expect(f.trace.count).toBe(12);
    expect(f.warnings[0]).toMatchObject({ code: 'truncated', line: 16 });
  });

  it('a DTD is refused by both, before anything is read', () => {
    expect(expectSame(`<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x "y">]><gpx>&x;</gpx>`)).toEqual({ refused: 'import/xml-dtd' });
  });

  it('GPX times read digit by digit as Date.parse reads them', () => {
    const times = [
      '2026-11-15T13:00:01Z',
      '2026-11-15T13:00:01.5Z',
      '2026-11-15T13:00:01.04Z',
      '2026-11-15T13:00:01.123Z',
      '2026-11-15T13:00:01.1234Z',
      ' 2026-11-15T23:59:59.999Z\n',
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-15T24:00:00Z',
      '2026-11-15T13:00:01+02:00',
      '2026-11-15T13:00:01',
      '2026-11-15 13:00:01Z',
      '2026-11-15T13:0a:01Z',
      '2026-11-15T13:00:01.Z',
      '0000-01-01T00:00:00Z',
      '',
      'ontem',
    ];
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    for (const y of [1000, 1600, 1900, 1970, 2000, 2024, 2100, 2400, 9999])
      times.push(`${y}-02-29T12:00:00Z`, `${y}-02-28T12:00:00.5Z`, `${y}-12-31T23:59:59.99Z`);
    let x = 17;
    const next = (n: number) => (x = (x * 1103515245 + 12345) % 2147483648) % n;
    for (let k = 0; k < 20_000; k++) {
      const fraction = ['', '.5', '.25', '.125', '.1234'][next(5)];
      times.push(
        `${pad(1000 + next(9000), 4)}-${pad(1 + next(12), 2)}-${pad(1 + next(31), 2)}T${pad(next(24), 2)}:${pad(next(60), 2)}:${pad(next(60), 2)}${fraction}Z`,
      );
    }
    for (const t of times) {
      expect(isoMs(t), JSON.stringify(t)).toEqual(Date.parse(t.trim()));
      expect(isoMsIn(`<time>${t}</time>`, 6, 6 + t.length), JSON.stringify(t)).toEqual(Date.parse(t.trim()));
    }
  });
});
