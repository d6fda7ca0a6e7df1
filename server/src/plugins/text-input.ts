import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#core/errors.ts';

/** Where a string holding U+0000 sits in `value` ('name', 'wifi.ssid', '0'), or undefined. */
function nulCharacterAt(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? at || '_' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  // A streamed or raw body (an upload, an import) is a file's own bytes, not text.
  if (ArrayBuffer.isView(value) || Symbol.asyncIterator in value) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (key.includes('\0')) return path;
    const found = nulCharacterAt(item, path);
    if (found) return found;
  }
  return undefined;
}

/**
 * No text a client sends may hold the NUL character (U+0000): PostgreSQL cannot store it in a text
 * column, and no name, password or file name has one. Refused with a 400 on every route, before
 * validation and before any handler writes anything (headers never carry one: Node's parser refuses it).
 */
export const textInputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', (req, _reply, done) => {
    const field = nulCharacterAt(req.params) ?? nulCharacterAt(req.query) ?? nulCharacterAt(req.body);
    if (!field) return done();
    done(
      new AppError(
        'storage/invalid-argument',
        `Text may not hold the NUL character (U+0000): ${field}`,
        { [field]: 'noNulCharacter' },
        [{ id: 'request.invalidFields', values: { fields: field } }, { id: 'fieldErrors.noNulCharacter' }],
      ),
    );
  });
});
