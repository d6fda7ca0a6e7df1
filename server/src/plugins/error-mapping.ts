import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, DEFAULT_ERROR_MESSAGE, type ErrorCode } from '#core/errors.ts';
import { say } from '#core/i18n/import-warnings.ts';
import { isMessageId } from '#core/i18n/intl.ts';
import { dependencyFault } from '../lib/dependency-faults';
import { requestLanguage, translate } from '../lib/i18n';
import { mediaTypeOf } from '../lib/media-type';

/** Fastify's own error codes → the API's codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'storage/server-file-wrong-size',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request/unsupported-media-type',
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
  // Every answer names its request: the id is in every log line of it, for support.
  // A callback hook, not an async one: it runs on every request, and a promise per hook shows.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const requestId = req.id;
    // Every `mensagem` in the request's language.
    const t = translate(requestLanguage(req));
    if (err instanceof AppError) {
      if (err.status === 503) reply.header('retry-after', '5');
      const mensagem = err.mensagem ? err.mensagem.map((ref) => say(t, ref)).join(' ') : t(`errors.${err.code}`);
      return reply.code(err.status).send({
        code: err.code,
        message: err.message,
        ...(err.fields ? { fields: err.fields } : {}),
        requestId,
        mensagem,
      });
    }
    // The database or blob store away, or the disk full: 503/507 with Retry-After, never a bare 500.
    const fault = dependencyFault(err);
    if (fault) {
      req.log.warn({ err }, 'dependency fault');
      return reply
        .code(fault.status)
        .header('retry-after', String(fault.retryAfterS))
        .send({ code: fault.code, message: fault.message, requestId, mensagem: t(`errors.${fault.code}`) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const name = v.instancePath.replace(/^\//, '') || '_';
        // A schema's own message names a field error the web catalog words (core/i18n fieldErrors).
        fields[name] ??= isMessageId(`fieldErrors.${v.message}`) ? v.message! : 'invalid';
      }
      // A field that takes one of a few values: the mensagem says which.
      const expectations = [...new Set(Object.values(fields))]
        .filter((k) => k.startsWith('expected'))
        .map((k) => t(`fieldErrors.${k}` as 'fieldErrors.expectedLanguage'));
      return reply.code(400).send({
        code: 'storage/invalid-argument',
        message: `Invalid ${err.validationContext ?? 'request'}: ${Object.keys(fields).join(', ')}`,
        fields,
        requestId,
        mensagem: [t('request.invalidFields', { fields: Object.keys(fields).join(', ') }), ...expectations].join(' '),
      });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    const code = (err.code && FASTIFY_CODES[err.code]) || byStatus(status);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const got = mediaTypeOf(req) || 'none';
      return reply.code(415).send({
        code,
        message: `Unsupported Content-Type (${got}): send the body as application/json.`,
        requestId,
        mensagem: t('request.unsupportedBody', { got }),
      });
    }
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply
        .code(status)
        .send({ code, message: DEFAULT_ERROR_MESSAGE[code], requestId, mensagem: t(`errors.${code}`) });
    }
    return reply
      .code(status)
      .send({ code, message: err.message || DEFAULT_ERROR_MESSAGE[code], requestId, mensagem: t(`errors.${code}`) });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({
      code: 'storage/object-not-found',
      message: DEFAULT_ERROR_MESSAGE['storage/object-not-found'],
      requestId: req.id,
      mensagem: translate(requestLanguage(req))('errors.storage/object-not-found'),
    });
  });
});
