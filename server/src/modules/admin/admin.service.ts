// What an admin (in the web app, or `voltas` on the command line) changes about users and devices:
// owners, sellers, registration, tokens, roles, disabling; each change in one transaction with its audit entry.
import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { refuseDemoDevice } from '#server/lib/demo-accounts.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { deleteAuthSessionsOf } from '../auth/auth-sessions.repository';
import type { Coordination } from '#server/db/coordination.ts';
import { listAudit, recordAudit } from '../audit/audit.repository';
import { signInRevoked } from '../auth/auth-events';
import { findDevice, insertDevice, setDeviceOwner, setDeviceToken } from '../devices/devices.repository';
import { ensureUser, findUser, setDisabled, setRoles } from '../users/users.repository';
import { listDevices, listUsersWithHardware, setDeviceSeller, setUserSeller } from './admin.repository';

async function requireUser(db: Kysely<DB>, email: string) {
  const user = await findUser(db, email);
  if (!user) throw new AppError('storage/object-not-found', `No user ${email}.`);
  return user;
}

async function requireSeller(db: Kysely<DB>, email: string) {
  const user = await requireUser(db, email);
  if (!user.seller) throw new AppError('storage/invalid-argument', `${email} is not a seller.`);
  return user;
}

async function requireDevice(db: Kysely<DB>, id: string) {
  refuseDemoDevice(id);
  const device = await findDevice(db, id);
  if (!device) throw new AppError('storage/object-not-found', `No device ${id}.`);
  return device;
}

/**
 * The administrator's rules. Every change runs in one transaction with its audit entry.
 * `actor` is the admin's e-mail ('cli' from the command line).
 */
export function createAdminService(deps: { db: Kysely<DB>; companyAccount: string; coordination?: Coordination }) {
  const { db } = deps;
  // Live streams opened under the old rights close on every instance (best effort: each stream
  // also re-checks its sign-in on every heartbeat).
  const revokeSignIns = (email: string) => deps.coordination?.publish(signInRevoked({ email })).catch(() => undefined);
  return {
    users: () => listUsersWithHardware(db),
    sellers: () => listUsersWithHardware(db, { sellersOnly: true }),
    devices: () => listDevices(db),
    /** The latest audit entries, newest first. */
    audit: () => listAudit(db),

    /**
     * The spec's adm assign: the device joins the user's hardware and its owner becomes the user.
     * A change of owner revokes the device's token in the same transaction and returns the new
     * one, shown once to load into the device; null when the owner stays the same.
     */
    async assignOwner(
      actor: string,
      email: string,
      deviceId: string,
      opts: { createUser?: boolean } = {},
    ): Promise<string | null> {
      return inTransaction(db, async (trx) => {
        const device = await requireDevice(trx, deviceId);
        if (opts.createUser) await ensureUser(trx, email);
        await requireUser(trx, email);
        if (device.owner_email === email) return null;
        const token = newToken();
        await setDeviceOwner(trx, deviceId, email, hashToken(token));
        await recordAudit(trx, {
          actor,
          action: 'assign-owner',
          target: deviceId,
          before: { owner: device.owner_email },
          after: { owner: email, tokenRotated: true },
        });
        return token;
      });
    },

    async assignBuyerSeller(actor: string, buyer: string, seller: string): Promise<void> {
      await inTransaction(db, async (trx) => {
        const user = await requireUser(trx, buyer);
        await requireSeller(trx, seller);
        await setUserSeller(trx, buyer, seller);
        await recordAudit(trx, {
          actor,
          action: 'assign-buyer-seller',
          target: buyer,
          before: { userSeller: user.user_seller },
          after: { userSeller: seller },
        });
      });
    },

    async assignDeviceSeller(actor: string, deviceId: string, seller: string): Promise<void> {
      await inTransaction(db, async (trx) => {
        const device = await requireDevice(trx, deviceId);
        await requireSeller(trx, seller);
        await setDeviceSeller(trx, deviceId, seller);
        await recordAudit(trx, {
          actor,
          action: 'assign-device-seller',
          target: deviceId,
          before: { seller: device.seller_email },
          after: { seller },
        });
      });
    },

    /** Registers a device (owner defaults to the company account: seller stock). Returns the token, once. */
    async registerDevice(
      actor: string,
      input: { id: string; owner?: string | undefined; seller?: string | undefined },
    ): Promise<string> {
      refuseDemoDevice(input.id);
      const token = newToken();
      const owner = input.owner ?? deps.companyAccount;
      const seller = input.seller ?? '';
      await inTransaction(db, async (trx) => {
        if (await findDevice(trx, input.id))
          throw new AppError('storage/invalid-argument', `Device ${input.id} already exists.`);
        for (const email of [owner, seller].filter(Boolean)) await ensureUser(trx, email);
        await insertDevice(trx, { id: input.id, owner, seller, tokenHash: hashToken(token) });
        await recordAudit(trx, {
          actor,
          action: 'register-device',
          target: input.id,
          before: {},
          after: { owner, seller },
        });
      });
      return token;
    },

    async rotateToken(actor: string, deviceId: string): Promise<string> {
      const token = newToken();
      await inTransaction(db, async (trx) => {
        await requireDevice(trx, deviceId);
        await setDeviceToken(trx, deviceId, hashToken(token));
        // Never the token or its hash: only that it changed.
        await recordAudit(trx, {
          actor,
          action: 'rotate-token',
          target: deviceId,
          before: {},
          after: { rotated: true },
        });
      });
      return token;
    },

    async setRoles(actor: string, email: string, roles: { adm: boolean; seller: boolean }): Promise<void> {
      await inTransaction(db, async (trx) => {
        const user = await requireUser(trx, email);
        const next = { adm: roles.adm ? '1' : '', seller: roles.seller ? '1' : '' };
        await setRoles(trx, email, next);
        await recordAudit(trx, {
          actor,
          action: 'set-roles',
          target: email,
          before: { adm: user.adm, seller: user.seller },
          after: next,
        });
      });
      await revokeSignIns(email);
    },

    /** A disabled user is signed out at once (sessions deleted) and cannot sign in again. */
    async setDisabled(actor: string, email: string, disabled: boolean): Promise<void> {
      if (disabled && actor === email)
        throw new AppError('storage/invalid-argument', 'An admin cannot disable their own account.');
      await inTransaction(db, async (trx) => {
        const user = await requireUser(trx, email);
        await setDisabled(trx, email, disabled);
        if (disabled) await deleteAuthSessionsOf(trx, email);
        await recordAudit(trx, {
          actor,
          action: disabled ? 'disable-user' : 'enable-user',
          target: email,
          before: { disabled: Number(user.disabled) !== 0 },
          after: { disabled },
        });
      });
      if (disabled) await revokeSignIns(email);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
