// Recovery of uploads cut short between the blob write and the index update (a crash, a kill, a
// restore): the blob is the truth, the index follows it.
import type { Kysely } from 'kysely';
import { decodeSixBody } from '#core/formats/six-lines.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import { parseStoredGps } from './column-spool';
import type { SessionEvents } from './session-events.service';
import { SIX_FILE } from './session-files';
import { commitIndex } from './session-index';
import { listVisibleSessions, SYSTEM_VIEWER } from './sessions.repository';
import { parseLap, type ParsedSix } from './six-body';
import { deleteIntent, findIntent, listIntentKeys, recordIntent } from './upload-intents.repository';

export function createUploadRecovery(deps: {
  db: Kysely<DB>;
  blobs: BlobStore;
  coordination: Coordination;
  events: SessionEvents;
}) {
  const { db, blobs, coordination } = deps;

  /**
   * Finishes uploads interrupted between the blob write and the index update (a crash, a
   * kill): the blob holds the new bytes → index them; it holds the old ones → drop the intent.
   * Runs at start-up, before the server listens, and now and then after.
   */
  async function recoverInterruptedUploads(): Promise<{ reindexed: number; dropped: number }> {
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
            deps,
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
  }

  /**
   * After a restore: every file whose blob is newer than the database copy becomes an
   * interrupted upload, which recovery indexes from the blob (the same path as after a crash).
   */
  async function reindexBlobsNewerThanIndex(): Promise<number> {
    for (const row of await listVisibleSessions(db, SYSTEM_VIEWER)) {
      for (const [kind, md5] of [
        ['lap', row.lap_md5],
        ['gps', row.gps_md5],
      ] as const) {
        // An import's gps.six has no blob of its own (its columns hold it): nothing to compare.
        if (!md5 || (kind === 'gps' && Number(row.gps_from_columns) === 1)) continue;
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
    return (await recoverInterruptedUploads()).reindexed;
  }

  return { recoverInterruptedUploads, reindexBlobsNewerThanIndex };
}
