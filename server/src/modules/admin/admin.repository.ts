// The admin screens' reads and writes: users with their devices and sellers, and the devices list.
import type { Kysely } from 'kysely';
import type { AdminDevice, AdminUser } from '#core/contracts/admin.contract.ts';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

export async function listUsersWithHardware(
  db: Kysely<DB>,
  filter: { userSeller?: string; sellersOnly?: boolean } = {},
): Promise<AdminUser[]> {
  let q = db.selectFrom('users').selectAll().orderBy('email');
  if (filter.userSeller !== undefined) q = q.where('user_seller', '=', filter.userSeller);
  if (filter.sellersOnly) q = q.where('seller', '!=', '');
  const users = await q.execute();
  const devices = await db.selectFrom('devices').select(['id', 'owner_email']).orderBy('id').execute();
  const byOwner = new Map<string, string[]>();
  for (const d of devices) byOwner.set(d.owner_email, [...(byOwner.get(d.owner_email) ?? []), d.id]);
  return users.map((u) => ({
    email: u.email,
    displayName: u.display_name,
    hardware: byOwner.get(u.email) ?? [],
    adm: u.adm,
    seller: u.seller,
    nomePiloto: u.nome_piloto,
    numeroMoto: u.numero_moto,
    wifi: u.wifi,
    userSeller: u.user_seller,
    disabled: Number(u.disabled) !== 0,
  }));
}

export async function listDevices(
  db: Kysely<DB>,
  filter: { seller?: string; owner?: string } = {},
): Promise<AdminDevice[]> {
  let q = db.selectFrom('devices').selectAll().orderBy('id');
  if (filter.seller !== undefined) q = q.where('seller_email', '=', filter.seller);
  if (filter.owner !== undefined) q = q.where('owner_email', '=', filter.owner);
  const rows = await q.execute();
  return rows.map((d) => ({
    id: d.id,
    owner: d.owner_email,
    seller: d.seller_email,
    up: d.up,
    version: d.version,
    name: d.name,
    lastSeenAt: d.last_seen_at,
  }));
}

export async function setUserSeller(db: Kysely<DB>, buyer: string, seller: string): Promise<void> {
  await db.updateTable('users').set({ user_seller: seller, updated_at: nowIso() }).where('email', '=', buyer).execute();
}

export async function setDeviceSeller(db: Kysely<DB>, id: string, seller: string): Promise<void> {
  await db.updateTable('devices').set({ seller_email: seller }).where('id', '=', id).execute();
}
