// Receiving an import's body: refused early by its first bytes, size-limited and hashed on the way
// into a temp file; then kept byte for byte in the blob store with the row a repeat import answers.
import { promises as fs } from 'node:fs';
import type { Kysely } from 'kysely';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import { AppError } from '#core/errors.ts';
import { detectFormat, isGzip, SNIFF_BYTES } from '#core/imports/detect.ts';
import { ImportReader, unsupported } from '#core/imports/importer.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { receiveToFile } from '#server/lib/body-to-file.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { recordImportFile, type ImportFileRow } from './imports.repository';

/** An import's body in its temp file: its MD5 (hex, the raw file's name) and size. */
export interface ReceivedImport {
  file: string;
  md5: string;
  size: number;
}

export function importTooLarge(maxBytes: number): AppError {
  return new AppError('import/too-large', `Imports are limited to ${maxBytes} bytes; nothing was stored.`, undefined, {
    id: 'imports.refused.tooLarge',
    values: { mb: Math.round(maxBytes / 1024 / 1024) },
  });
}

/**
 * The first bytes of a body as they arrive, read as the worker will read them: an unknown format,
 * a DTD, a gps.six with no day in its name is refused at once, the rest never received. A .gz is
 * left to the worker (its first bytes tell nothing). `end` checks a body shorter than the sniff.
 */
export function firstBytesCheck(filename: string) {
  let head = Buffer.alloc(0);
  let done = false;
  return {
    push(chunk: Uint8Array): void {
      if (done) return;
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES + 2 - head.length)]);
      if (head.length < 2) return;
      if (isGzip(head)) return void (done = true);
      if (head.length < SNIFF_BYTES) return;
      done = true;
      new ImportReader(filename).push(head.subarray(0, SNIFF_BYTES)); // throws the refusal, if any
    },
    /** A short body of no known format is refused here, without a worker. */
    end(): void {
      if (!done && head.length && !isGzip(head) && !detectFormat(head.toString('latin1'))) throw unsupported();
    },
  };
}

/** Receives the body into a temp file: size limit, MD5 and `onChunk` on the way. */
export async function receiveImportBody(
  blobs: BlobStore,
  maxBytes: number,
  body: AsyncIterable<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void,
): Promise<ReceivedImport> {
  const file = await blobs.tempPath();
  let received: { size: number; md5: Buffer };
  try {
    received = await receiveToFile(body, file, { maxBytes, tooLarge: () => importTooLarge(maxBytes) }, onChunk);
  } catch (err) {
    await fs.rm(file, { force: true });
    throw err;
  }
  if (received.size === 0) {
    await fs.rm(file, { force: true });
    throw new AppError('import/no-fix', 'The file is empty; nothing was stored.', undefined, {
      id: 'imports.refused.empty',
    });
  }
  return { file, md5: received.md5.toString('hex'), size: received.size };
}

/** An import's answer as kept: one kept before laps carried their GPS time beside the shown one gets it (the same then). */
export function storedAnswer(json: string): ImportAnswer {
  const answer = JSON.parse(json) as ImportAnswer;
  return { ...answer, laps: answer.laps.map((l) => ({ ...l, gpsSeconds: l.gpsSeconds ?? l.seconds })) };
}

/** The raw file, byte for byte, into the blob store; its key. */
export async function putRaw(blobs: BlobStore, received: ReceivedImport, sessionId: string): Promise<string> {
  const key = `${sessionId}/.imports/${received.md5}`;
  await blobs.putFile(key, received.file, 'application/octet-stream', {
    md5: Buffer.from(received.md5, 'hex').toString('base64'),
  });
  return key;
}

/** The import's row: what a second import of the same bytes answers. */
export async function recordRaw(
  db: Kysely<DB>,
  owner: string,
  received: ReceivedImport,
  sessionId: string,
  key: string,
  filename: string,
  format: string,
  answer: ImportAnswer,
): Promise<void> {
  const row: ImportFileRow = {
    owner_email: owner,
    md5: received.md5,
    session_id: sessionId,
    filename: filename.slice(0, 255),
    format,
    size: received.size,
    blob_key: key,
    answer: JSON.stringify(answer),
    created_at: nowIso(),
  };
  await recordImportFile(db, row);
}
