// SQL of upload intents: written before a blob is replaced, removed with the index update.
import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';
import type { SixKind } from './session-files';

export interface UploadIntent {
  blobKey: string;
  md5: string;
  deviceId: string;
  track: string;
  date: string;
  kind: SixKind;
  owner: string;
}

/** Written before a blob is replaced: what recovery finishes if the index update never comes. */
export async function recordIntent(db: Kysely<DB>, i: UploadIntent): Promise<void> {
  await db
    .insertInto('upload_intents')
    .values({
      blob_key: i.blobKey,
      md5: i.md5,
      device_id: i.deviceId,
      track: i.track,
      date: i.date,
      kind: i.kind,
      owner_email: i.owner,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.column('blob_key').doUpdateSet({ md5: i.md5, owner_email: i.owner, created_at: nowIso() }))
    .execute();
}

/** Removes the intent for this version of the file (in the index update's transaction). */
export async function deleteIntent(db: Kysely<DB>, blobKey: string, md5: string): Promise<void> {
  await db.deleteFrom('upload_intents').where('blob_key', '=', blobKey).where('md5', '=', md5).execute();
}

export async function listIntentKeys(db: Kysely<DB>): Promise<string[]> {
  return (await db.selectFrom('upload_intents').select('blob_key').execute()).map((r) => r.blob_key);
}

export async function findIntent(db: Kysely<DB>, blobKey: string): Promise<UploadIntent | undefined> {
  const r = await db.selectFrom('upload_intents').selectAll().where('blob_key', '=', blobKey).executeTakeFirst();
  return (
    r && {
      blobKey: r.blob_key,
      md5: r.md5,
      deviceId: r.device_id,
      track: r.track,
      date: r.date,
      kind: r.kind === 'gps' ? 'gps' : 'lap',
      owner: r.owner_email,
    }
  );
}
