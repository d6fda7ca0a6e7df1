// Fuzzing: every parser of outside input gets N generated inputs (fast-check, seeded): random
// bytes, random text, and valid files mutated (bytes flipped, cut, spliced, lines repeated).
// Nothing may escape but the parser's own documented error, and no input may take long.
//
//   npm run fuzz                      100,000 inputs per parser
//   npm run fuzz -- --runs 3000       what npm test runs
//   npm run fuzz -- --seed 123        another seed (the seed of a failure is printed)
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { isUtf8 } from 'node:buffer';
import { decodeGpsColumns, encodeGpsColumns } from '../core/formats/gps-columns-codec';
import { ExportFormatError, parseFirebaseExport } from '../core/formats/firebase-export';
import { ddmmyyyyToIso, isDdmmyyyy, isValidTrackName } from '../core/formats/dates';
import { decodeSixBody } from '../core/formats/six-lines';
import { parseGpsSix } from '../core/formats/gps-six';
import { GPS_COLUMN_KEYS } from '../core/formats/gps-columns';
import { GpsSixStream } from '../core/formats/gps-six-stream';
import { parseLapSix } from '../core/formats/lap-six';
import { toGpx, toRaceRenderCsv } from '../core/formats/exports';
import { generateSession } from '../core/sim/session-generator';
import { loadTracks } from '../server/src/lib/track-files';
import { AppError } from '../core/errors';
import { ImportReader } from '../core/imports/importer';
import { gpsSixText, sessionColumns, sessionTrace } from '../core/imports/to-session';
import * as W from '../core/imports/test-support/writers';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string', default: '20261122' } } });
const runs = Number(values.runs);
const seed = Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('Usage: fuzz [--runs N] [--seed S]');
  process.exit(2);
}

const session = generateSession(loadTracks()[0]!, { seed: 5, heats: 2, lapsPerHeat: [2, 3] });
const enc = new TextEncoder();
const validGps = enc.encode(session.gpsSix.split('\n').slice(0, 300).join('\n'));
const validLap = enc.encode(session.lapSix);
const validExport = enc.encode(
  JSON.stringify({
    lapTime: { 'a@b.co': { hardware: ['000000000042'], wifi: 'w', senha: 's', nomePiloto: 'n', numeroMoto: '1', userSeller: '' } },
    join: { '000000000042': { owner: 'a@b.co', seller: '', up: '1', version: '2', name: 'x' } },
  }),
);
const validColumns = encodeGpsColumns(parseGpsSix(validGps).value);

// Every import format, small valid files of each (a few hundred fixes) to mutate.
const fewFixes = parseGpsSix(enc.encode(session.gpsSix.split('\n').slice(0, 120).join('\n'))).value;
const day = { y: 2026, m: 11, d: 15 };
// Fixes either side of a lap change (for the formats that write the logger's laps per row).
const gpsLines = session.gpsSix.split('\n');
const lapChange = gpsLines.findIndex((l, i) => i > 60 && l.split('|')[4] !== gpsLines[i - 1]!.split('|')[4]);
const acrossLap = parseGpsSix(enc.encode(gpsLines.slice(lapChange - 60, lapChange + 60).join('\n'))).value;
const importSamples: [string, string, Uint8Array][] = [
  ['GPX 1.1', 'a.gpx', enc.encode(W.writeGpx(fewFixes, day))],
  [
    'GPX 1.0, windows-1252',
    'a.gpx',
    Uint8Array.from(Buffer.from(W.writeGpx(fewFixes, day, { version: '1.0', encoding: 'windows-1252', name: 'Autódromo' }), 'latin1')),
  ],
  // Hostile GPX (issue 34): a tag of more attributes than a GPX has, and nesting past the 64 levels read.
  [
    'GPX, a tag of 100 attributes',
    'a.gpx',
    enc.encode(W.writeGpx(fewFixes, day).replace('</trkseg>', `</trkseg><extensions${Array.from({ length: 100 }, (_, k) => ` a${k}="${k}"`).join('')}/>`)),
  ],
  ['GPX, 70 levels deep', 'a.gpx', enc.encode(W.writeGpx(fewFixes, day).replace('</trkseg>', `</trkseg>${'<x>'.repeat(67)}${'</x>'.repeat(67)}`))],
  ['RaceChrono CSV v3', 'a.csv', enc.encode(W.writeRaceChrono(fewFixes, day))],
  ['VBO', 'a.vbo', enc.encode(W.writeVbo(fewFixes, day, { gate: { a: { lat: -23.7, lon: -46.69 }, b: { lat: -23.7001, lon: -46.6901 } } }))],
  ['AiM CSV', 'a.csv', enc.encode(W.writeAim(fewFixes, day, session.laps.slice(0, 3), 10))],
  ['NMEA 0183', 'a.nmea', enc.encode(W.writeNmea(fewFixes, day))],
  [
    'SpeedAngle .sa',
    'a.sa',
    enc.encode(W.writeSpeedAngle(fewFixes, day, session.laps.slice(0, 3), { a: { lat: -23.7, lon: -46.69 }, b: { lat: -23.7001, lon: -46.6901 } })),
  ],
  ['TrackAddict CSV', 'a.csv', enc.encode(W.writeTrackAddict(acrossLap, day, session.laps))],
  [
    'TrackAddict CSV 3.x (start in the name)',
    W.trackAddictFileName(acrossLap, day),
    enc.encode(W.writeTrackAddict(acrossLap, day, session.laps, { utc: false })),
  ],
  ['gps.six', '15112026_gps.six', validGps],
];

