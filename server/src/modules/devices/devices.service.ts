import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import { findDeviceByTokenHash, recordDeviceStatus, touchDevice } from './devices.repository';

/** What the device API needs about devices: who a token is, and what a device says of itself. */
export function createDevicesService(db: Kysely<DB>) {
  return {
    /** The device a bearer token's hash belongs to, with its owner and whether that owner is disabled. */
    byTokenHash: (tokenHash: string) => findDeviceByTokenHash(db, tokenHash),
    /** The device was heard from (any upload). */
    seen: (id: string) => touchDevice(db, id),
    recordStatus: (id: string, status: { version: string; up: string }) => recordDeviceStatus(db, id, status),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
