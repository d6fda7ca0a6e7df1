import { z } from 'zod';

/** Body of every error response. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** Field name → error message key (see i18n catalog `fieldErrors`), for form validation. */
  fields: z.record(z.string(), z.string()).optional(),
  /** This request's id, also in the `x-request-id` header and in every log line of it: quoted to support. */
  requestId: z.string().optional(),
  /** The same in Portuguese, for whoever reads the API directly (the CLI, scripts). */
  mensagem: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** The refusals a route that writes a rider's data may answer (its schema's error responses). */
export const writeErrors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  422: apiErrorSchema,
  429: apiErrorSchema,
};

export const okSchema = z.object({ ok: z.literal(true) });

/**
 * What a lap was, by what happened on track (the one lap list, decision 028): out-lap, flying lap,
 * in-lap, or a partial piece (never shown with a lap time, never a best).
 */
export const lapKindSchema = z.enum(['out', 'flying', 'in', 'partial']);
