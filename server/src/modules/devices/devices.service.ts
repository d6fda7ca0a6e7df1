import type { Kysely } from 'kysely';
import type { Attention, DeviceHealth, Fleet } from '#core/contracts/device-health.contract.ts';
import type { CheckInInput } from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { findDevice, findDeviceByTokenHash, recordDeviceStatus, touchDevice } from './devices.repository';
import {
  devicesWithHealth,
  healthHistory,
  recordCheckIn,
  uploadErrorCounts,
  type DeviceHealthRow,
} from './device-health.repository';

/** When a device is listed first: silent this long, this little storage left, this little battery. */
const ATTENTION = { silentAfterHours: 72, lowStorageKb: 10_240, lowBatteryPct: 15 };

/** A device's rollout step, as the fleet view shows it (admins only). */
export interface RolloutStep {
  device_id: string;
  rollout_id: string;
  state: string;
  error: string | null;
  version: string;
}

function attentionOf(row: DeviceHealthRow, now: number): Attention[] {
  const out: Attention[] = [];
  if (row.last_seen_at && now - Date.parse(row.last_seen_at) > ATTENTION.silentAfterHours * 3_600_000)
    out.push('silent');
  if (row.free_storage_kb !== null && row.free_storage_kb < ATTENTION.lowStorageKb) out.push('low-storage');
  if (row.last_upload_error) out.push('upload-errors');
  if (row.battery !== null && !row.charging && row.battery < ATTENTION.lowBatteryPct) out.push('low-battery');
  return out;
}

/** What the device API needs about devices (who a token is, what a device says of itself), and the fleet's health. */
export function createDevicesService(db: Kysely<DB>) {
  async function fleet(scope: { seller?: string }, steps: RolloutStep[] | null): Promise<Fleet> {
    const rows = await devicesWithHealth(db, scope);
    const errors = await uploadErrorCounts(db, scope.seller === undefined ? undefined : rows.map((r) => r.id));
    const stepOf = new Map<string, RolloutStep>();
    for (const s of steps ?? []) if (!stepOf.has(s.device_id)) stepOf.set(s.device_id, s);
    const now = Date.now();
    const devices: DeviceHealth[] = rows.map((r) => {
      const step = stepOf.get(r.id);
      return {
        id: r.id,
        name: r.name,
        owner: r.owner_email,
        seller: r.seller_email,
        version: r.version,
        up: r.up,
        lastSeenAt: r.last_seen_at,
        hardwareClass: r.hardware_class,
        slot: r.firmware_slot,
        pendingVerify: r.pending_verify === 1,
        battery: r.battery,
        freeStorageKb: r.free_storage_kb,
        queuedSessions: r.queued_sessions,
        lastUploadError: r.last_upload_error,
        uploadErrors: errors.get(r.id) ?? 0,
        resetReason: r.reset_reason,
        rssi: r.rssi,
        uptimeS: r.uptime_s,
        rollout: step ? { id: step.rollout_id, version: step.version, state: step.state, error: step.error } : null,
        attention: attentionOf(r, now),
      };
    });
    devices.sort((a, b) => b.attention.length - a.attention.length || (a.id < b.id ? -1 : 1));
    const spread = new Map<string, { class: string; version: string; devices: number }>();
    for (const d of devices) {
      if (!d.version) continue;
      const key = `${d.hardwareClass ?? ''}|${d.version}`;
      const entry = spread.get(key) ?? { class: d.hardwareClass ?? '', version: d.version, devices: 0 };
      entry.devices++;
      spread.set(key, entry);
    }
    return {
      devices,
      versions: [...spread.values()].sort((a, b) => b.devices - a.devices),
      thresholds: ATTENTION,
    };
  }

  return {
    /** The device a bearer token's hash belongs to, with its owner and whether that owner is disabled. */
    byTokenHash: (tokenHash: string) => findDeviceByTokenHash(db, tokenHash),
    /** The device was heard from (any upload). */
    seen: (id: string) => touchDevice(db, id),
    recordStatus: (id: string, status: { version: string; up: string }) => recordDeviceStatus(db, id, status),
    /** Records a check-in in one transaction (one commit); returns the class its first check-in fixed (null before it). */
    checkIn: (id: string, input: CheckInInput) =>
      inTransaction(db, async (trx) => {
        const knownClass = (await findDevice(trx, id))?.hardware_class ?? null;
        await recordCheckIn(trx, id, input);
        return knownClass;
      }),
    /** The firmware version the device last reported ('' never). */
    reportedVersion: async (id: string) => (await findDevice(db, id))?.version ?? '',
    /** Every device (admins), with each one's rollout step. */
    adminFleet: (steps: RolloutStep[]) => fleet({}, steps),
    /** A seller's stock and buyers' devices; no rollouts. */
    sellerFleet: (seller: string) => fleet({ seller }, null),
    async history(id: string) {
      if (!(await findDevice(db, id))) throw new AppError('storage/object-not-found', `No device ${id}.`);
      const rows = await healthHistory(db, id);
      return {
        id,
        history: rows.map((r) => ({
          at: r.at,
          version: r.version,
          battery: r.battery,
          freeStorageKb: r.free_storage_kb,
          queuedSessions: r.queued_sessions,
          lastUploadError: r.last_upload_error,
          resetReason: r.reset_reason,
          rssi: r.rssi,
          uptimeS: r.uptime_s,
        })),
      };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
