/**
 * An import's file is read in a worker thread of its own, with a heap limit and a time budget: a
 * hostile file (a bomb of lines, a format bug not yet found) can only fail its own import, with a
 * 4xx, never the server or the other riders. Its laps are analysed in one too: on a million fixes
 * that takes the best part of a second, which the event loop would otherwise stand still for.
 * Workers come from a pool (Piscina): at most `concurrency` at once on an instance, the rest wait
 * their turn, each rider's in a line of its own, served in turn (decision 035); one that runs out
 * of memory or time (counted from its turn) is stopped and replaced. Decision 027.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { createFairTurns, workOwner } from '#server/lib/fair-turns.ts';
import { createGunzip } from 'node:zlib';
import { MAX_IMPORT_BYTES } from '#core/contracts/imports.contract.ts';
import { AppError, isErrorCode, type MessageRef } from '#core/errors.ts';
import { isGzip } from '#core/imports/detect.ts';
import { ImportReader, type ReadImport } from '#core/imports/importer.ts';
import { lapNumbering, sessionColumns, sessionTrace, type SessionTrace } from '#core/imports/to-session.ts';
import { gpsSixBytes } from '#core/formats/gps-six-write.ts';
import type { SixDigest } from '../sessions/six-body';
import type { ImportedFile } from '#core/imports/trace.ts';
import { makeProjection } from '#core/geo.ts';
import { analyzeTrack, type TrackAnalysis, type TrackDefinition } from '#core/tracks/track-analysis.ts';
import { mergeSession, type MergedSession } from './session-merge';

export interface ImportLimits {
  /** The largest upload, and the most a .gz may inflate to (bytes). */
  maxBytes: number;
  /** A .gz may also inflate to no more than this many times its own size (README, "Imports"). */
  inflateRatio: number;
  /** A reading worker's heap (V8's old generation), MB. */
  heapMb: number;
  /** The longest a worker may take to read one file, ms; it is stopped there. */
  timeMs: number;
  /** Workers reading at once on this instance. */
  concurrency: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxBytes: MAX_IMPORT_BYTES,
  // Logger files gzip to 1/3-1/16 of their size (GPX the most: its tags repeat; README); 32 leaves
  // room for wordier ones, a bomb of one byte repeated is ~1000.
  inflateRatio: 32,
  // A 256 MiB file's fixes live in typed arrays (outside this heap); the heap holds a few pieces of text at a time.
  heapMb: 128,
  timeMs: 60_000,
  // One core left to the event loop.
  concurrency: Math.max(1, availableParallelism() - 1),
};

/** A file to read. */
export interface ReadJob {
  task: 'read';
  file: string;
  filename: string;
  /** The file's size (sizes the fix columns once, when it is not a .gz). */
  size: number;
  maxInflatedBytes: number;
  inflateRatio: number;
  maxBytes: number;
}

/** A session's trace to analyse on its track (the definition's projection sent as its origin: functions do not cross). */
interface AnalyzeJob {
  task: 'analyze';
  trace: SessionTrace;
  /** Also the digest of the gps.six the analysis numbers (an import's session, about to be received). */
  six?: boolean;
  definition: Omit<TrackDefinition, 'line'> & {
    line: Omit<TrackDefinition['line'], 'proj'> & { origin: [number, number] };
  };
}

/** A session's earlier files read again, merged with the newest and analysed (session-merge.ts). */
interface MergeJob {
  task: 'merge';
  earlier: (ReadJob & { name: string })[];
  newest: { file: ImportedFile; name: string };
  maxFixes: number;
  definition: AnalyzeJob['definition'];
}

type Job = ReadJob | AnalyzeJob | MergeJob;

type Answer =
  | { read: ReadImport }
  | { analyzed: { analysis: TrackAnalysis; trace: SessionTrace; six?: SixDigest } }
  | { merged: { analysis: TrackAnalysis; six: SixDigest } & MergedSession }
  | { refused: { code: string; message: string; mensagem: readonly MessageRef[] | undefined } }
  | { failed: string };

function tooComplex(why: 'memory' | 'time', limits: ImportLimits): AppError {
  return new AppError(
    'import/too-complex',
    why === 'memory'
      ? `Reading the file needed more than the ${limits.heapMb} MB an import may use; nothing was stored.`
      : `Reading the file took more than the ${limits.timeMs / 1000} s an import may take; nothing was stored.`,
    undefined,
    why === 'memory'
      ? { id: 'imports.refused.tooComplexMemory', values: { mb: limits.heapMb } }
      : { id: 'imports.refused.tooComplexTime', values: { seconds: limits.timeMs / 1000 } },
  );
}

const MIN_HEAP_MB = 12;
const ENTRY = new URL('./import-worker.entry.mjs', import.meta.url);
/** A worker idle this long ends (a warm one saves the next import loading the readers again: ~0.5-1 s). */
const IDLE_MS = 60_000;

