import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { uploadResponseSchema } from '#core/contracts/sessions.contract.ts';
import { ddmmyyyyToIso } from '#core/formats/dates.ts';
import { decodeSixBody, type LineProblem } from '#core/formats/six-lines.ts';
import { GpsSixStream, type GpsStreamSummary } from '#core/formats/gps-six-stream.ts';
import { gpsSixLines } from '#core/formats/gps-six-write.ts';
import { parseLapSix, type Lap } from '#core/formats/lap-six.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { bodyToFile } from '#server/lib/body-to-file.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { ColumnSpool, parseStoredGps } from './column-spool';
import {
  assertSessionAddress,
  gpsColumnsKey,
  MAX_UPLOAD_BYTES,
  sessionKey,
  SIX_FILE,
  type SixKind,
} from './session-files';
import type { SessionEvents } from './session-events.service';
import { findSession, indexSessionFile, listVisibleSessions } from './sessions.repository';
import { deleteIntent, findIntent, listIntentKeys, recordIntent } from './upload-intents.repository';

export type UploadAnswer = z.infer<typeof uploadResponseSchema>;

/** Where a file belongs: a device's (or an import collection's) session, and who owns it. */
export interface SessionAddress {
  deviceId: string;
  owner: string;
  track: string;
  date: string;
}

interface ParsedSix {
  lines: number;
  indexed: number;
  problems: LineProblem[];
  laps?: Lap[];
}

function parseLap(text: string): ParsedSix {
  const r = parseLapSix(text);
  return { lines: r.lines, indexed: r.value.length, problems: r.problems, laps: r.value };
}

/**
 * Refuses what is not a six text file at all, without decoding it: empty, NUL bytes (binary,
 * UTF-16), or invalid UTF-8 (native check). Same rules as core's decodeSixBody.
 */
function rejectNonSixBody(body: Buffer): string | undefined {
  if (body.length === 0) return 'empty';
  if (body.includes(0)) return 'binary';
  if (!isUtf8(body)) return 'invalidUtf8';
  return undefined;
}

function notASixFile(kind: SixKind, rejection: string): AppError {
  return new AppError('storage/invalid-format', `Not a ${SIX_FILE[kind]} file (${rejection}); nothing was stored.`);
}

