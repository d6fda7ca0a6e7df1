import type { Kysely } from 'kysely';
import type { Me, ProfileInput } from '../../../../core/contracts/me.contract';
import { AppError } from '../../../../core/errors';
import type { DB } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { findUser, listDeviceIdsOf, updateProfile } from './users.repository';

export interface UsersService {
  me(email: string): Promise<Me>;
  saveProfile(email: string, input: ProfileInput): Promise<void>;
}

export function createUsersService(db: Kysely<DB>, box: SecretBox, demoDevice: string): UsersService {
  return {
    async me(email) {
      const user = await findUser(db, email);
      if (!user) throw new AppError('storage/unauthenticated');
      let senha = '';
      try {
        senha = box.open(user.senha_enc);
      } catch {
        // Sealed with another SECRET_KEY: the owner re-enters it; never fail the whole page.
        senha = '';
      }
      return {
        email: user.email,
        displayName: user.display_name,
        avatarUrl: user.avatar_url,
        roles: { admin: user.adm === '1', seller: user.seller !== '' },
        devices: await listDeviceIdsOf(db, email),
        demoDevice,
        profile: { wifi: user.wifi, senha, nomePiloto: user.nome_piloto, numeroMoto: user.numero_moto },
      };
    },
    async saveProfile(email, input) {
      await updateProfile(db, email, {
        wifi: input.wifi,
        senhaEnc: box.seal(input.senha),
        nomePiloto: input.nomePiloto,
        numeroMoto: input.numeroMoto,
      });
    },
  };
}
