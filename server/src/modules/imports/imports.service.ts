// Sessions riders import from other loggers: one file at a time, kept byte for byte, merged with
// the other files of its day and track into one session; and deleting an imported session.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Kysely } from 'kysely';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import { dateToDdmmyyyy } from '#core/formats/dates.ts';
import { localDay } from '#core/imports/local-time.ts';
import { sessionTrace } from '#core/imports/to-session.ts';
import { lapRenames } from '#core/laps/session-laps.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { Coordination } from '#server/db/coordination.ts';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { SessionReceiver } from '../sessions/session-receiver.service';
import { derivedKey, gpsColumnsKey, sessionKey } from '../sessions/session-files';
import { STUDY_FILE } from '../tracks/kept-studies';
import { findSession, listLaps, type Viewer } from '../sessions/sessions.repository';
import { lapSharesOf, renameSharedLap } from '../shares/shares.repository';
import type { TracksService } from '../tracks/tracks.service';
import { firstBytesCheck, importTooLarge, putRaw, receiveImportBody, recordRaw, storedAnswer } from './import-body';
import { createSessionBuilder, trackSegment } from './import-session';
import {
  deleteImportedSession,
  ensureCollection,
  findCollection,
  findImportFile,
  listImportFiles,
} from './imports.repository';
import { createImportWorkers, DEFAULT_IMPORT_LIMITS, type ImportLimits } from './import-worker';
import { createQuota, SESSION_BYTES_PER_FIX } from './import-quota';
import { DEFAULT_SESSION_BOUNDS, tooManyFiles, type SessionBounds } from './session-merge';

/**
 * Sessions riders import from other loggers. A file is kept byte for byte in the blob store; its
 * fixes become the session's gps.six and its laps, timed by Voltas at the track the trace ran on,
 * its lap.six, received through the same receiver as a device's files (validation, index,
 * recovery). Two files of one rider at one track on one day make one session (their traces
 * merged), as one day with a device does.
 */
