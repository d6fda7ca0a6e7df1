// A session's files as they arrive (a device's upload, or the files an import builds): checked,
// written with an intent row first, indexed; the raw bytes kept exactly as sent.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { uploadResponseSchema } from '#core/contracts/sessions.contract.ts';
import type { LineProblem } from '#core/formats/six-lines.ts';
import type { GpsColumns } from '#core/formats/gps-columns.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import { ColumnSpool } from './column-spool';
import { assertSessionAddress, gpsColumnsKey, sessionKey, SIX_FILE, type SixKind } from './session-files';
import type { SessionEvents } from './session-events.service';
import { commitIndex, type SessionAddress } from './session-index';
import { findSession, keepColumnsSize } from './sessions.repository';
import {
  notASixFile,
  parseLap,
  receiveGps,
  receiveWritten,
  rejectNonSixBody,
  slices,
  type SixDigest,
} from './six-body';
import { recordIntent } from './upload-intents.repository';
import { createUploadRecovery } from './upload-recovery.service';

export type UploadAnswer = z.infer<typeof uploadResponseSchema>;

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
  const { db, blobs, coordination } = deps;

  /** Derived data built after the upload answered; awaited on close so a clean stop loses none. */
  const pendingDerived = new Set<Promise<unknown>>();
  function deriveInBackground(id: string, md5: string, previousMd5: string | undefined, spool: ColumnSpool): void {
    const task = spool
      .store(blobs, gpsColumnsKey(id, md5))
      .then(async (stored) => {
        await keepColumnsSize(db, id, md5, stored.size);
        if (previousMd5 && previousMd5 !== md5) await blobs.delete(gpsColumnsKey(id, previousMd5));
      })
      .catch(() => undefined) // a reader rebuilds it from gps.six
      .finally(() => {
        pendingDerived.delete(task);
        return spool.dispose();
      });
    pendingDerived.add(task);
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
          /**
           * A gps.six Voltas writes itself (an import's): its columns, a batch at a time; with
           * `written`, its text's digest made elsewhere (the text is then never made here).
           */
          | { kind: 'gps'; columns: Iterable<GpsColumns>; written?: SixDigest }
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
          (!lap && Number(existing.gps_from_columns) === 1
            ? !(await blobs.head(gpsColumnsKey(id, md5)))
            : (await blobs.head(key))?.md5Hash !== md5)
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
          await commitIndex(deps, address, 'lap', key, md5, body.length, parsed);
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
        const received =
          'columns' in input && input.written
            ? await receiveWritten(input.columns, input.written, spool)
            : await receiveGps(source, file, spool);
        const { md5, summary } = received;
        checkMd5(md5);
        if (summary.rejection) throw notASixFile('gps', summary.rejection);
        if (summary.indexed === 0)
          throw new AppError('storage/invalid-format', 'No valid gps.six line; nothing was stored.');
        const answer = {
          stored: true,
          unchanged: false,
          key,
          md5Hash: md5,
          size: received.size,
          lines: summary.lines,
          indexed: summary.indexed,
          warnings: summary.problems,
        };
        return await coordination.withKeyLock(key, async () => {
          const { existing, answer: same } = await unchanged(md5);
          if (same) return same;
          if ('columns' in input) {
            // A gps.six Voltas writes (an import's) is kept as its columns alone, durably: every
            // read is of them, and its text is made from them when asked (an export). What it
            // replaces goes: the columns before, and a gps.six blob kept before there was this rule.
            const stored = await spool.store(blobs, gpsColumnsKey(id, md5), true);
            await commitIndex(deps, address, 'gps', key, md5, received.size, summary, stored.size);
            if (existing?.gps_md5 && existing.gps_md5 !== md5)
              await blobs.delete(gpsColumnsKey(id, existing.gps_md5)).catch(() => undefined);
            if (existing?.gps_md5 && Number(existing.gps_from_columns) !== 1)
              await blobs.delete(key).catch(() => undefined);
            return answer;
          }
          await intent(md5);
          fileTaken = true;
          await blobs.putFile(key, file, 'text/plain; charset=utf-8', { md5 });
          await commitIndex(deps, address, 'gps', key, md5, received.size, summary);
          spoolTaken = true;
          deriveInBackground(id, md5, existing?.gps_md5 || undefined, spool);
          return answer;
        });
      } finally {
        if (!fileTaken) await fs.rm(file, { force: true });
        if (!spoolTaken) await spool.dispose();
      }
    },

    ...createUploadRecovery(deps),
  };
}

export type SessionReceiver = ReturnType<typeof createSessionReceiver>;
