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

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.string(),
  blobs: z.string(),
  identityProvider: z.string(),
});
