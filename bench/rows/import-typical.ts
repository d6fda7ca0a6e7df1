/**
 * A typical rider file imported end to end (rows `import_typical_csv|vbo|gpx_vs_parse`): a
 * 30-minute session at 25 Hz at Interlagos, written as RaceChrono CSV, VBO and GPX, POSTed to the
 * imports API of the running server until its laps answer (the session readable), against the
 * library's bare parse of the same text in this process (uDSV for CSV and VBO, saxes for GPX).
 * Alternated run by run, so a slow spell of the shared machine slows both.
 */
import { inferSchema, initParser } from 'udsv';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { gpsSixBytes } from '#core/formats/gps-six-write.ts';
import { writeGpx, writeRaceChrono, writeVbo, type Day } from '#core/imports/test-support/writers.ts';
import { generateSession, type TrackGeometry } from '#core/sim/session-generator.ts';
import { firstSamples, post, raceChronoRows, saxRead, vboAsCsv } from '../imports';

/** 30 minutes at 25 Hz. */
const SAMPLES = 30 * 60 * 25;
export const TYPICAL_IMPORT_GOAL = 4;

export interface TypicalImport {
  key: 'import_typical_csv_vs_parse' | 'import_typical_vbo_vs_parse' | 'import_typical_gpx_vs_parse';
  label: string;
  mb: number;
  importMs: number;
  parseMs: number;
  /** The session's own gps.six (45,000 lines) written alone in this process: a part of every import, whatever the format. */
  writeMs: number;
  parser: string;
  ratio: number;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function timed(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** `runs` imports of each format (each a day of its own, so none is a repeat), after one warm-up. */
export async function benchTypicalImports(
  base: string,
  cookie: string,
  track: TrackGeometry,
  runs: number,
): Promise<TypicalImport[]> {
  const generated = generateSession(track, { seed: 21, hz: 25, heats: 1, lapsPerHeat: [20, 20] });
  const session = firstSamples(parseGpsSix(generated.gpsSix).value, SAMPLES);
  if (session.count < SAMPLES) throw new Error(`the generated session has ${session.count} samples, not ${SAMPLES}`);
  const udsv = (csv: string) => {
    const parser = initParser(inferSchema(csv));
    return () => parser.typedCols(csv);
  };
  const formats: {
    key: TypicalImport['key'];
    label: string;
    file: string;
    write: (day: Day) => string;
    parser: string;
    parse: (text: string) => () => unknown;
  }[] = [
    {
      key: 'import_typical_csv_vs_parse',
      label: 'RaceChrono CSV',
      file: 'typical.csv',
      write: (day) => writeRaceChrono(session, day),
      parser: 'uDSV',
      parse: (text) => udsv(raceChronoRows(text)),
    },
    {
      key: 'import_typical_vbo_vs_parse',
      label: 'VBO',
      file: 'typical.vbo',
      write: (day) => writeVbo(session, day),
      parser: 'uDSV',
      parse: (text) => udsv(vboAsCsv(text)),
    },
    {
      key: 'import_typical_gpx_vs_parse',
      label: 'GPX',
      file: 'typical.gpx',
      write: (day) => writeGpx(session, day),
      parser: 'saxes',
      parse: (text) => {
        const bytes = Buffer.from(text);
        return () => saxRead(bytes);
      },
    },
  ];
  const out: TypicalImport[] = [];
  for (const [f, format] of formats.entries()) {
    const imports: number[] = [];
    const parses: number[] = [];
    const writes: number[] = [];
    let mb = 0;
    for (let r = 0; r <= runs; r++) {
      // A day of its own for each run and format (2025: clear of the bench's other sessions).
      const text = format.write({ y: 2025, m: 1 + f, d: 1 + r });
      const bytes = Buffer.from(text);
      mb = bytes.length / 1e6;
      const parse = format.parse(text);
      const parseMs = timed(parse);
      const writeMs = timed(() => gpsSixBytes(session));
      const t = performance.now();
      const res = await post(base, `/api/imports?filename=${format.file}`, cookie, bytes);
      if (res.status !== 201)
        throw new Error(`typical import of ${format.file}: ${res.status} ${res.body.slice(0, 300)}`);
      const { session: s } = JSON.parse(res.body) as { session: { device: string; track: string; date: string } };
      const laps = await fetch(
        `${base}/api/devices/${s.device}/sessions/${encodeURIComponent(s.track)}/${s.date}/laps`,
        { headers: { cookie } },
      );
      await laps.arrayBuffer();
      if (!laps.ok) throw new Error(`the imported ${format.file} is not readable: ${laps.status}`);
      const importMs = performance.now() - t;
      if (r === 0) continue; // the warm-up: code compiled, caches filled
      imports.push(importMs);
      parses.push(parseMs);
      writes.push(writeMs);
    }
    const importMs = median(imports);
    const parseMs = median(parses);
    out.push({
      key: format.key,
      label: format.label,
      parser: format.parser,
      mb,
      importMs,
      parseMs,
      writeMs: median(writes),
      ratio: importMs / parseMs,
      runs,
    });
  }
  return out;
}