/** The import workers of one instance (the server's, or the CLI's): a Piscina pool. */
export function createImportWorkers(limits: ImportLimits) {
  // Below this a worker's isolate may not even start (seen at 2 MB), and V8 then ends the whole process, not the worker.
  if (!(limits.heapMb >= MIN_HEAP_MB))
    throw new Error(`An import worker's heap must be at least ${MIN_HEAP_MB} MB (${limits.heapMb} given).`);
  const pool = new Piscina({
    filename: ENTRY.href,
    minThreads: 0,
    maxThreads: limits.concurrency,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
  });
  // A worker that fails outside a task (it could not even start) is replaced by the pool, and the
  // task waiting for it ends at its time budget: nothing to do here but not let it end the process.
  pool.on('error', () => undefined);
  // The pool is handed no more tasks than it has threads: its own queue (first come, first served) stays empty.
  const turns = createFairTurns(limits.concurrency);

  async function run(job: Job, transferList: ArrayBuffer[] = []): Promise<Answer> {
    let m: Answer;
    try {
      // Each rider's tasks wait their turn in a line of their own, not in the pool's one queue; the
      // time budget starts when the turn comes. An aborted task's worker is stopped and replaced;
      // so is one that ran out of memory.
      m = (await turns.run(workOwner(), () =>
        pool.run(job, { transferList, signal: AbortSignal.timeout(limits.timeMs) }),
      )) as Answer;
    } catch (err) {
      const e = err as Error & { code?: string; name?: string };
      if (e.name === 'AbortError' || e.name === 'TimeoutError') throw tooComplex('time', limits);
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw tooComplex('memory', limits);
      throw err;
    }
    if ('read' in m || 'analyzed' in m || 'merged' in m) return m;
    if ('refused' in m && isErrorCode(m.refused.code))
      throw new AppError(m.refused.code, m.refused.message, undefined, m.refused.mensagem);
    throw new Error(`import worker: ${'failed' in m ? m.failed : JSON.stringify(m)}`);
  }

  async function readJob(file: string, filename: string): Promise<ReadJob> {
    const { size } = await stat(file);
    return {
      task: 'read',
      file,
      filename,
      size,
      maxInflatedBytes: Math.min(limits.maxBytes, limits.inflateRatio * size),
      inflateRatio: limits.inflateRatio,
      maxBytes: limits.maxBytes,
    };
  }
  const definitionJob = ({ line: { proj, ...line }, ...definition }: TrackDefinition): AnalyzeJob['definition'] => ({
    ...definition,
    line: { ...line, origin: [proj.originLat, proj.originLon] },
  });

  return {
    /** Reads a received file (inflated if it is a .gz) in a worker: what it holds, or the refusal. */
    async read(file: string, filename: string): Promise<ReadImport> {
      return ((await run(await readJob(file, filename))) as { read: ReadImport }).read;
    },
    /**
     * A session of several files, in one worker: the earlier ones (raw files at `earlier`, in the
     * order imported) read again, merged with `newest` (its arrays moved there: unusable after),
     * refused past `maxFixes` together, and the merged trace analysed at its track.
     */
    async merge(
      earlier: { file: string; name: string }[],
      newest: { file: ImportedFile; name: string },
      definition: TrackDefinition,
      maxFixes: number,
    ): Promise<{ analysis: TrackAnalysis; six: SixDigest } & MergedSession> {
      const job: MergeJob = {
        task: 'merge',
        earlier: await Promise.all(earlier.map(async (f) => ({ ...(await readJob(f.file, f.name)), name: f.name }))),
        newest,
        maxFixes,
        definition: definitionJob(definition),
      };
      const t = newest.file.trace;
      const answer = await run(job, buffersOf(t.timeMs, t.lat, t.lon, t.speedKmh, t.satellites, t.leanDeg));
      return (answer as { merged: { analysis: TrackAnalysis; six: SixDigest } & MergedSession }).merged;
    },
    /**
     * `analyzeTrack` in a worker. The trace's arrays move there and back (no copy): use the
     * returned trace, the one given is left empty.
     */
    async analyze(
      trace: SessionTrace,
      definition: TrackDefinition,
      six = false,
    ): Promise<{ analysis: TrackAnalysis; trace: SessionTrace; six?: SixDigest }> {
      const job: AnalyzeJob = { task: 'analyze', trace, definition: definitionJob(definition), six };
      type Analyzed = { analyzed: { analysis: TrackAnalysis; trace: SessionTrace; six?: SixDigest } };
      return ((await run(job, sessionBuffers(trace))) as Analyzed).analyzed;
    },
    /** Stops the workers (the server is closing). */
    async close(): Promise<void> {
      turns.close(new Error('The import workers are closing.'));
      await pool.close({ force: true });
    },
  };
}
export type ImportWorkers = ReturnType<typeof createImportWorkers>;

/** Whether a file starts as a .gz does. */
async function gzipped(file: string): Promise<boolean> {
  const head = Buffer.alloc(2);
  const fh = await open(file, 'r');
  try {
    await fh.read(head, 0, 2, 0);
  } finally {
    await fh.close();
  }
  return isGzip(head);
}

