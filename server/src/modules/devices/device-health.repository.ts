// SQL of device health (issue 61): each check-in's figures on the device's row (the latest) and in a
// history bounded per device; the fleet as admins and sellers read it.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CheckInInput } from '#core/contracts/firmware.contract.ts';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

/** Check-ins kept per device: about a month of one a few times a day. */
export const HEALTH_ROWS_KEPT = 200;

/** Time-sortable within a device's rows: `<ms base36>-<random>`. */
const healthId = (ms: number) => `${ms.toString(36).padStart(10, '0')}-${randomBytes(4).toString('hex')}`;

/**
 * Records a check-in: the device's row (its version, `up` = when it was heard, the figures, and its
 * hardware class if it had none) and a history row, trimming the history to HEALTH_ROWS_KEPT.
 */
export async function recordCheckIn(db: Kysely<DB>, id: string, c: CheckInInput, when?: Date): Promise<void> {
  // `when`: the demo's history, made of check-ins in the past.
  const at = when ? when.toISOString() : nowIso();
  const figures = {
    battery: c.battery ?? null,
    free_storage_kb: c.freeStorageKb ?? null,
    queued_sessions: c.queuedSessions ?? null,
    last_upload_error: c.lastUploadError || null,
    reset_reason: c.resetReason ?? null,
    rssi: c.rssi ?? null,
    uptime_s: c.uptimeS ?? null,
  };
  await db
    .updateTable('devices')
    .set((eb) => ({
      version: c.firmware.version,
      up: at,
      last_seen_at: at,
      checked_in_at: at,
      hardware_class: eb.fn.coalesce('hardware_class', eb.val(c.hardware.class)),
      firmware_slot: c.firmware.slot ?? null,
      pending_verify: c.firmware.pendingVerify ? 1 : 0,
      charging: c.charging ? 1 : 0,
      ...figures,
    }))
    .where('id', '=', id)
    .execute();
  await db
    .insertInto('device_health')
    .values({ id: healthId(Date.parse(at)), device_id: id, at, version: c.firmware.version, ...figures })
    .execute();
  // The oldest beyond the kept number go, in one statement (no row at that offset yet: nothing goes).
  await db
    .deleteFrom('device_health')
    .where('device_id', '=', id)
    .where('id', '<', (eb) =>
      eb
        .selectFrom('device_health')
        .select('id')
        .where('device_id', '=', id)
        .orderBy('id', 'desc')
        .offset(HEALTH_ROWS_KEPT - 1)
        .limit(1),
    )
    .execute();
}

export function healthHistory(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('device_health')
    .selectAll()
    .where('device_id', '=', id)
    .orderBy('id', 'desc')
    .limit(HEALTH_ROWS_KEPT)
    .execute();
}

/** How many of each device's kept check-ins reported an upload error. */
export async function uploadErrorCounts(db: Kysely<DB>, ids?: string[]): Promise<Map<string, number>> {
  if (ids && !ids.length) return new Map();
  let q = db
    .selectFrom('device_health')
    .select(['device_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('last_upload_error', 'is not', null)
    .groupBy('device_id');
  if (ids) q = q.where('device_id', 'in', ids);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.device_id, Number(r.n)]));
}

/**
 * Devices with their latest health: every device (`seller` undefined), or a seller's: their stock
 * and the devices of their buyers (never another seller's).
 */
export function devicesWithHealth(db: Kysely<DB>, scope: { seller?: string; owner?: string } = {}) {
  let q = db
    .selectFrom('devices')
    .leftJoin('users', 'users.email', 'devices.owner_email')
    .select([
      'devices.id',
      'devices.name',
      'devices.owner_email',
      'devices.seller_email',
      'devices.version',
      'devices.up',
      'devices.last_seen_at',
      'devices.hardware_class',
      'devices.firmware_slot',
      'devices.pending_verify',
      'devices.battery',
      'devices.charging',
      'devices.free_storage_kb',
      'devices.queued_sessions',
      'devices.last_upload_error',
      'devices.reset_reason',
      'devices.rssi',
      'devices.uptime_s',
    ])
    .orderBy('devices.id');
  const { seller, owner } = scope;
  if (seller !== undefined)
    q = q.where((eb) => eb.or([eb('devices.seller_email', '=', seller), eb('users.user_seller', '=', seller)]));
  if (owner !== undefined) q = q.where('devices.owner_email', '=', owner);
  return q.execute();
}
export type DeviceHealthRow = Awaited<ReturnType<typeof devicesWithHealth>>[number];
