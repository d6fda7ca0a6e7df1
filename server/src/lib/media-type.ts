import type { FastifyRequest } from 'fastify';

/** A request's media type without parameters, lower case; '' when none was sent. */
export function mediaTypeOf(req: FastifyRequest): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}
