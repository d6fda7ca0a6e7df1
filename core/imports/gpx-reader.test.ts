import { describe, expect, it } from 'vitest';
import { parseGpsSix } from '../formats/gps-six';
import { trimGpsColumns } from '../formats/gps-columns';
import {
  createGpxReader,
  FIX_STRETCH_CHARS,
  MAX_ATTRIBUTE_CHARS,
  MAX_ATTRIBUTES,
  MAX_RUN_CHARS,
  MAX_TEXT_CHARS,
  MIN_FIXES_PER_STRETCH,
} from './gpx';
import { epochTimes, writeGpx } from './test-support/writers';
import type { ImportedFile } from './trace';
import { generateSession } from '../sim/session-generator';
import { loadTracks } from '../test-support/track-files';
import type { MessageRef } from '../errors';
import { say } from '../i18n/import-warnings';
import { intlFor, translator } from '../i18n/intl';

// The GPX reader (saxes): the points, counts, name and stopping line of each file, the same
// whatever pieces the text arrives in; and its bounds on what a hostile file can make it hold.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const c = parseGpsSix(generateSession(interlagos, { seed: 3, heats: 1, lapsPerHeat: [2, 2] }).gpsSix).value;
const few = trimGpsColumns({ ...c, count: 300 });
const day = { y: 2026, m: 11, d: 15 };

type Outcome =
  { refused: string; mensagem?: string } | (Omit<ImportedFile, 'trace'> & { trace: Record<string, number[]> });

function read(text: string, piece: number): Outcome {
  const reader = createGpxReader();
  try {
    for (let at = 0; at < text.length; at += piece) reader.write(text.slice(at, at + piece));
    const f = reader.end();
    const { count, ...columns } = f.trace;
    return {
      ...f,
      trace: {
        count: [count],
        ...Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)])),
      },
    };
  } catch (e) {
    const { code, mensagem } = e as { code?: string; mensagem?: readonly MessageRef[] };
    const words = mensagem?.map((ref) => say(translator(intlFor('pt-BR')), ref)).join(' ');
    return { refused: code ?? String(e), ...(words ? { mensagem: words } : {}) };
  }
}

/** The outcome of `text`, checked to be the same in pieces of every size given. */
function readInPieces(text: string, pieces = [1 << 20, 65_536, 7]): Outcome {
  const whole = read(text, Math.max(1, text.length));
  for (const piece of pieces) expect(read(text, piece), `pieces of ${piece}: ${text.slice(0, 400)}`).toEqual(whole);
  return whole;
}

const fixes = (o: Outcome) => {
  if ('refused' in o) throw new Error(`refused: ${o.refused}`);
  return o;
};