/** The bytes of a received .gz, inflated: at most `job.maxInflatedBytes`, and a damaged one refused. */
async function* inflated(job: ReadJob): AsyncGenerator<Uint8Array> {
  const raw = createReadStream(job.file);
  const gunzip = createGunzip();
  let bytes = 0;
  try {
    for await (const chunk of raw.pipe(gunzip) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > job.maxInflatedBytes) {
        const mb = (n: number) => Math.round(n / 1024 / 1024);
        throw new AppError(
          'import/too-large',
          `The .gz inflates past ${job.maxInflatedBytes} bytes (${job.inflateRatio} times its size, ${job.maxBytes} at most); nothing was stored.`,
          undefined,
          {
            id: 'imports.refused.gzipTooLarge',
            values: { mb: mb(job.maxInflatedBytes), ratio: job.inflateRatio, maxMb: mb(job.maxBytes) },
          },
        );
      }
      yield chunk;
    }
  } catch (err) {
    // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR for one cut short): the upload's fault, not the server's.
    if ((err as { code?: string }).code?.startsWith('Z_'))
      throw new AppError('import/corrupt-gzip', `The .gz cannot be inflated (${(err as Error).message}).`);
    throw err;
  } finally {
    raw.destroy();
    gunzip.destroy();
  }
}

const READ_BYTES = 1 << 20;
const PIECE_BYTES = 1 << 16;

/**
 * Reads a received file, inflated if it is a .gz: what `ImportReader` makes of it, its trace
 * made the session's in place (`sessionTrace`: a million fixes' worth of work done here too).
 */
export async function readImportFile(job: ReadJob): Promise<ReadImport> {
  const gz = await gzipped(job.file);
  const reader = new ImportReader(job.filename, gz ? undefined : job.size);
  // Read from the disk 1 MB at a time (fewer reads to wait for), handed to the reader in 64 kB
  // pieces (the XML reader is faster on those).
  const source = gz ? inflated(job) : createReadStream(job.file, { highWaterMark: READ_BYTES });
  for await (const chunk of source as AsyncIterable<Uint8Array>)
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) reader.push(chunk.subarray(at, at + PIECE_BYTES));
  const read = reader.finish();
  if (read.kind === 'trace') sessionTrace(read.file.trace);
  return read;
}

/**
 * The MD5 (base64) and size of the gps.six text an import's session is received as (its laps
 * numbered as `buildSession` numbers them): made here, the event loop makes only its columns.
 */
function gpsSixDigest(trace: SessionTrace, laps: TrackAnalysis['laps']): SixDigest {
  const hash = createHash('md5');
  let size = 0;
  for (const c of sessionColumns(trace, laps, lapNumbering(laps))) {
    const bytes = gpsSixBytes(c);
    hash.update(bytes);
    size += bytes.length;
  }
  return { md5: hash.digest('base64'), size };
}

/** The buffers under a trace's columns: moved between threads, not copied. */
const buffersOf = (...columns: ArrayBufferView[]): ArrayBuffer[] => [
  ...new Set(columns.map((c) => c.buffer as ArrayBuffer)),
];
const sessionBuffers = (t: SessionTrace) => buffersOf(t.timeMs, t.lat, t.lon, t.speed, t.satellites, t.roll);

/** An answer whose typed arrays move to the other thread instead of being copied (Piscina's transferable). */
function moving(answer: Answer, buffers: ArrayBuffer[]) {
  return Piscina.move({ [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: answer } as unknown as Parameters<
    typeof Piscina.move
  >[0]);
}

/** The worker's side (import-worker.entry.mjs): does one task, answers. */
export async function importTask(job: Job): Promise<unknown> {
  try {
    if (job.task === 'read') {
      const read = await readImportFile(job);
      const t = read.kind === 'trace' ? read.file.trace : undefined;
      return moving({ read }, t ? buffersOf(t.timeMs, t.lat, t.lon, t.speedKmh, t.satellites, t.leanDeg) : []);
    }
    const { origin, ...line } = job.definition.line;
    const definition = { ...job.definition, line: { ...line, proj: makeProjection(origin[0], origin[1]) } };
    if (job.task === 'merge') {
      const files = [];
      for (const f of job.earlier) {
        const read = await readImportFile(f);
        if (read.kind === 'trace') files.push({ file: read.file, name: f.name });
      }
      const merged = mergeSession([...files, job.newest], job.maxFixes);
      const analysis = analyzeTrack(merged.trace, definition);
      const six = gpsSixDigest(merged.trace, analysis.laps);
      return moving({ merged: { ...merged, analysis, six } }, sessionBuffers(merged.trace));
    }
    const analysis = analyzeTrack(job.trace, definition);
    const six = job.six ? gpsSixDigest(job.trace, analysis.laps) : undefined;
    return moving({ analyzed: { analysis, trace: job.trace, ...(six ? { six } : {}) } }, sessionBuffers(job.trace));
  } catch (err) {
    return err instanceof AppError
      ? ({ refused: { code: err.code, message: err.message, mensagem: err.mensagem } } satisfies Answer)
      : ({ failed: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies Answer);
  }
}
