// The import fuzz targets' work, run in a worker thread with a heap ceiling (fuzz.ts): an input
// whose read needs more than FUZZ_HEAP_MB fails the run, as it would fail its import.
import { parentPort } from 'node:worker_threads';
import { AppError } from '#core/errors.ts';
import { GPS_COLUMN_KEYS } from '#core/formats/gps-columns.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { ImportReader } from '#core/imports/importer.ts';
import { gpsSixText, sessionColumns, sessionTrace } from '#core/imports/to-session.ts';

/** The heap one input's read may use (a reading worker has 128 MB for files up to 256 MiB). */
export const FUZZ_HEAP_MB = 64;

export interface FuzzImport {
  bytes: Uint8Array;
  /** Where the bytes are cut into pieces (as a socket brings them). */
  cuts: number[];
  filename: string;
}

/** Reads one input; throws what escaped (an AppError import/… is the importers' one documented refusal). */
export function checkImport({ bytes: b, cuts, filename }: FuzzImport): void {
  const reader = new ImportReader(filename);
  let at = 0;
  for (const c of cuts.map((x) => x % (b.length + 1)).sort((x, y) => x - y)) {
    reader.push(b.subarray(at, Math.max(at, c)));
    at = Math.max(at, c);
  }
  reader.push(b.subarray(at));
  const read = reader.finish();
  if (read.kind !== 'trace') return;
  const t = read.file.trace;
  for (let i = 1; i < t.count; i++) if (!(t.timeMs[i]! > t.timeMs[i - 1]!)) throw new Error('fixes out of time order');
  // What the session is made of must be a gps.six the device parser takes whole.
  const trace = sessionTrace(t);
  const six = gpsSixText(sessionColumns(trace, [], new Map()));
  const back = parseGpsSix(six);
  if (back.problems.length || back.value.count !== t.count)
    throw new Error(`gps.six of the import does not parse: ${JSON.stringify(back.problems[0])}`);
  // The columns are handed to the receiver as that file's parse: they must be what it parses to.
  let from = 0;
  for (const c of sessionColumns(trace, [], new Map(), 100)) {
    for (const k of GPS_COLUMN_KEYS)
      for (let i = 0; i < c.count; i++)
        if (back.value[k][from + i] !== c[k][i])
          throw new Error(`${k}[${from + i}]: wrote ${c[k][i]}, reads back ${back.value[k][from + i]}`);
    from += c.count;
  }
}

export type FuzzAnswer = { ok: true } | { ok: false; allowed: boolean; message: string };

/** The worker's side (fuzz-imports-worker.mjs): one answer per input posted. */
export function serveFuzzImports(): void {
  parentPort!.on('message', (input: FuzzImport) => {
    let answer: FuzzAnswer = { ok: true };
    try {
      checkImport(input);
    } catch (err) {
      const allowed = err instanceof AppError && err.code.startsWith('import/');
      answer = { ok: false, allowed, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    parentPort!.postMessage(answer);
  });
}
