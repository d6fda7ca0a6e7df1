// Receiving a six file's body: the whole-body checks, the size limit, the MD5 and the line parse,
// the same for a device's upload and an import's; what is kept of it is the receiver's business.
import { isUtf8 } from 'node:buffer';
import { setImmediate } from 'node:timers/promises';
import { AppError } from '#core/errors.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { GpsSixStream, type GpsStreamSummary } from '#core/formats/gps-six-stream.ts';
import { gpsSixBytes } from '#core/formats/gps-six-write.ts';
import { parseLapSix, type Lap } from '#core/formats/lap-six.ts';
import type { LineProblem } from '#core/formats/six-lines.ts';
import { receiveToFile } from '#server/lib/body-to-file.ts';
import type { ColumnSpool } from './column-spool';
import { MAX_UPLOAD_BYTES, SIX_FILE, type SixKind } from './session-files';

/** What the index keeps of a parsed six file. */
export interface ParsedSix {
  lines: number;
  indexed: number;
  problems: LineProblem[];
  laps?: Lap[];
}

export function parseLap(text: string): ParsedSix {
  const r = parseLapSix(text);
  return { lines: r.lines, indexed: r.value.length, problems: r.problems, laps: r.value };
}

/**
 * Refuses what is not a six text file at all, without decoding it: empty, NUL bytes (binary,
 * UTF-16), or invalid UTF-8 (native check). Same rules as core's decodeSixBody.
 */
export function rejectNonSixBody(body: Buffer): string | undefined {
  if (body.length === 0) return 'empty';
  if (body.includes(0)) return 'binary';
  if (!isUtf8(body)) return 'invalidUtf8';
  return undefined;
}

export function notASixFile(kind: SixKind, rejection: string): AppError {
  return new AppError('storage/invalid-format', `Not a ${SIX_FILE[kind]} file (${rejection}); nothing was stored.`);
}

/** A body already in memory, in the chunk sizes a socket would bring (bounded parse batches). */
export function* slices(buf: Buffer, size = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/**
 * Columns Voltas writes as a gps.six (an import's), a batch at a time: the body is made from them
 * and they are its parse. A turn of the event loop between batches: a session of a million fixes
 * is seconds of this, which other requests must not wait behind.
 */
async function* writtenFrom(batches: Iterable<GpsColumns>, spool: ColumnSpool): AsyncGenerator<Uint8Array> {
  for (const c of batches) {
    spool.add(c);
    yield gpsSixBytes(c);
    await setImmediate();
  }
}

/** A gps.six's MD5 (base64) and size, made elsewhere from the columns it is written from. */
export interface SixDigest {
  md5: string;
  size: number;
}

const gpsTooLarge = () =>
  new AppError(
    'storage/server-file-wrong-size',
    `gps.six is limited to ${MAX_UPLOAD_BYTES.gps} bytes; nothing was stored.`,
  );

/**
 * A gps.six Voltas writes whose text is not kept (an import's): its columns into `spool`, a turn
 * of the event loop between batches, its MD5 and size as `written` says (made in a worker).
 */
export async function receiveWritten(
  batches: Iterable<GpsColumns>,
  written: SixDigest,
  spool: ColumnSpool,
): Promise<{ size: number; md5: string; summary: GpsStreamSummary }> {
  if (written.size > MAX_UPLOAD_BYTES.gps) throw gpsTooLarge();
  for (const c of batches) {
    spool.add(c);
    await setImmediate();
  }
  return { ...written, summary: { lines: spool.total, indexed: spool.total, problems: [], rejection: undefined } };
}

/**
 * Receives a gps.six body into `file` chunk by chunk: MD5, size limit, the whole-body checks and
 * the line parse all happen on the way, parsed columns go to `spool`; nothing holds the body.
 */
export async function receiveGps(
  source: { body: AsyncIterable<Uint8Array> | Iterable<Uint8Array> } | { columns: Iterable<GpsColumns> },
  file: string,
  spool: ColumnSpool,
): Promise<{ size: number; md5: string; summary: GpsStreamSummary }> {
  const parser = 'body' in source ? new GpsSixStream((c) => spool.add(c), isUtf8) : undefined;
  const { size, md5 } = await receiveToFile(
    'body' in source ? source.body : writtenFrom(source.columns, spool),
    file,
    { maxBytes: MAX_UPLOAD_BYTES.gps, tooLarge: gpsTooLarge },
    (chunk) => parser?.push(chunk),
  );
  const summary = parser
    ? parser.end()
    : { lines: spool.total, indexed: spool.total, problems: [], rejection: undefined };
  return { size, md5: md5.toString('base64'), summary };
}