/** An import read from bytes cut into pieces anywhere (as a socket brings them). */
function importTarget(name: string, filename: string, base: Uint8Array): Target {
  return {
    name: `import: ${name} (ImportReader)`,
    arb: fc.tuple(bytesArb(base), fc.array(fc.nat(), { maxLength: 6 })),
    run: ([b, cuts]: [Uint8Array, number[]]) => {
      const reader = new ImportReader(filename);
      let at = 0;
      for (const c of cuts.map((x) => x % (b.length + 1)).sort((x, y) => x - y)) {
        reader.push(b.subarray(at, Math.max(at, c)));
        at = Math.max(at, c);
      }
      reader.push(b.subarray(at));
      const read = reader.finish();
      if (read.kind === 'trace') {
        const t = read.file.trace;
        for (let i = 1; i < t.count; i++) if (!(t.timeMs[i]! > t.timeMs[i - 1]!)) throw new Error('fixes out of time order');
        // What the session is made of must be a gps.six the device parser takes whole.
        const trace = sessionTrace(t);
        const six = gpsSixText(sessionColumns(trace, [], new Map()));
        const back = parseGpsSix(six);
        if (back.problems.length || back.value.count !== t.count) throw new Error(`gps.six of the import does not parse: ${JSON.stringify(back.problems[0])}`);
        // The columns are handed to the receiver as that file's parse: they must be what it parses to.
        let from = 0;
        for (const c of sessionColumns(trace, [], new Map(), 100)) {
          for (const k of GPS_COLUMN_KEYS)
            for (let i = 0; i < c.count; i++)
              if (back.value[k][from + i] !== c[k][i]) throw new Error(`${k}[${from + i}]: wrote ${c[k][i]}, reads back ${back.value[k][from + i]}`);
          from += c.count;
        }
      }
    },
    // The importers' one documented refusal; every other error is a bug.
    allowed: (e) => e instanceof AppError && e.code.startsWith('import/'),
  };
}

/** A valid file with a few edits: bytes replaced or inserted, a cut, a slice repeated. */
function mutated(base: Uint8Array): fc.Arbitrary<Uint8Array> {
  const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'cut', 'repeat', 'delete'));
  return fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
    let b = base;
    for (const [at, byte, op] of edits) {
      const i = at % (b.length + 1);
      if (op === 'set' && b.length) {
        b = b.slice();
        b[i % b.length] = byte;
      } else if (op === 'insert') b = Uint8Array.from([...b.subarray(0, i), byte, ...b.subarray(i)]);
      else if (op === 'cut') b = b.subarray(0, i);
      else if (op === 'delete') b = Uint8Array.from([...b.subarray(0, i), ...b.subarray(Math.min(b.length, i + (byte % 40)))]);
      else if (op === 'repeat') b = Uint8Array.from([...b.subarray(0, i), ...b.subarray(i, i + (byte % 200)), ...b.subarray(i)]);
    }
    return b;
  });
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytesArb = (base: Uint8Array) =>
  fc.oneof(
    { weight: 3, arbitrary: mutated(base) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2000 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 500, unit: 'grapheme' }).map((s) => enc.encode(s)) },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 300, unit: fc.constantFrom('|', ',', '.', '-', '\n', '\r', '0', '9', 'A', ' ', '\u0000') }).map((s) => enc.encode(s)),
    },
  );

