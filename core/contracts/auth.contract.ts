// The sign-in routes' queries and the health answers, validated by zod on the server.
import { z } from 'zod';

export const loginQuerySchema = z.object({
  /** popup: the result is posted back to the opener; redirect: full-page fallback. */
  mode: z.enum(['popup', 'redirect']).default('redirect'),
});

export const callbackQuerySchema = z.looseObject({
  state: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
});

/** Public: the status only, nothing about what runs behind it. */
export const healthSchema = z.object({ status: z.literal('ok') });

/** For admins: what is in use (database host or file, blob store, identity provider). */
export const healthDetailsSchema = healthSchema.extend({
  database: z.string(),
  blobs: z.string(),
  identityProvider: z.string(),
});
