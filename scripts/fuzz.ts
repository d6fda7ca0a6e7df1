// Fuzzing: every parser of outside input gets N generated inputs (fast-check, seeded): random
// bytes, random text, and valid files mutated (bytes flipped, cut, spliced, lines repeated).
// Nothing may escape but the parser's own documented error, and no input may take long. The
// imports are read in a worker thread with a heap ceiling (FUZZ_HEAP_MB, fuzz-imports.ts), as
// the server reads them: an input that needs more fails the run; one target repeats a line of
// each format tens of thousands of times (a small .gz inflates to that), for state kept per line.
//
//   npm run fuzz                      100,000 inputs per parser
//   npm run fuzz -- --runs 2000       what npm test runs
//   npm run fuzz -- --seed 123        another seed (the seed of a failure is printed)
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { isUtf8 } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import { decodeGpsColumns, encodeGpsColumns } from '#core/formats/gps-columns-codec.ts';
import { ExportFormatError, parseFirebaseExport } from '#core/formats/firebase-export.ts';
import { ddmmyyyyToIso, isDdmmyyyy, isValidTrackName } from '#core/formats/dates.ts';
import { decodeSixBody } from '#core/formats/six-lines.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { GPS_COLUMN_KEYS } from '#core/formats/gps-columns.ts';
import { GpsSixStream } from '#core/formats/gps-six-stream.ts';
import { parseLapSix } from '#core/formats/lap-six.ts';
import { gpxChunks, raceRenderCsvChunks } from '#core/formats/exports.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { FUZZ_HEAP_MB, type FuzzAnswer, type FuzzImport } from './fuzz-imports';
import * as W from '#core/imports/test-support/writers.ts';
import { trackAddictFileName, writeTrackAddict } from '#core/imports/test-support/trackaddict-writer.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string', default: '20261122' } },
});
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
    lapTime: {
      'a@b.co': { hardware: ['000000000042'], wifi: 'w', senha: 's', nomePiloto: 'n', numeroMoto: '1', userSeller: '' },
    },
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
    Uint8Array.from(
      Buffer.from(W.writeGpx(fewFixes, day, { version: '1.0', encoding: 'windows-1252', name: 'Autódromo' }), 'latin1'),
    ),
  ],
  // Hostile GPX: a tag of more attributes than a GPX has, and nesting past the 64 levels read.
  [
    'GPX, a tag of 100 attributes',
    'a.gpx',
    enc.encode(
      W.writeGpx(fewFixes, day).replace(
        '</trkseg>',
        `</trkseg><extensions${Array.from({ length: 100 }, (_, k) => ` a${k}="${k}"`).join('')}/>`,
      ),
    ),
  ],
  [
    'GPX, 70 levels deep',
    'a.gpx',
    enc.encode(W.writeGpx(fewFixes, day).replace('</trkseg>', `</trkseg>${'<x>'.repeat(67)}${'</x>'.repeat(67)}`)),
  ],
  ['RaceChrono CSV v3', 'a.csv', enc.encode(W.writeRaceChrono(fewFixes, day))],
  [
    'VBO',
    'a.vbo',
    enc.encode(
      W.writeVbo(fewFixes, day, { gate: { a: { lat: -23.7, lon: -46.69 }, b: { lat: -23.7001, lon: -46.6901 } } }),
    ),
  ],
  ['AiM CSV', 'a.csv', enc.encode(W.writeAim(fewFixes, day, session.laps.slice(0, 3), 10))],
  ['NMEA 0183', 'a.nmea', enc.encode(W.writeNmea(fewFixes, day))],
  [
    'SpeedAngle .sa',
    'a.sa',
    enc.encode(
      W.writeSpeedAngle(fewFixes, day, session.laps.slice(0, 3), {
        a: { lat: -23.7, lon: -46.69 },
        b: { lat: -23.7001, lon: -46.6901 },
      }),
    ),
  ],
  ['TrackAddict CSV', 'a.csv', enc.encode(writeTrackAddict(acrossLap, day, session.laps))],
  [
    'TrackAddict CSV 3.x (start in the name)',
    trackAddictFileName(acrossLap, day),
    enc.encode(writeTrackAddict(acrossLap, day, session.laps, { utc: false })),
  ],
  ['gps.six', '15112026_gps.six', validGps],
];

/** The worker the imports are read in (a new one after an input killed it). */
class ImportWorker {
  private worker: Worker | undefined;
  private pending: { resolve: (a: FuzzAnswer) => void; reject: (e: Error) => void } | undefined;

  read(input: FuzzImport): Promise<FuzzAnswer> {
    if (!this.worker) {
      const w = new Worker(new URL('./fuzz-imports-worker.mjs', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: FUZZ_HEAP_MB },
      });
      w.on('message', (a: FuzzAnswer) => this.settle((p) => p.resolve(a)));
      w.on('error', (err: Error & { code?: string }) => {
        this.worker = undefined;
        const why =
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `the read needed more than ${FUZZ_HEAP_MB} MB of heap`
            : err.message;
        this.settle((p) => p.reject(new Error(why)));
      });
      this.worker = w;
    }
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker!.postMessage(input);
    });
  }
  private settle(done: (p: NonNullable<ImportWorker['pending']>) => void) {
    const p = this.pending;
    this.pending = undefined;
    if (p) done(p);
  }
  stop() {
    void this.worker?.terminate();
  }
}
const importWorker = new ImportWorker();