const wrap = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>Pista</name><trkseg>\n${body}\n</trkseg></trk></gpx>\n`;
const pt = (k: number, inner = '') =>
  `<trkpt lat="${-23.7 + k * 1e-4}" lon="-46.69"><time>2026-11-15T13:00:${String(k).padStart(2, '0')}Z</time>${inner}</trkpt>`;

describe('the GPX reader', () => {
  it('GPX 1.1 with Garmin extensions and GPX 1.0 with speed, read in pieces of any size', () => {
    const times = epochTimes(few, day);
    for (const version of ['1.1', '1.0'] as const) {
      const f = fixes(
        readInPieces(writeGpx(few, day, { version, name: 'Interlagos &amp; cia' }), [1 << 20, 65_536, 333, 7, 1]),
      );
      expect(f.trackName).toBe('Interlagos & cia');
      expect(f.warnings).toEqual([]);
      expect(f.trace.count).toEqual([300]);
      expect(f.trace.timeMs).toEqual(times);
      expect(f.trace.lat).toEqual(Array.from(few.lat));
      expect(f.trace.lon).toEqual(Array.from(few.lon));
      expect(f.trace.satellites).toEqual(Array.from(few.satellites));
      f.trace.speedKmh!.forEach((v, i) => expect(v).toBeCloseTo(few.speed[i]!, 1)); // written in m/s to 3 decimals
    }
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
    const f = fixes(readInPieces(`\uFEFF${wrap(body)}`, [1 << 20, 5, 1]));
    expect(f.trackName).toBe('Pista');
    expect(f.trace.count).toEqual([4]);
    expect(f.warnings).toEqual([{ code: 'badLines', count: 1 }]);
    expect(f.trace.lat).toEqual([-23.7, -23.7001, -23.7003, -23.7004]);
    expect(f.trace.speedKmh![1]).toBeCloseTo(10.5 * 3.6, 9); // &#48; is a 0
    expect(f.trace.speedKmh![2]).toBeCloseTo(12 * 3.6, 9); // under a prefix in the extensions
    expect([f.trace.satellites![3], f.trace.leanDeg![3]]).toEqual([7, -31.5]);
  });

  it('a file cut anywhere: the points before the cut kept, and where it stopped', () => {
    const text = writeGpx(trimGpsColumns({ ...c, count: 40 }), day);
    const whole = fixes(read(text, text.length));
    for (let at = 0; at < text.length; at += 13) {
      const f = readInPieces(text.slice(0, at), [65_536, 7]);
      if ('refused' in f) {
        expect(f.refused).toBe('import/no-fix'); // cut before the first point
        continue;
      }
      const n = f.trace.count![0]!;
      expect(f.trace.timeMs).toEqual(whole.trace.timeMs!.slice(0, n));
      if (at < text.indexOf('</gpx>') + 6) expect(f.warnings[0]).toMatchObject({ code: 'truncated' });
    }
  }, 60_000); // hundreds of reads in 7-byte pieces: seconds, and longer on a busy machine

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
      const f = fixes(readInPieces(wrap(points.replace('\n', `\n${broken}\n`))));
      expect(f.warnings[0], broken).toMatchObject({ code: 'truncated', line: 5 });
      expect(f.trace.count, broken).toEqual([1]);
    }
    for (const after of ['trailing text', '<gpx></gpx>']) {
      const f = fixes(readInPieces(`${wrap(points)}${after}`));
      expect(f.trace.count).toEqual([12]);
      expect(f.warnings[0]).toMatchObject({ code: 'truncated', line: 17 });
    }
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

  it('a DTD is refused before anything is read, wherever it is cut', () => {
    expect(
      readInPieces(`<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x "y">]><gpx>&x;</gpx>`, [3, 7, 1]),
    ).toMatchObject({ refused: 'import/xml-dtd' });
  });
});

describe('what a GPX can make the reader hold is bounded', () => {
  const points = Array.from({ length: 12 }, (_, k) => pt(k)).join('\n');
  const attributes = (n: number) => Array.from({ length: n }, (_, k) => ` a${k}="${k}"`).join('');
  const refused = (o: Outcome) => ('refused' in o ? o : { refused: undefined, mensagem: undefined });

  it(`a tag with up to ${MAX_ATTRIBUTES} attributes is read; one more is refused with 422, naming what a GPX holds`, () => {
    expect(fixes(readInPieces(wrap(`${points}\n<extensions${attributes(MAX_ATTRIBUTES)}/>`))).trace.count).toEqual([
      12,
    ]);
    const r = refused(readInPieces(wrap(`${points}\n<extensions${attributes(MAX_ATTRIBUTES + 1)}/>`)));
    expect(r.refused).toBe('import/xml-limit');
    expect(r.mensagem).toContain(`linha 16) tem mais de ${MAX_ATTRIBUTES} atributos`);
  });

  it(`an attribute value of up to ${MAX_ATTRIBUTE_CHARS} characters is read; a longer one is refused`, () => {
    expect(
      fixes(readInPieces(wrap(`${points}\n<extensions a="${'x'.repeat(MAX_ATTRIBUTE_CHARS)}"/>`))).trace.count,
    ).toEqual([12]);
    const r = refused(readInPieces(wrap(`${points}\n<extensions a="${'x'.repeat(MAX_ATTRIBUTE_CHARS + 1)}"/>`)));
    expect(r.refused).toBe('import/xml-limit');
    expect(r.mensagem).toContain(`O atributo a (linha 16) passa de ${MAX_ATTRIBUTE_CHARS} caracteres`);
  });

  it('the text kept of an element is capped: a long name keeps its start, an overlong time is no time, an unread text is passed over', () => {
    const name = 'Autódromo '.repeat(5_000); // 50,000 characters
    const f = fixes(
      readInPieces(
        wrap(points).replace('<name>Pista</name>', `<name>${name}</name><desc>${'d'.repeat(60_000)}</desc>`),
      ),
    );
    expect(f.trackName).toBe(name.slice(0, 64).trim());
    expect(f.trace.count).toEqual([12]);
    const padded = (blanks: number) =>
      wrap(
        `${points}\n<trkpt lat="-23.6988" lon="-46.69"><time>${' '.repeat(blanks)}2026-11-15T13:00:12Z</time></trkpt>`,
      );
    expect(fixes(readInPieces(padded(MAX_TEXT_CHARS.time - 20))).trace.count).toEqual([13]);
    const cut = fixes(readInPieces(padded(MAX_TEXT_CHARS.time)));
    expect(cut.trace.count).toEqual([12]);
    expect(cut.warnings).toEqual([{ code: 'badLines', count: 1 }]);
  });

  it(`more than ${MAX_RUN_CHARS} characters with no tag (a text, a comment, an attribute being read) are refused`, () => {
    const long = 'x'.repeat(MAX_RUN_CHARS + 1);
    for (const stretch of [
      `<desc>${long}</desc>`,
      `<!--${long}-->`,
      `<![CDATA[${long}]]>`,
      `<extensions a="1"${' '.repeat(MAX_RUN_CHARS)}/>`,
    ]) {
      const r = refused(readInPieces(wrap(`${points}\n${stretch}`), [65_536, 1000]));
      expect(r.refused, stretch.slice(0, 20)).toBe('import/xml-limit');
      expect(r.mensagem).toContain(`passa de ${MAX_RUN_CHARS} caracteres sem abrir nem fechar uma tag`);
    }
  });

  it(`a file that is mostly markup, fewer than ${MIN_FIXES_PER_STRETCH} fixes in a stretch of ${FIX_STRETCH_CHARS} characters, is refused at that stretch (issue 58)`, () => {
    const mb = FIX_STRETCH_CHARS;
    const bombs = {
      // The attack: empty elements, inflated from a .gz (255 MiB of them took a worker ~12 s to read to the end).
      'empty elements': wrap(`${points}\n${'<a/>'.repeat(mb / 2)}`),
      // Points, but none with a position and a time: no fix.
      'points without a time': wrap('<trkpt lat="-23.7" lon="-46.69"/>'.repeat(mb / 16)),
      'points without a position': wrap(`<trkpt><time>2026-11-15T13:00:00Z</time></trkpt>`.repeat(mb / 24)),
      // The zeros of a logger with no fix yet.
      'zero positions': wrap(
        pt(0)
          .replace(/lat="[^"]*" lon="[^"]*"/, 'lat="0" lon="0"')
          .repeat(mb / 32),
      ),
      // A fix now and then among the markup.
      'a fix every 32 KiB': wrap(
        Array.from({ length: 100 }, (_, k) => `${pt(k % 60)}${'<a/>'.repeat(8192)}`).join('\n'),
      ),
    };
    for (const [what, text] of Object.entries(bombs)) {
      const r = refused(readInPieces(text, [65_536, 16_384]));
      expect(r.refused, what).toBe('import/too-few-fixes');
      expect(r.mensagem, what).toMatch(
        /^Em 1 MB do GPX \(até a linha \d+\) há só \d+ pontos de trajeto com posição e hora/,
      );
      expect(r.mensagem).toContain(`ao menos ${MIN_FIXES_PER_STRETCH} a cada 1 MB`);
    }
  });

  it('a recording of any length reads whole: its stretches hold thousands of fixes, not the few the bound asks', () => {
    // 16,500 fixes with their Garmin extensions: 3.4 MB, several stretches of FIX_STRETCH_CHARS.
    const long = generateSession(interlagos, { seed: 5, heats: 1, lapsPerHeat: [3, 3], hz: 25 });
    const columns = parseGpsSix(long.gpsSix).value;
    const text = writeGpx(columns, day);
    expect(text.length).toBeGreaterThan(3 * FIX_STRETCH_CHARS);
    const f = fixes(readInPieces(text, [65_536]));
    expect(f.trace.count).toEqual([columns.count]);
    // Fewer fixes than the bound in a last, short stretch (the file's end) is no refusal either.
    expect(fixes(readInPieces(wrap(points))).trace.count).toEqual([12]);
  });

  it('64 levels of nesting are read; the 65th stops the reading there, the points before it kept', () => {
    // gpx, trk and trkseg are three levels.
    const nested = (levels: number) => wrap(`${points}\n${'<x>'.repeat(levels - 3)}${'</x>'.repeat(levels - 3)}`);
    expect(fixes(readInPieces(nested(64))).warnings).toEqual([]);
    const f = fixes(readInPieces(nested(65)));
    expect(f.trace.count).toEqual([12]);
    expect(f.warnings).toEqual([{ code: 'truncated', line: 16 }]);
  });
});
