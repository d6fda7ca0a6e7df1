// A user's own data: their account, the profile their device reads (the Wi-Fi password sealed with the
// server's secret key, bound to its owner), language and units, and revoking a device's token.
import type { Kysely } from 'kysely';
import type { Me, ProfileInput } from '#core/contracts/me.contract.ts';
import type { PreferencesAnswer, PreferencesInput } from '#core/contracts/preferences.contract.ts';
import { isLanguage, negotiatePreferences } from '#core/preferences.ts';
import { UNITS, type Units } from '#core/units.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { recordAudit } from '../audit/audit.repository';
import { findDevice, revokeDeviceToken } from '../devices/devices.repository';
import {
  findPreferences,
  findUser,
  listDeviceIdsOf,
  listLegacySealedPasswords,
  listOwnedDevices,
  replaceSealedPassword,
  updatePreferences,
  updateProfile,
} from './users.repository';

export interface UsersService {
  me(email: string): Promise<Me>;
  saveProfile(email: string, input: ProfileInput): Promise<void>;
  /** What a device reads: its owner's Wi-Fi and pilot data (empty when it has no owner). */
  deviceConfig(ownerEmail: string): Promise<{ wifi: string; senha: string; nomePiloto: string; numeroMoto: string }>;
  /** Seals again, bound to their owner, the Wi-Fi passwords sealed before that binding. Returns how many. */
  upgradeSealedPasswords(): Promise<number>;
  /** The owner revokes their device's token (lost or stolen): it can neither upload nor read the Wi-Fi until an admin issues a new one. */
  revokeDeviceToken(email: string, deviceId: string): Promise<void>;
  /** The rider's language and units; when they chose none, those of `languages` (most wanted first). */
  preferences(email: string, languages: readonly string[]): Promise<PreferencesAnswer>;
  savePreferences(email: string, input: PreferencesInput): Promise<void>;
}

const isUnits = (v: string | null): v is Units => UNITS.some((u) => u === v);

export function createUsersService(db: Kysely<DB>, box: SecretBox): UsersService {
  /** The Wi-Fi password in clear; '' when sealed with another SECRET_KEY (the owner re-enters it). */
  const openSenha = (user: { email: string; senha_enc: string }) => {
    try {
      return box.open(user.senha_enc, user.email);
    } catch {
      return '';
    }
  };
  return {
    async deviceConfig(ownerEmail) {
      const owner = ownerEmail ? await findUser(db, ownerEmail) : undefined;
      if (!owner) return { wifi: '', senha: '', nomePiloto: '', numeroMoto: '' };
      return {
        wifi: owner.wifi,
        senha: openSenha(owner),
        nomePiloto: owner.nome_piloto,
        numeroMoto: owner.numero_moto,
      };
    },
    async upgradeSealedPasswords() {
      let upgraded = 0;
      for (const row of await listLegacySealedPasswords(db)) {
        let plain: string;
        try {
          plain = box.open(row.senha_enc, row.email);
        } catch {
          continue; // another key: left for the owner to re-enter
        }
        await replaceSealedPassword(db, row.email, row.senha_enc, box.seal(plain, row.email));
        upgraded++;
      }
      return upgraded;
    },
    async revokeDeviceToken(email, deviceId) {
      await inTransaction(db, async (trx) => {
        const device = await findDevice(trx, deviceId);
        // Someone else's device: 404, no hint that it exists.
        if (!device || device.owner_email !== email) throw new AppError('storage/object-not-found');
        await revokeDeviceToken(trx, deviceId);
        await recordAudit(trx, {
          actor: email,
          action: 'revoke-token',
          target: deviceId,
          before: { token: Boolean(device.token_hash) },
          after: { token: false },
        });
      });
    },
    async me(email) {
      const user = await findUser(db, email);
      if (!user) throw new AppError('storage/unauthenticated');
      // Sealed with another SECRET_KEY: '' (the owner re-enters it); never fail the whole page.
      const senha = openSenha(user);
      return {
        email: user.email,
        displayName: user.display_name,
        avatarUrl: user.avatar_url,
        roles: { admin: user.adm === '1', seller: user.seller !== '' },
        devices: await listDeviceIdsOf(db, email),
        ownedDevices: await listOwnedDevices(db, email),
        demoDevice: DEMO_DEVICE_ID,
        profile: { wifi: user.wifi, senha, nomePiloto: user.nome_piloto, numeroMoto: user.numero_moto },
      };
    },
    async preferences(email, languages) {
      const stored = await findPreferences(db, email);
      if (!stored) throw new AppError('storage/unauthenticated');
      const negotiated = negotiatePreferences(languages);
      if (isLanguage(stored.language) && isUnits(stored.units))
        return { language: stored.language, units: stored.units, chosen: true };
      return { ...negotiated, chosen: false };
    },
    async savePreferences(email, input) {
      await updatePreferences(db, email, input);
    },
    async saveProfile(email, input) {
      await updateProfile(db, email, {
        wifi: input.wifi,
        senhaEnc: box.seal(input.senha, email),
        nomePiloto: input.nomePiloto,
        numeroMoto: input.numeroMoto,
      });
    },
  };
}
