/**
 * A session's files made one trace, in an import worker: the earlier files of its day read again
 * from their raw bytes and merged with the newest (day-files.ts), so the event loop neither reads
 * them nor holds their traces; only the merged trace and what each file says of itself come back.
 * A session takes a bounded number of files and fixes, so this work is bounded too.
 */
import { AppError } from '#core/errors.ts';
import { mergeTraces, sessionFiles } from '#core/imports/day-files.ts';
import { sessionTrace, type SessionTrace } from '#core/imports/to-session.ts';
import { MAX_FIXES, type ImportedFile } from '#core/imports/trace.ts';

/** What a session takes at most: its files, and their fixes together. */
export interface SessionBounds {
  /** Files (lap.six aside) one session is built from. */
  maxSessionFiles: number;
  /** Fixes of all its files together, before the merge (what reading and merging them holds). */
  maxSessionFixes: number;
}

export const DEFAULT_SESSION_BOUNDS: SessionBounds = {
  // A track day is 4-8 heats; a file per heat from each of two loggers is 16.
  maxSessionFiles: 20,
  // What one file may hold (3 h at 100 Hz, ~45 MB of trace): a merged trace keeps no more
  // (TraceBuilder stops there), so a session of more would lose fixes without a word.
  maxSessionFixes: MAX_FIXES,
};

export function tooManyFiles(max: number): AppError {
  return new AppError(
    'import/session-full',
    `This session (one track, one day) already holds ${max} files, the most a session takes; nothing was stored.`,
    undefined,
    { id: 'imports.refused.sessionFiles', values: { max } },
  );
}

export function tooManyFixes(max: number, fixes: number): AppError {
  return new AppError(
    'import/session-full',
    `With this file the session (one track, one day) would hold ${fixes} GPS fixes, more than the ${max} a session takes; nothing was stored.`,
    undefined,
    { id: 'imports.refused.sessionFixes', values: { max, fixes } },
  );
}

/** What a file says of itself, its trace aside (merged into the session's). */
type FileFacts = Omit<ImportedFile, 'trace'> & { name: string };

export interface MergedSession {
  /** The files' fixes in time order, as the session's gps.six will hold them. */
  trace: SessionTrace;
  /** Each file, in the order given (the newest last). */
  files: FileFacts[];
  /** `sessionFiles`'s: for a file that repeats one before it, that one. */
  repeats: (number | undefined)[];
}

/** The files (in the order they were imported, the newest last) as one session's trace: refused past `maxFixes`. */
export function mergeSession(files: { file: ImportedFile; name: string }[], maxFixes: number): MergedSession {
  const fixes = files.reduce((n, f) => n + f.file.trace.count, 0);
  if (fixes > maxFixes) throw tooManyFixes(maxFixes, fixes);
  const { order, repeats } = sessionFiles(files.map((f) => f.file));
  const trace = sessionTrace(mergeTraces(order.map((k) => files[k]!.file.trace)));
  return { trace, files: files.map(({ file: { trace: _, ...facts }, name }) => ({ ...facts, name })), repeats };
}
