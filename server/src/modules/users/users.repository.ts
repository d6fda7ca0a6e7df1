// SQL for the users table: sign-in upserts, profiles, roles, disabling, buyers' details,
// preferences, the Firebase import.
import type { Kysely, Selectable } from 'kysely';
import type { DB, UsersTable } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

export type UserRow = Selectable<UsersTable>;

export function findUser(db: Kysely<DB>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Creates the user on first sign-in (no devices, empty wifi) or refreshes name and avatar. */
export async function upsertUserAtSignIn(
  db: Kysely<DB>,
  input: { email: string; displayName: string; avatarUrl: string; makeAdmin: boolean },
): Promise<UserRow> {
  const now = nowIso();
  await db
    .insertInto('users')
    .values({
      email: input.email,
      display_name: input.displayName,
      avatar_url: input.avatarUrl,
      adm: input.makeAdmin ? '1' : '',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        display_name: input.displayName,
        avatar_url: input.avatarUrl,
        updated_at: now,
        ...(input.makeAdmin ? { adm: '1' } : {}),
      }),
    )
    .execute();
  const row = await findUser(db, input.email);
  if (!row) throw new Error('user vanished after upsert');
  return row;
}

export async function updateProfile(
  db: Kysely<DB>,
  email: string,
  p: { wifi: string; senhaEnc: string; nomePiloto: string; numeroMoto: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      wifi: p.wifi,
      senha_enc: p.senhaEnc,
      nome_piloto: p.nomePiloto,
      numero_moto: p.numeroMoto,
      updated_at: nowIso(),
    })
    .where('email', '=', email)
    .execute();
}

export async function setRoles(
  db: Kysely<DB>,
  email: string,
  roles: { adm: string; seller: string },
): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ adm: roles.adm, seller: roles.seller, updated_at: nowIso() })
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function ensureUser(db: Kysely<DB>, email: string, displayName = ''): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('users')
    .values({ email, display_name: displayName, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
}

export async function setDisabled(db: Kysely<DB>, email: string, disabled: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ disabled: disabled ? 1 : 0, updated_at: nowIso() })
    .where('email', '=', email)
    .execute();
}

/** The user's devices: those they own now, plus those holding sessions they owned when uploaded. */
/** Devices this user owns now, and whether each has an upload token. */
export async function listOwnedDevices(
  db: Kysely<DB>,
  email: string,
): Promise<{ id: string; hasToken: boolean; version: string; lastSeenAt: string | null }[]> {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'token_hash', 'version', 'last_seen_at'])
    .where('owner_email', '=', email)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    hasToken: Boolean(r.token_hash),
    version: r.version,
    lastSeenAt: r.last_seen_at,
  }));
}

export async function listDeviceIdsOf(db: Kysely<DB>, email: string): Promise<string[]> {
  const owned = await db.selectFrom('devices').select('id').where('owner_email', '=', email).execute();
  const withSessions = await db
    .selectFrom('lap_sessions')
    .select('device_id')
    .distinct()
    .where('owner_email', '=', email)
    .execute();
  return [...new Set([...owned.map((r) => r.id), ...withSessions.map((r) => r.device_id)])].sort();
}

/** Wi-Fi passwords sealed before they were bound to their owner (SecretBox v1). */
export function listLegacySealedPasswords(db: Kysely<DB>): Promise<{ email: string; senha_enc: string }[]> {
  return db.selectFrom('users').select(['email', 'senha_enc']).where('senha_enc', 'like', 'v1:%').execute();
}

/** Replaces a sealed password only if it is still `previous` (another instance may have done it). */
export async function replaceSealedPassword(
  db: Kysely<DB>,
  email: string,
  previous: string,
  sealed: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ senha_enc: sealed })
    .where('email', '=', email)
    .where('senha_enc', '=', previous)
    .execute();
}

type ImportedUserFields = {
  adm: string;
  seller: string;
  wifi: string;
  nome_piloto: string;
  numero_moto: string;
  user_seller: string;
};

/** A user moved over from the old installation (Firebase import). */
export async function insertImportedUser(
  db: Kysely<DB>,
  u: ImportedUserFields & { email: string; senha_enc: string },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('users')
    .values({ ...u, created_at: now, updated_at: now })
    .execute();
}

export async function updateImportedUser(
  db: Kysely<DB>,
  email: string,
  fields: ImportedUserFields & { senha_enc?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...fields, updated_at: nowIso() })
    .where('email', '=', email)
    .execute();
}

export async function anyUserExists(db: Kysely<DB>): Promise<boolean> {
  return (await db.selectFrom('users').select('email').limit(1).executeTakeFirst()) !== undefined;
}

/** A buyer's seller and pilot details (the demo rider). */
export async function setBuyerDetails(
  db: Kysely<DB>,
  email: string,
  d: { userSeller: string; nomePiloto: string; numeroMoto: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ user_seller: d.userSeller, nome_piloto: d.nomePiloto, numero_moto: d.numeroMoto, updated_at: nowIso() })
    .where('email', '=', email)
    .execute();
}

/** The rider's stored language and units (null each until they choose). */
export async function findPreferences(
  db: Kysely<DB>,
  email: string,
): Promise<{ language: string | null; units: string | null } | undefined> {
  return db.selectFrom('users').select(['language', 'units']).where('email', '=', email).executeTakeFirst();
}

export async function updatePreferences(
  db: Kysely<DB>,
  email: string,
  p: { language: string; units: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ language: p.language, units: p.units, updated_at: nowIso() })
    .where('email', '=', email)
    .execute();
}
