// SQL for the devices table: lookups by id and token, registration, tokens, owners, last status, the Firebase import.
import type { Kysely, Selectable } from 'kysely';
import type { DB, DevicesTable } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

export type DeviceRow = Selectable<DevicesTable>;

export function findDevice(db: Kysely<DB>, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
}

/** With the owner's disabled flag: a disabled owner's device may neither upload nor read the configuration. */
export async function findDeviceByTokenHash(
  db: Kysely<DB>,
  tokenHash: string,
): Promise<{ id: string; owner: string; ownerDisabled: boolean } | undefined> {
  const row = await db
    .selectFrom('devices')
    .leftJoin('users', 'users.email', 'devices.owner_email')
    .select(['devices.id', 'devices.owner_email', 'users.disabled as owner_disabled'])
    .where('devices.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && { id: row.id, owner: row.owner_email, ownerDisabled: Number(row.owner_disabled ?? 0) !== 0 };
}

/** `ifAbsent`: an existing device is left as it is (loading the demo again changes nothing). */
export async function insertDevice(
  db: Kysely<DB>,
  d: { id: string; owner: string; seller: string; tokenHash: string; name?: string },
  opts: { ifAbsent?: boolean } = {},
): Promise<void> {
  let insert = db.insertInto('devices').values({
    id: d.id,
    owner_email: d.owner,
    seller_email: d.seller,
    token_hash: d.tokenHash,
    name: d.name ?? '',
    created_at: nowIso(),
  });
  if (opts.ifAbsent) insert = insert.onConflict((oc) => oc.column('id').doNothing());
  await insert.execute();
}

export async function setDeviceToken(db: Kysely<DB>, id: string, tokenHash: string): Promise<boolean> {
  const res = await db.updateTable('devices').set({ token_hash: tokenHash }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * A change of owner replaces the device's token in the same statement: a token issued while the
 * previous owner had the device stops working (null: no token until one is issued).
 */
export async function setDeviceOwner(
  db: Kysely<DB>,
  id: string,
  owner: string,
  tokenHash: string | null,
): Promise<void> {
  await db.updateTable('devices').set({ owner_email: owner, token_hash: tokenHash }).where('id', '=', id).execute();
}

export async function revokeDeviceToken(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('devices').set({ token_hash: null }).where('id', '=', id).execute();
}

export async function recordDeviceStatus(
  db: Kysely<DB>,
  id: string,
  status: { version: string; up: string },
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ version: status.version, up: status.up, last_seen_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function touchDevice(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('devices').set({ last_seen_at: nowIso() }).where('id', '=', id).execute();
}

type ImportedDeviceFields = { owner_email: string; seller_email: string; up: string; version: string; name: string };

/** A device moved over from the old installation: no token (those devices authenticated differently). */
export async function insertImportedDevice(db: Kysely<DB>, d: ImportedDeviceFields & { id: string }): Promise<void> {
  await db
    .insertInto('devices')
    .values({ ...d, token_hash: null, created_at: nowIso() })
    .execute();
}

/** Updates an imported device; `revokeToken` when its owner changed (a new owner never inherits a token). */
export async function updateImportedDevice(
  db: Kysely<DB>,
  id: string,
  fields: ImportedDeviceFields,
  opts: { revokeToken: boolean },
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ ...fields, ...(opts.revokeToken ? { token_hash: null } : {}) })
    .where('id', '=', id)
    .execute();
}
