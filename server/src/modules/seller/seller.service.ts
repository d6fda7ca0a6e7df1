import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import { listDevices, listUsersWithHardware } from '../admin/admin.repository';
import { refuseDemoDevice } from '#server/lib/demo-accounts.ts';
import { findDevice, setDeviceOwner } from '../devices/devices.repository';
import { findUser } from '../users/users.repository';

/** The seller's rules: my buyers are users whose userSeller is me; my stock is my devices still owned by the company. */
export function createSellerService(deps: { db: Kysely<DB>; companyAccount: string }) {
  const { db } = deps;
  return {
    async buyers(seller: string) {
      const users = await listUsersWithHardware(db, { userSeller: seller });
      return users.map((u) => ({ email: u.email, hardware: u.hardware, nomePiloto: u.nomePiloto }));
    },
    stock: (seller: string) => listDevices(db, { seller, owner: deps.companyAccount }),

    /**
     * Hands a device from my stock to one of my buyers. Its token is replaced in the same
     * transaction; the new one is returned to show once, to load into the device.
     */
    async sell(seller: string, buyer: string, deviceId: string): Promise<string> {
      refuseDemoDevice(deviceId);
      return inTransaction(db, async (trx) => {
        const user = await findUser(trx, buyer);
        if (!user || user.user_seller !== seller)
          throw new AppError('storage/unauthorized', `${buyer} is not one of your buyers.`);
        const device = await findDevice(trx, deviceId);
        if (!device || device.seller_email !== seller || device.owner_email !== deps.companyAccount) {
          throw new AppError('storage/unauthorized', `Device ${deviceId} is not in your stock.`);
        }
        const token = newToken();
        await setDeviceOwner(trx, deviceId, buyer, hashToken(token));
        await recordAudit(trx, {
          actor: seller,
          action: 'sell-device',
          target: deviceId,
          before: { owner: device.owner_email },
          after: { owner: buyer, tokenRotated: true },
        });
        return token;
      });
    },
  };
}

export type SellerService = ReturnType<typeof createSellerService>;
