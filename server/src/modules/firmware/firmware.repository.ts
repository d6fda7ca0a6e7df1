// SQL of firmware images, rollouts and each device's step in a rollout (issue 61).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, FirmwareTable, RolloutsTable } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

export type FirmwareRow = Selectable<FirmwareTable>;
export type RolloutRow = Selectable<RolloutsTable>;

export function insertFirmware(db: Kysely<DB>, row: Omit<FirmwareRow, 'image_stored'>): Promise<unknown> {
  return db.insertInto('firmware').values(row).execute();
}

export function findFirmware(db: Kysely<DB>, id: string): Promise<FirmwareRow | undefined> {
  return db.selectFrom('firmware').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listFirmware(db: Kysely<DB>): Promise<FirmwareRow[]> {
  return db.selectFrom('firmware').selectAll().orderBy('class').orderBy('seq', 'desc').execute();
}

/** The highest seq a class has (0 for a class with no image yet). */
export async function lastSeqOfClass(db: Kysely<DB>, hardwareClass: string): Promise<number> {
  const row = await db
    .selectFrom('firmware')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('class', '=', hardwareClass)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function markImageStored(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('firmware').set({ image_stored: 1 }).where('id', '=', id).execute();
}

export function insertRollout(db: Kysely<DB>, row: Omit<RolloutRow, 'halt_reason' | 'halt_figures'>): Promise<unknown> {
  return db.insertInto('rollouts').values(row).execute();
}

export function findRollout(db: Kysely<DB>, id: string): Promise<RolloutRow | undefined> {
  return db.selectFrom('rollouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listRollouts(db: Kysely<DB>): Promise<RolloutRow[]> {
  return db.selectFrom('rollouts').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Sets the state only from one of `from`: a halt and an admin's resume racing cannot both win. */
export async function setRolloutState(
  db: Kysely<DB>,
  id: string,
  from: string[],
  to: { state?: string; percent?: number; halt_reason?: string; halt_figures?: string },
): Promise<boolean> {
  const res = await db
    .updateTable('rollouts')
    .set({ ...to, updated_at: nowIso() })
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Running rollouts of one hardware class with their image, newest image first. */
export function runningRolloutsOfClass(db: Kysely<DB>, hardwareClass: string) {
  return db
    .selectFrom('rollouts')
    .innerJoin('firmware', 'firmware.id', 'rollouts.firmware_id')
    .selectAll('rollouts')
    .select([
      'firmware.version',
      'firmware.seq',
      'firmware.manifest',
      'firmware.signature',
      'firmware.expires',
      'firmware.min_from',
    ])
    .where('firmware.class', '=', hardwareClass)
    .where('rollouts.state', '=', 'running')
    .orderBy('firmware.seq', 'desc')
    .execute();
}

export function findRolloutDevice(db: Kysely<DB>, rolloutId: string, deviceId: string) {
  return db
    .selectFrom('rollout_devices')
    .selectAll()
    .where('rollout_id', '=', rolloutId)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
}

/** Every device's steps in every rollout, with the image's version, newest offer first. */
export function rolloutStepsOfDevices(db: Kysely<DB>) {
  return db
    .selectFrom('rollout_devices')
    .innerJoin('rollouts', 'rollouts.id', 'rollout_devices.rollout_id')
    .innerJoin('firmware', 'firmware.id', 'rollouts.firmware_id')
    .select([
      'rollout_devices.device_id',
      'rollout_devices.rollout_id',
      'rollout_devices.state',
      'rollout_devices.error',
      'rollout_devices.offered_at',
      'firmware.version',
    ])
    .orderBy('rollout_devices.offered_at', 'desc')
    .execute();
}

/** The first offer to a device (an offer made again keeps its row as it is). */
export async function recordOffer(db: Kysely<DB>, rolloutId: string, deviceId: string): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('rollout_devices')
    .values({
      rollout_id: rolloutId,
      device_id: deviceId,
      state: 'offered',
      error: null,
      offered_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['rollout_id', 'device_id']).doNothing())
    .execute();
}

export async function recordStep(
  db: Kysely<DB>,
  rolloutId: string,
  deviceId: string,
  step: { state: string; error: string | null; downloaded: boolean },
): Promise<void> {
  await db
    .updateTable('rollout_devices')
    .set({
      state: step.state,
      error: step.error,
      updated_at: nowIso(),
      ...(step.downloaded ? { downloaded: 1 } : {}),
    })
    .where('rollout_id', '=', rolloutId)
    .where('device_id', '=', deviceId)
    .execute();
}

export interface Funnel {
  offered: number;
  downloaded: number;
  confirmed: number;
  failed: number;
  failures: Record<string, number>;
}

const FAILED_STATES = ['failed', 'rolled-back'];

/** Each rollout's funnel: offered, downloaded, confirmed after rebooting, failed or rolled back, failures by code. */
export async function funnels(db: Kysely<DB>, rolloutIds: string[]): Promise<Map<string, Funnel>> {
  const out = new Map<string, Funnel>(
    rolloutIds.map((id) => [id, { offered: 0, downloaded: 0, confirmed: 0, failed: 0, failures: {} }]),
  );
  if (!rolloutIds.length) return out;
  const rows = await db
    .selectFrom('rollout_devices')
    .select(['rollout_id', 'state', 'downloaded'])
    .select(sql<string>`coalesce(error, state)`.as('code'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('rollout_id', 'in', rolloutIds)
    .groupBy(['rollout_id', 'state', 'downloaded', sql`coalesce(error, state)`])
    .execute();
  for (const row of rows) {
    const f = out.get(row.rollout_id)!;
    const n = Number(row.n);
    f.offered += n;
    if (row.downloaded) f.downloaded += n;
    if (row.state === 'confirmed') f.confirmed += n;
    if (FAILED_STATES.includes(row.state)) {
      f.failed += n;
      f.failures[row.code] = (f.failures[row.code] ?? 0) + n;
    }
  }
  return out;
}

// ---- Who is in a cohort ----

export async function setUserCohort(db: Kysely<DB>, email: string, cohort: string): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ firmware_cohort: cohort })
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export function cohortMembers(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .select(['email', 'firmware_cohort'])
    .where('firmware_cohort', '!=', '')
    .orderBy('email')
    .execute();
}

/** What a rollout's cohorts look at about one device: its owner's cohort flag and seller, its seller. */
export async function cohortFactsOfDevice(db: Kysely<DB>, deviceId: string) {
  const row = await db
    .selectFrom('devices')
    .leftJoin('users', 'users.email', 'devices.owner_email')
    .select(['devices.seller_email', 'users.firmware_cohort', 'users.user_seller'])
    .where('devices.id', '=', deviceId)
    .executeTakeFirst();
  return cohortFacts(row);
}

/** A device's owner's cohort flag, and the sellers whose cohort holds it (its own seller, its owner's). */
function cohortFacts(
  row: { seller_email: string; firmware_cohort: string | null; user_seller: string | null } | undefined,
) {
  return {
    cohort: row?.firmware_cohort ?? '',
    sellers: [row?.seller_email ?? '', row?.user_seller ?? ''].filter(Boolean),
  };
}

/** Devices a rollout has offered its image to that have not finished (confirmed, failed, rolled back). */
export async function unfinishedOffers(db: Kysely<DB>, rolloutId: string): Promise<number> {
  const row = await db
    .selectFrom('rollout_devices')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('rollout_id', '=', rolloutId)
    .where('state', 'not in', ['confirmed', ...FAILED_STATES])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The devices of one hardware class that a rollout has not offered its image to, with what its
 * cohorts and version rules look at: their version and cohort facts (as cohortFactsOfDevice).
 */
export async function devicesNotOffered(db: Kysely<DB>, rolloutId: string, hardwareClass: string) {
  const rows = await db
    .selectFrom('devices')
    .leftJoin('users', 'users.email', 'devices.owner_email')
    .select(['devices.id', 'devices.version', 'devices.seller_email', 'users.firmware_cohort', 'users.user_seller'])
    .where('devices.hardware_class', '=', hardwareClass)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('rollout_devices')
            .select('rollout_devices.device_id')
            .where('rollout_devices.rollout_id', '=', rolloutId)
            .whereRef('rollout_devices.device_id', '=', 'devices.id'),
        ),
      ),
    )
    .execute();
  return rows.map((r) => ({ id: r.id, version: r.version, facts: cohortFacts(r) }));
}

/** Whether the device has a session upload in flight (an intent not yet settled). */
export async function uploadInFlight(db: Kysely<DB>, deviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('upload_intents')
    .select('blob_key')
    .where('device_id', '=', deviceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
