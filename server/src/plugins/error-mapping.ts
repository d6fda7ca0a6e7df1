import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, DEFAULT_ERROR_MESSAGE, type ErrorCode } from '../../../core/errors';

/** Fastify's own error codes → the API's codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'storage/server-file-wrong-size',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'storage/invalid-format',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'storage/invalid-argument',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'storage/invalid-argument',
  FST_ERR_CTP_INVALID_JSON_BODY: 'storage/invalid-argument',
  FST_ERR_VALIDATION: 'storage/invalid-argument',
};

function byStatus(status: number): ErrorCode {
  if (status === 401) return 'storage/unauthenticated';
  if (status === 403) return 'storage/unauthorized';
  if (status === 404) return 'storage/object-not-found';
  if (status === 413) return 'storage/server-file-wrong-size';
  if (status === 415 || status === 422) return 'storage/invalid-format';
  if (status === 429) return 'auth/too-many-requests';
  if (status >= 400 && status < 500) return 'storage/invalid-argument';
  return 'storage/internal-error';
}

/** The one mapping from thrown errors to HTTP answers `{ code, message, fields? }`. */
export const errorMappingPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const name = v.instancePath.replace(/^\//, '') || '_';
        fields[name] ??= v.message === 'required' || v.message === 'tooLong' || v.message === 'invalidBikeNumber' ? v.message : 'invalid';
      }
      return reply.code(400).send({ code: 'storage/invalid-argument', message: `Invalid ${err.validationContext ?? 'request'}: ${Object.keys(fields).join(', ')}`, fields });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    const code = (err.code && FASTIFY_CODES[err.code]) || byStatus(status);
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.code(status).send({ code, message: DEFAULT_ERROR_MESSAGE[code] });
    }
    return reply.code(status).send({ code, message: err.message || DEFAULT_ERROR_MESSAGE[code] });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ code: 'storage/object-not-found', message: DEFAULT_ERROR_MESSAGE['storage/object-not-found'] });
  });
});
