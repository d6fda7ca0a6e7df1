import { z } from 'zod';
import { LANGUAGES } from '../preferences';
import { UNITS } from '../units';

/**
 * PUT /api/me/preferences (DESIGN "Preferences"): both fields, each one of its values. The error
 * keys name what was expected (core/i18n/pt-BR-preferences.ts `fieldErrors`): the `mensagem` says it.
 */
export const preferencesInputSchema = z.object({
  language: z.enum(LANGUAGES, { error: 'expectedLanguage' }),
  units: z.enum(UNITS, { error: 'expectedUnits' }),
});
export type PreferencesInput = z.infer<typeof preferencesInputSchema>;

/** GET /api/me/preferences: the rider's choice, or, when they made none, the request's languages' defaults. */
export const preferencesSchema = preferencesInputSchema.extend({
  /** Whether the rider chose these (false: negotiated from Accept-Language, nothing stored). */
  chosen: z.boolean(),
});
export type PreferencesAnswer = z.infer<typeof preferencesSchema>;