export function createImportsService(deps: {
  db: Kysely<DB>;
  blobs: BlobStore;
  receiver: SessionReceiver;
  tracks: TracksService;
  coordination: Coordination;
  /** Size, inflation, memory and time limits (tests make them small). */
  limits?: Partial<ImportLimits>;
  /** Files and fixes a session takes at most (tests make them small). */
  bounds?: Partial<SessionBounds>;
  /** What each rider may store, bytes (RIDER_QUOTA_MB); none: no quota (the CLI, an operator's). */
  quotaBytes?: number;
}) {
  const { db, blobs, receiver, tracks, coordination } = deps;
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...deps.limits };
  const bounds: SessionBounds = {
    maxSessionFiles: deps.bounds?.maxSessionFiles ?? DEFAULT_SESSION_BOUNDS.maxSessionFiles,
    maxSessionFixes: deps.bounds?.maxSessionFixes ?? DEFAULT_SESSION_BOUNDS.maxSessionFixes,
  };
  const quota = createQuota(db, deps.quotaBytes ?? Infinity);
  const workers = createImportWorkers(limits);
  const { buildSession, attachLapSix } = createSessionBuilder({ db, receiver, tracks, workers });
  const tooLarge = () => importTooLarge(limits.maxBytes);
  async function collectionOf(owner: string): Promise<string> {
    return (
      (await findCollection(db, owner)) ?? ensureCollection(db, owner, `imp${randomBytes(6).toString('hex')}`, nowIso())
    );
  }

  /** The raw files of a session's earlier imports, copied to temp files for a worker to read (none missing). */
  async function rawCopies(rows: { blob_key: string; filename: string }[]) {
    const copies: { file: string; name: string }[] = [];
    try {
      for (const f of rows) {
        const src = await blobs.getStream(f.blob_key);
        if (!src) continue;
        const tmp = await blobs.tempPath();
        copies.push({ file: tmp, name: f.filename });
        await fs.writeFile(tmp, src.body as AsyncIterable<Uint8Array>);
      }
    } catch (err) {
      for (const f of copies) await fs.rm(f.file, { force: true });
      throw err;
    }
    return copies;
  }

  return {
    /**
     * Imports one file for `owner`. 201 with what was found, or 200 with the same answer when
     * these bytes were imported before. Refusals (415, 413, 422) store nothing.
     */
    async importFile(
      owner: string,
      filename: string,
      body: AsyncIterable<Uint8Array>,
      /** `expectedBytes`: the body's declared length, when known (over the limit: refused before any byte is read). */
      options: { trackName?: string; expectedBytes?: number } = {},
    ): Promise<{ created: boolean; answer: ImportAnswer }> {
      // A body declared larger than the limit is refused before any of it is read.
      if (options.expectedBytes !== undefined && options.expectedBytes > limits.maxBytes) throw tooLarge();
      const check = firstBytesCheck(filename);
      const received = await receiveImportBody(blobs, limits.maxBytes, body, check.push);
      let kept = false;
      try {
        const before = await findImportFile(db, owner, received.md5);
        if (before && (await findSession(db, before.session_id)))
          return { created: false, answer: storedAnswer(before.answer) };
        check.end();
        await quota.check(owner, received.size); // before a worker reads it; again below with its fixes
        const collection = await collectionOf(owner);
        const read = await workers.read(received.file, filename);
        if (read.kind === 'lap.six') {
          // The device's own laps for a gps.six already imported: kept as that session's lap.six.
          const { row, answer } = await attachLapSix(collection, read.text);
          await receiver.receive({
            deviceId: collection,
            owner,
            track: row.track,
            date: row.date,
            kind: 'lap',
            body: await fs.readFile(received.file),
          });
          const full: ImportAnswer = { ...answer, format: 'lap.six', replacedLaps: true };
          await recordRaw(
            db,
            owner,
            received,
            row.id,
            await putRaw(blobs, received, row.id),
            filename,
            'lap.six',
            full,
          );
          kept = true;
          return { created: true, answer: full };
        }
        const file = read.file;
        await quota.check(owner, received.size + file.trace.count * SESSION_BYTES_PER_FIX);
        const day = localDay(file.trace);
        const trace = sessionTrace(file.trace); // done in the worker already: here only its session view (again changes nothing)
        const track = await tracks.identify(trace, owner);
        const date = dateToDdmmyyyy(new Date(Date.UTC(day.y, day.m - 1, day.d)));
        const trackName = trackSegment(options.trackName ?? track.name);
        const id = sessionKey(collection, trackName, date);
        return await coordination.withKeyLock(`import:${id}`, async () => {
          // The other files of that day at that track: at most maxSessionFiles (with this one).
          const earlierRows = (await listImportFiles(db, id)).filter((f) => f.format !== 'lap.six');
          if (earlierRows.length >= bounds.maxSessionFiles) throw tooManyFiles(bounds.maxSessionFiles);
          const earlier = await rawCopies(earlierRows);
          const lapLinks = await lapSharesOf(db, id);
          const named = async () =>
            (await listLaps(db, id)).map((l) => ({ name: `${l.heat}${l.lapCount}`, ms: l.lapTimeMs }));
          const lapsBefore = lapLinks.length ? await named() : [];
          // The raw file goes to the blob store while the session is built: its write and sync overlap that work.
          const rawStored = putRaw(blobs, received, id);
          rawStored.catch(() => undefined); // awaited below
          let built: Awaited<ReturnType<typeof buildSession>>;
          try {
            built = await buildSession(
              { collection, owner, track: trackName, date },
              track.id,
              track.definition,
              earlier,
              { file, name: filename, trace },
              bounds.maxSessionFixes,
            );
          } catch (err) {
            await rawStored.then((key) => blobs.delete(key)).catch(() => undefined);
            throw err;
          } finally {
            for (const f of earlier) await fs.rm(f.file, { force: true });
          }
          const answer: ImportAnswer = {
            session: { device: collection, track: trackName, date },
            format: file.format,
            track: { id: track.id, name: track.name, source: track.source },
            ...built,
          };
          await recordRaw(db, owner, received, id, await rawStored, filename, file.format, answer);
          kept = true;
          // A file from earlier that day numbers the heats again: a link to one lap keeps showing that lap.
          if (lapLinks.length) {
            const renames = lapRenames(lapsBefore, await named());
            for (const link of lapLinks) {
              const now = renames.get(link.lap);
              if (now && now !== link.lap) await renameSharedLap(db, link.id, now);
            }
          }
          return { created: true, answer };
        });
      } finally {
        if (!kept) await fs.rm(received.file, { force: true });
      }
    },

    /** What the rider stores and may store, bytes. */
    storage: (owner: string) => quota.use(owner),

    /** The limits this service was made with (the route's body limit is its `maxBytes`). */
    limits,

    /** Stops the import workers still reading (the server is closing). */
    close: () => workers.close(),

    /** Deletes an imported session: only its importer, and only an imported one. */
    async deleteSession(viewer: Viewer, s: SessionAddress, canSee: boolean): Promise<void> {
      const collection = await findCollection(db, viewer.email);
      if (!collection || s.device !== collection) {
        if (canSee) throw new AppError('import/not-imported');
        throw new AppError('storage/object-not-found');
      }
      const id = sessionKey(s.device, s.track, s.date);
      await coordination.withKeyLock(`import:${id}`, async () => {
        const row = await findSession(db, id);
        if (!row || row.owner_email !== viewer.email) throw new AppError('storage/object-not-found');
        const files = await listImportFiles(db, id);
        await deleteImportedSession(db, id);
        const keys = [`${id}/gps.six`, `${id}/lap.six`, ...files.map((f) => f.blob_key)];
        if (row.gps_md5) keys.push(gpsColumnsKey(id, row.gps_md5));
        keys.push(derivedKey(id, STUDY_FILE));
        for (const key of keys) await blobs.delete(key).catch(() => undefined);
      });
    },
  };
}
export type ImportsService = ReturnType<typeof createImportsService>;