/** A body already in memory, in the chunk sizes a socket would bring (bounded parse batches). */
function* slices(buf: Buffer, size = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/** Columns Voltas writes as a gps.six (an import's), a batch at a time: the body is made from them and they are its parse. */
function* writtenFrom(batches: Iterable<GpsColumns>, spool: ColumnSpool): Generator<Uint8Array> {
  for (const c of batches) {
    spool.add(c);
    yield Buffer.from(gpsSixLines(c));
  }
}

/**
 * Receives a gps.six body into `file` chunk by chunk: MD5, size limit, the whole-body checks and
 * the line parse all happen on the way, parsed columns go to `spool`; nothing holds the body.
 */
async function receiveGps(
  source: { body: AsyncIterable<Uint8Array> | Iterable<Uint8Array> } | { columns: Iterable<GpsColumns> },
  file: string,
  spool: ColumnSpool,
): Promise<{ size: number; md5: string; summary: GpsStreamSummary }> {
  const hash = createHash('md5');
  const parser = 'body' in source ? new GpsSixStream((c) => spool.add(c), isUtf8) : undefined;
  let size = 0;
  await bodyToFile('body' in source ? source.body : writtenFrom(source.columns, spool), file, (chunk) => {
    size += chunk.length;
    if (size > MAX_UPLOAD_BYTES.gps)
      throw new AppError(
        'storage/server-file-wrong-size',
        `gps.six is limited to ${MAX_UPLOAD_BYTES.gps} bytes; nothing was stored.`,
      );
    hash.update(chunk);
    parser?.push(chunk);
  });
  const summary = parser
    ? parser.end()
    : { lines: spool.total, indexed: spool.total, problems: [], rejection: undefined };
  return { size, md5: hash.digest('base64'), summary };
}

/**
 * Receiving a session's files, from a device or any other source (an import): validation, the
 * intent row, the blob, the index, and recovery after a crash between them. Keeps the raw bytes
 * exactly as sent, indexes every line that parses, reports the others as warnings.
 */
export function createSessionReceiver(deps: {
  db: Kysely<DB>;
  blobs: BlobStore;
  coordination: Coordination;
  events: SessionEvents;
}) {
  const { db, blobs, coordination, events } = deps;

  /** Derived data built after the upload answered; awaited on close so a clean stop loses none. */
  const pendingDerived = new Set<Promise<unknown>>();
  function deriveInBackground(id: string, md5: string, previousMd5: string | undefined, spool: ColumnSpool): void {
    const task = spool
      .store(blobs, gpsColumnsKey(id, md5))
      .then(async () => {
        if (previousMd5 && previousMd5 !== md5) await blobs.delete(gpsColumnsKey(id, previousMd5));
      })
      .catch(() => undefined) // a reader rebuilds it from gps.six
      .finally(() => {
        pendingDerived.delete(task);
        return spool.dispose();
      });
    pendingDerived.add(task);
  }

  /** The index row and the intent's removal, in one transaction; then the live update. */
  async function commitIndex(
    address: SessionAddress,
    kind: SixKind,
    key: string,
    md5: string,
    size: number,
    parsed: ParsedSix,
  ): Promise<void> {
    const id = sessionKey(address.deviceId, address.track, address.date);
    await inTransaction(db, async (trx) => {
      await indexSessionFile(
        trx,
        {
          id,
          deviceId: address.deviceId,
          track: address.track,
          date: address.date,
          dateIso: ddmmyyyyToIso(address.date),
          owner: address.owner,
          now: nowIso(),
        },
        kind,
        { md5, size, lines: parsed.lines, problems: parsed.problems },
        parsed.laps ? { laps: parsed.laps } : { sampleCount: parsed.indexed },
      );
      await deleteIntent(trx, key, md5);
    });
    // A new personal best is announced once the session's figures are settled (jobs.ts): by its one lap list.
    await events.publish(address);
  }

  return {
    /** Waits for derived data still being built (graceful shutdown). */
    async drain(): Promise<void> {
      await Promise.all([...pendingDerived]);
    },

    /**
     * One file of a session. Refuses (422) a body that is not a six file at all, and (409) any
     * change to a session of another owner. A gps.six may arrive as a stream: it is never held in
     * memory whole.
     */
    async receive(
      input: SessionAddress & { contentMd5?: string | undefined } & (
          | { kind: SixKind; body: Buffer | AsyncIterable<Uint8Array> | Iterable<Uint8Array> }
          /** A gps.six Voltas writes itself (an import's): its columns, a batch at a time. */
          | { kind: 'gps'; columns: Iterable<GpsColumns> }
        ),
    ): Promise<UploadAnswer> {
      assertSessionAddress(input.track, input.date);
      const id = sessionKey(input.deviceId, input.track, input.date);
      const key = `${id}/${SIX_FILE[input.kind]}`;
      const address: SessionAddress = {
        deviceId: input.deviceId,
        track: input.track,
        date: input.date,
        owner: input.owner,
      };
      const checkMd5 = (md5: string) => {
        if (input.contentMd5 !== undefined && input.contentMd5.trim() !== md5) {
          throw new AppError('storage/invalid-checksum', 'Content-MD5 does not match the body.');
        }
      };
      /**
       * The session at this address, checked under the file's lock before anything is written: a
       * session belongs for ever to whoever owned the device when it was recorded, so an upload
       * by a later owner never touches it (409), not even as a no-op answer that would show its
       * warnings. Then the same bytes again (a device repeating Send) are answered from the index.
       */
      const unchanged = async (md5: string) => {
        const existing = await findSession(db, id);
        if (existing && existing.owner_email !== input.owner) throw new AppError('session/previous-owner');
        const lap = input.kind === 'lap';
        if (
          !existing ||
          (lap ? existing.lap_md5 : existing.gps_md5) !== md5 ||
          (await blobs.head(key))?.md5Hash !== md5
        )
          return { existing, answer: undefined };
        const warnings = JSON.parse(lap ? existing.lap_problems : existing.gps_problems) as LineProblem[];
        const answer = {
          stored: false,
          unchanged: true,
          key,
          md5Hash: md5,
          size: Number(lap ? existing.lap_size : existing.gps_size),
          lines: Number(lap ? existing.lap_lines : existing.gps_lines),
          indexed: Number(lap ? existing.lap_count : existing.sample_count),
          warnings,
        };
        return { existing, answer };
      };
      const intent = (md5: string) =>
        recordIntent(db, {
          blobKey: key,
          md5,
          deviceId: input.deviceId,
          track: input.track,
          date: input.date,
          kind: input.kind,
          owner: input.owner,
        });

      if (input.kind === 'lap') {
        if (!('body' in input) || !Buffer.isBuffer(input.body)) throw new Error('lap.six arrives as a Buffer');
        const body = input.body;
        const md5 = createHash('md5').update(body).digest('base64');
        checkMd5(md5);
        const rejection = rejectNonSixBody(body);
        if (rejection) throw notASixFile('lap', rejection);
        const parsed = parseLap(body.toString('utf8'));
        if (parsed.indexed === 0)
          throw new AppError('storage/invalid-format', 'No valid lap.six line; nothing was stored.');
        // One writer per file across all instances: the blob and its index are replaced together.
        return coordination.withKeyLock(key, async () => {
          const { answer } = await unchanged(md5);
          if (answer) return answer;
          await intent(md5);
          await blobs.put(key, body, 'text/plain; charset=utf-8', { md5 });
          await commitIndex(address, 'lap', key, md5, body.length, parsed);
          return {
            stored: true,
            unchanged: false,
            key,
            md5Hash: md5,
            size: body.length,
            lines: parsed.lines,
            indexed: parsed.indexed,
            warnings: parsed.problems,
          };
        });
      }

      // gps.six: received into a temp file (checked, hashed and parsed on the way), then handed to
      // the blob store (a rename on the filesystem, a streamed PUT to S3).
      const file = await blobs.tempPath();
      const spool = new ColumnSpool(await blobs.tempPath());
      let fileTaken = false;
      let spoolTaken = false;
      try {
        const source =
          'columns' in input ? input : { body: Buffer.isBuffer(input.body) ? slices(input.body) : input.body };
        const received = await receiveGps(source, file, spool);
        const { md5, summary } = received;
        checkMd5(md5);
        if (summary.rejection) throw notASixFile('gps', summary.rejection);
        if (summary.indexed === 0)
          throw new AppError('storage/invalid-format', 'No valid gps.six line; nothing was stored.');
        return await coordination.withKeyLock(key, async () => {
          const { existing, answer } = await unchanged(md5);
          if (answer) return answer;
          await intent(md5);
          fileTaken = true;
          await blobs.putFile(key, file, 'text/plain; charset=utf-8', { md5 });
          await commitIndex(address, 'gps', key, md5, received.size, summary);
          spoolTaken = true;
          deriveInBackground(id, md5, existing?.gps_md5 || undefined, spool);
          return {
            stored: true,
            unchanged: false,
            key,
            md5Hash: md5,
            size: received.size,
            lines: summary.lines,
            indexed: summary.indexed,
            warnings: summary.problems,
          };
        });
      } finally {
        if (!fileTaken) await fs.rm(file, { force: true });
        if (!spoolTaken) await spool.dispose();
      }
    },

    /**
     * Finishes uploads interrupted between the blob write and the index update (a crash, a
     * kill): the blob holds the new bytes → index them; it holds the old ones → drop the intent.
     * Runs at start-up, before the server listens, and now and then after.
     */
    async recoverInterruptedUploads(): Promise<{ reindexed: number; dropped: number }> {
      let reindexed = 0;
      let dropped = 0;
      for (const key of await listIntentKeys(db)) {
        // Under the file's lock: an upload still running on another instance finishes first, and
        // its intent is gone when we look again.
        await coordination.withKeyLock(key, async () => {
          const intent = await findIntent(db, key);
          if (!intent) return;
          const head = await blobs.head(intent.blobKey);
          let parsed: ParsedSix | undefined;
          if (head?.md5Hash === intent.md5) {
            if (intent.kind === 'gps') {
              const summary = await parseStoredGps(blobs, intent.blobKey);
              if (summary && !summary.rejection) parsed = summary;
            } else {
              const body = await blobs.get(intent.blobKey);
              const decoded = body ? decodeSixBody(body) : undefined;
              if (decoded && 'text' in decoded) parsed = parseLap(decoded.text);
            }
          }
          if (parsed && head) {
            await commitIndex(
              { deviceId: intent.deviceId, track: intent.track, date: intent.date, owner: intent.owner },
              intent.kind,
              intent.blobKey,
              intent.md5,
              head.size,
              parsed,
            );
            reindexed++;
          } else {
            await deleteIntent(db, intent.blobKey, intent.md5);
            dropped++;
          }
        });
      }
      return { reindexed, dropped };
    },

    /**
     * After a restore: every file whose blob is newer than the database copy becomes an
     * interrupted upload, which recovery indexes from the blob (the same path as after a crash).
     */
    async reindexBlobsNewerThanIndex(): Promise<number> {
      const everything = { admin: true, email: '', demoDeviceId: '', system: true };
      for (const row of await listVisibleSessions(db, everything)) {
        for (const [kind, md5] of [
          ['lap', row.lap_md5],
          ['gps', row.gps_md5],
        ] as const) {
          if (!md5) continue;
          const key = `${row.id}/${SIX_FILE[kind]}`;
          const head = await blobs.head(key);
          if (head && head.md5Hash !== md5)
            await recordIntent(db, {
              blobKey: key,
              md5: head.md5Hash,
              deviceId: row.device_id,
              track: row.track,
              date: row.date,
              kind,
              owner: row.owner_email,
            });
        }
      }
      return (await this.recoverInterruptedUploads()).reindexed;
    },
  };
}

export type SessionReceiver = ReturnType<typeof createSessionReceiver>;
