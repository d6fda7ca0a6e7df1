import { brotliCompress, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * JSON answers serialized and compressed once per version of what they are made of (a laps
 * answer per lap.six), sent as is with an ETag: gzip at once, Brotli (a third smaller) built in
 * the background and used as soon as it is there: a track's mobile data carries a tenth of the JSON.
 */
export interface CompressedAnswer {
  json: string;
  gzipped: Buffer;
  brotli?: Buffer;
  etag: string;
}

/** An encoding named in accept-encoding and not refused with `;q=0`. */
const acceptedBy = (encoding: string) =>
  new RegExp(`(?:^|[\\s,])${encoding}(?!\\s*;\\s*q=0(?:\\.0*)?\\s*(?:,|$))(?=\\s*(?:[;,]|$))`);
const ACCEPTS = { gzip: acceptedBy('gzip'), br: acceptedBy('br') };

/** Whether the client takes gzip (every browser does) or Brotli (every current browser). */
export function accepts(req: FastifyRequest, encoding: keyof typeof ACCEPTS): boolean {
  return ACCEPTS[encoding].test(String(req.headers['accept-encoding'] ?? ''));
}

/**
 * Brotli at its strongest, off the event loop (it is slow, but once per version), with a
 * window the size of the answer, not the default 4 MB: less native memory per compression.
 */
function addBrotli(answer: CompressedAnswer): void {
  const size = Buffer.byteLength(answer.json);
  const params = {
    [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
    [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    [zlibConstants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(size + 1)))),
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size,
  };
  brotliCompress(answer.json, { params }, (err, out) => {
    if (!err) answer.brotli = out; // on error gzip simply stays in use
  });
}

/** The last `max` answers, by version; a version's answer never changes, so it is never stale. */
export function createAnswerCache(max = 200) {
  const answers = new Map<string, CompressedAnswer>();
  return {
    async get(version: string, etag: string, build: () => Promise<string>): Promise<CompressedAnswer> {
      const known = answers.get(version);
      if (known) return known;
      const json = await build();
      const answer: CompressedAnswer = { json, gzipped: gzipSync(json), etag };
      if (answers.size >= max) answers.delete(answers.keys().next().value!);
      answers.set(version, answer);
      addBrotli(answer);
      return answer;
    },
  };
}

/** Sends an answer in the best encoding the client takes, or 304 when it has this version. */
export function sendCompressed(req: FastifyRequest, reply: FastifyReply, answer: CompressedAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
  if (req.headers['if-none-match'] === answer.etag) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (answer.brotli && accepts(req, 'br')) return reply.header('content-encoding', 'br').send(answer.brotli);
  return accepts(req, 'gzip') ? reply.header('content-encoding', 'gzip').send(answer.gzipped) : reply.send(answer.json);
}