interface Target {
  name: string;
  arb: fc.Arbitrary<unknown>;
  run: (input: never) => void;
  /** The errors this parser documents; anything else escaping is a failure. */
  allowed?: (err: unknown) => boolean;
}

const targets: Target[] = [
  ...importSamples.map(([name, filename, base]) => importTarget(name, filename, base)),
  { name: 'lap.six (parseLapSix)', arb: bytesArb(validLap).map(text), run: (s: string) => void parseLapSix(s) },
  { name: 'gps.six (parseGpsSix, bytes)', arb: bytesArb(validGps), run: (b: Uint8Array) => void parseGpsSix(b) },
  {
    name: 'gps.six streamed in random chunks (GpsSixStream)',
    arb: fc.tuple(bytesArb(validGps), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean()),
    run: ([b, cuts, native]: [Uint8Array, number[], boolean]) => {
      const stream = new GpsSixStream(() => {}, native ? isUtf8 : undefined);
      let at = 0;
      for (const c of cuts.map((x) => x % (b.length + 1)).sort((x, y) => x - y)) {
        stream.push(b.subarray(at, Math.max(at, c)));
        at = Math.max(at, c);
      }
      stream.push(b.subarray(at));
      stream.end();
    },
  },
  { name: 'upload body check (decodeSixBody)', arb: bytesArb(validGps), run: (b: Uint8Array) => void decodeSixBody(b) },
  {
    name: 'Firebase export (parseFirebaseExport)',
    arb: bytesArb(validExport).map(text),
    run: (s: string) => void parseFirebaseExport(s),
    allowed: (e) => e instanceof ExportFormatError,
  },
  {
    name: 'GPS columns binary (decodeGpsColumns)',
    arb: bytesArb(validColumns),
    run: (b: Uint8Array) => void decodeGpsColumns(b),
    allowed: (e) => e instanceof RangeError,
  },
  {
    // Lazily: every column read after the check, where nothing may fail any more.
    name: 'GPS columns binary, lazily (decodeGpsColumns lazy)',
    arb: bytesArb(validColumns),
    run: (b: Uint8Array) => {
      let c;
      try {
        c = decodeGpsColumns(b, { lazy: true });
      } catch (e) {
        if (e instanceof RangeError) return;
        throw e;
      }
      for (const k of GPS_COLUMN_KEYS) void c[k];
    },
  },
  {
    name: 'track, date and device id checks',
    arb: fc.string({ maxLength: 80, unit: 'binary' }),
    run: (s: string) => {
      isValidTrackName(s);
      if (isDdmmyyyy(s)) ddmmyyyyToIso(s);
    },
  },
  {
    name: 'exports of parsed hostile GPS (CSV, GPX)',
    arb: bytesArb(validGps),
    run: (b: Uint8Array) => {
      const c = parseGpsSix(b).value;
      toRaceRenderCsv(c);
      const gpx = toGpx(c, { name: text(b.subarray(0, 40)), date: '01012026' });
      if (/<script/i.test(gpx)) throw new Error('unescaped markup in GPX');
    },
  },
];

let failed = false;
console.log(`fuzz: ${runs} inputs per parser, seed ${seed}`);
for (const t of targets) {
  let slowest = 0;
  const started = performance.now();
  const result = fc.check(
    fc.property(t.arb, (input) => {
      const t0 = performance.now();
      try {
        t.run(input as never);
      } catch (err) {
        if (!t.allowed?.(err)) throw err;
      } finally {
        slowest = Math.max(slowest, performance.now() - t0);
      }
    }),
    { seed, numRuns: runs },
  );
  const ms = performance.now() - started;
  if (result.failed) {
    failed = true;
    console.error(`✗ ${t.name}: ${fc.defaultReportMessage(result)}`);
  } else if (slowest > 1000) {
    failed = true;
    console.error(`✗ ${t.name}: an input took ${slowest.toFixed(0)} ms (a hang in the making)`);
  } else {
    console.log(`✓ ${t.name}: ${runs} inputs in ${(ms / 1000).toFixed(1)} s, slowest ${slowest.toFixed(1)} ms`);
  }
}
process.exit(failed ? 1 : 0);
