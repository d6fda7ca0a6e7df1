import type { Kysely, Selectable } from 'kysely';
import { preparedQuery } from '../../db/prepared';
import type { DB, DevicesTable } from '../../db/schema';
import { nowIso } from '../../lib/tokens';

export type DeviceRow = Selectable<DevicesTable>;

export function findDevice(db: Kysely<DB>, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
}

// Every device request reads this: compiled once (see preparedQuery).
const deviceByToken = preparedQuery((db, tokenHash: string) => db.selectFrom('devices').selectAll().where('token_hash', '=', tokenHash));

export function findDeviceByTokenHash(db: Kysely<DB>, tokenHash: string): Promise<DeviceRow | undefined> {
  return deviceByToken.first(db, tokenHash);
}

export async function insertDevice(db: Kysely<DB>, d: { id: string; owner: string; seller: string; tokenHash: string; name?: string }): Promise<void> {
  await db
    .insertInto('devices')
    .values({ id: d.id, owner_email: d.owner, seller_email: d.seller, token_hash: d.tokenHash, name: d.name ?? '', created_at: nowIso() })
    .execute();
}

export async function setDeviceToken(db: Kysely<DB>, id: string, tokenHash: string): Promise<boolean> {
  const res = await db.updateTable('devices').set({ token_hash: tokenHash }).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function setDeviceOwner(db: Kysely<DB>, id: string, owner: string): Promise<void> {
  await db.updateTable('devices').set({ owner_email: owner }).where('id', '=', id).execute();
}

export async function recordDeviceStatus(db: Kysely<DB>, id: string, status: { version: string; up: string }): Promise<void> {
  await db.updateTable('devices').set({ version: status.version, up: status.up, last_seen_at: nowIso() }).where('id', '=', id).execute();
}

export async function touchDevice(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('devices').set({ last_seen_at: nowIso() }).where('id', '=', id).execute();
}
