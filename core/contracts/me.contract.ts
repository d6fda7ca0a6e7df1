import { z } from 'zod';

/** Field limits shared by the enroll form and the server. */
export const PROFILE_LIMITS = { wifi: 32, senha: 63, nomePiloto: 60, numeroMoto: 6 } as const;

const required = (max: number) =>
  z
    .string({ error: 'required' })
    .transform((s) => s.trim())
    .pipe(z.string().min(1, { error: 'required' }).max(max, { error: 'tooLong' }));

/** PUT /api/me/profile: the spec's enroll form; all four fields are required. */
export const profileInputSchema = z.object({
  wifi: required(PROFILE_LIMITS.wifi),
  // A Wi-Fi password is kept exactly as typed: spaces may be part of it.
  senha: z.string({ error: 'required' }).min(1, { error: 'required' }).max(PROFILE_LIMITS.senha, { error: 'tooLong' }),
  nomePiloto: required(PROFILE_LIMITS.nomePiloto),
  numeroMoto: required(PROFILE_LIMITS.numeroMoto).pipe(
    z.string().regex(/^[0-9A-Za-z-]+$/, { error: 'invalidBikeNumber' }),
  ),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

const rolesSchema = z.object({
  admin: z.boolean(),
  seller: z.boolean(),
});

export const meSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  avatarUrl: z.string(),
  roles: rolesSchema,
  /** Devices owned now, plus devices holding sessions this user owned when they were uploaded. */
  devices: z.array(z.string()),
  /** Devices owned now ('Meus dados': the owner may revoke a device's token). */
  ownedDevices: z.array(
    z.object({
      id: z.string(),
      hasToken: z.boolean(),
      /** The firmware it last reported ('' never). */
      version: z.string(),
      /** When it was last heard from (ISO; null never). */
      lastSeenAt: z.string().nullable(),
    }),
  ),
  /** Shown, labelled as a demonstration, to a rider with no device of their own. */
  demoDevice: z.string(),
  profile: z.object({
    wifi: z.string(),
    /** Only ever sent to its owner. */
    senha: z.string(),
    nomePiloto: z.string(),
    numeroMoto: z.string(),
  }),
});
export type Me = z.infer<typeof meSchema>;
