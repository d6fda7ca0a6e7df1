// Video syncs' use cases: listing, storing (up to a limit per session) and forgetting each rider's own
// alignment of a video file with a session they may read.
import type { Kysely } from 'kysely';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { MAX_VIDEO_SYNCS_PER_SESSION, type VideoSyncRecord } from '#core/contracts/videos.contract.ts';
import { AppError } from '#core/errors.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import type { Viewer } from '../sessions/sessions.repository';
import {
  countVideoSyncs,
  deleteVideoSync,
  hasVideoSync,
  listVideoSyncs,
  putVideoSync,
  type VideoSyncRow,
} from './videos.repository';

function toRecord(row: VideoSyncRow): VideoSyncRecord {
  return {
    id: row.id,
    name: row.name,
    size: row.size,
    fingerprint: row.fingerprint,
    offsetMs: row.offset_ms,
    driftPpm: row.drift_ppm,
    method: row.method as VideoSyncRecord['method'],
    errorMs: row.error_ms,
  };
}

/**
 * How the rider's own video files line up with a session they may read. Each rider's syncs are
 * their own: an admin reading a rider's session, or riders of the demo device, see only theirs,
 * and a share link none (file names can say more than a rider means to share).
 */
export function createVideosService(deps: { db: Kysely<DB>; reader: SessionReader; coordination: Coordination }) {
  const { db } = deps;
  const sessionId = async (viewer: Viewer, s: SessionAddress) => (await deps.reader.sessionOf(viewer, s)).id;

  return {
    async list(viewer: Viewer, s: SessionAddress): Promise<VideoSyncRecord[]> {
      return (await listVideoSyncs(db, viewer.email, await sessionId(viewer, s))).map(toRecord);
    },

    async put(viewer: Viewer, s: SessionAddress, sync: VideoSyncRecord): Promise<VideoSyncRecord> {
      const id = await sessionId(viewer, s);
      const row: VideoSyncRow = {
        owner_email: viewer.email,
        session_id: id,
        id: sync.id,
        name: sync.name,
        size: sync.size,
        fingerprint: sync.fingerprint,
        offset_ms: sync.offsetMs,
        drift_ppm: sync.driftPpm,
        method: sync.method,
        error_ms: sync.errorMs,
        updated_at: nowIso(),
      };
      // Counting and storing under one lock per rider and session (across instances on PostgreSQL):
      // otherwise PUTs sent at once all count 49 and all store.
      await deps.coordination.withKeyLock(`video-syncs:${viewer.email}:${id}`, async () => {
        const isNew = !(await hasVideoSync(db, viewer.email, id, sync.id));
        if (isNew && (await countVideoSyncs(db, viewer.email, id)) >= MAX_VIDEO_SYNCS_PER_SESSION)
          throw new AppError('video/limit-reached');
        await putVideoSync(db, row);
      });
      return toRecord(row);
    },

    /** Forgetting is idempotent: a sync already gone (another tab forgot it) is forgotten. */
    async remove(viewer: Viewer, s: SessionAddress, videoId: string): Promise<void> {
      await deleteVideoSync(db, viewer.email, await sessionId(viewer, s), videoId);
    },
  };
}
export type VideosService = ReturnType<typeof createVideosService>;