/** An import read from bytes cut into pieces anywhere (as a socket brings them), in the worker. */
function importTarget(name: string, filename: string, base: Uint8Array): Target {
  return {
    name: `import: ${name} (ImportReader)`,
    arb: fc.tuple(bytesArb(base), fc.array(fc.nat(), { maxLength: 6 })),
    run: async ([bytes, cuts]: [Uint8Array, number[]]) => readInWorker({ bytes, cuts, filename }),
  };
}

async function readInWorker(input: FuzzImport): Promise<void> {
  const answer = await importWorker.read(input);
  // The importers' one documented refusal (AppError import/…); every other error is a bug.
  if (!answer.ok && !answer.allowed) throw new Error(answer.message);
}

/**
 * Per-line growth: one of the first lines of a valid file (its header, the sections where the
 * logger's laps are) repeated up to 600,000 times, what a small .gz inflates to: a state kept
 * per line without a bound outgrows the heap ceiling (a SpeedAngle timer did, at 64 MB).
 */
function repeatedLineTarget(): Target {
  const cases = importSamples.map(([, filename, base]) => ({ filename, lines: text(base).split('\n') }));
  return {
    name: 'import: a header line of each format repeated up to 600,000 times (ImportReader, heap ceiling)',
    runs: 16,
    slowMs: 20_000, // up to ~60 MB each, where the others are a few kB
    arb: fc.tuple(fc.nat(cases.length - 1), fc.nat(), fc.integer({ min: 100_000, max: 600_000 })),
    run: async ([which, line, times]: [number, number, number]) => {
      const { filename, lines } = cases[which]!;
      const at = line % Math.min(40, lines.length);
      const repeated = `${lines[at]}\n`.repeat(times);
      const bytes = enc.encode([...lines.slice(0, at), repeated, ...lines.slice(at + 1)].join('\n'));
      await readInWorker({ bytes, cuts: [], filename });
    },
  };
}

/** The parts one after the other, in an array of their own (Buffer.concat may hand out a piece of its shared pool). */
const joined = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** A valid file with a few edits: bytes replaced or inserted, a cut, a slice repeated. */
function mutated(base: Uint8Array): fc.Arbitrary<Uint8Array> {
  const edit = fc.tuple(
    fc.nat(),
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom('set', 'insert', 'cut', 'repeat', 'delete'),
  );
  return fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
    let b = base;
    for (const [at, byte, op] of edits) {
      const i = at % (b.length + 1);
      if (op === 'set' && b.length) {
        b = b.slice();
        b[i % b.length] = byte;
      } else if (op === 'insert') b = joined(b.subarray(0, i), Uint8Array.of(byte), b.subarray(i));
      else if (op === 'cut') b = b.subarray(0, i);
      else if (op === 'delete') b = joined(b.subarray(0, i), b.subarray(Math.min(b.length, i + (byte % 40))));
      else if (op === 'repeat') b = joined(b.subarray(0, i), b.subarray(i, i + (byte % 200)), b.subarray(i));
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
      arbitrary: fc
        .string({ maxLength: 300, unit: fc.constantFrom('|', ',', '.', '-', '\n', '\r', '0', '9', 'A', ' ', '\u0000') })
        .map((s) => enc.encode(s)),
    },
  );

interface Target {
  name: string;
  arb: fc.Arbitrary<unknown>;
  run: (input: never) => void | Promise<void>;
  /** Fewer inputs than the others, and the longest one may take (large ones). */
  runs?: number;
  slowMs?: number;
  /** The errors this parser documents; anything else escaping is a failure. */
  allowed?: (err: unknown) => boolean;
}

const targets: Target[] = [
  ...importSamples.map(([name, filename, base]) => importTarget(name, filename, base)),
  repeatedLineTarget(),
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
      [...raceRenderCsvChunks(c)].join('');
      const gpx = [...gpxChunks(c, { name: text(b.subarray(0, 40)), date: '01012026' })].join('');
      if (/<script/i.test(gpx)) throw new Error('unescaped markup in GPX');
    },
  },
];

let failed = false;
console.log(`fuzz: ${runs} inputs per parser, seed ${seed}`);
for (const t of targets) {
  let slowest = 0;
  const started = performance.now();
  const n = Math.min(runs, t.runs ?? runs);
  const result = await fc.check(
    fc.asyncProperty(t.arb, async (input) => {
      // CPU time, not wall time: a hang is work, and a busy machine's other processes are not.
      const t0 = process.cpuUsage();
      try {
        await t.run(input as never);
      } catch (err) {
        if (!t.allowed?.(err)) throw err;
      } finally {
        const used = process.cpuUsage(t0);
        slowest = Math.max(slowest, (used.user + used.system) / 1000);
      }
    }),
    { seed, numRuns: n },
  );
  const ms = performance.now() - started;
  if (result.failed) {
    failed = true;
    console.error(`✗ ${t.name}: ${fc.defaultReportMessage(result)}`);
  } else if (slowest > (t.slowMs ?? 1000)) {
    failed = true;
    console.error(`✗ ${t.name}: an input took ${slowest.toFixed(0)} ms of CPU (a hang in the making)`);
  } else {
    console.log(`✓ ${t.name}: ${n} inputs in ${(ms / 1000).toFixed(1)} s, slowest ${slowest.toFixed(1)} ms of CPU`);
  }
}
importWorker.stop();
process.exit(failed ? 1 : 0);
