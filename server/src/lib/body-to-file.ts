import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/**
 * Writes a body to `file` (owner-only) as it arrives; `onChunk` sees every piece before it is
 * written and may throw to stop (the pipeline's error, the body left unread). Up to 1 MB is
 * buffered while a write is under way, so the socket is read meanwhile.
 */
async function bodyToFile(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  await pipeline(
    body,
    async function* (chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
      for await (const chunk of chunks) {
        onChunk(chunk);
        yield chunk;
      }
    },
    createWriteStream(file, { mode: 0o600, highWaterMark: 1 << 20 }),
  );
}

/**
 * `bodyToFile` with the checks every upload makes on the way: its size against `maxBytes`
 * (`tooLarge()` thrown past it, the rest left unread) and its MD5.
 */
export async function receiveToFile(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
  limit: { maxBytes: number; tooLarge: () => Error },
  onChunk: (chunk: Uint8Array) => void = () => undefined,
): Promise<{ size: number; md5: Buffer }> {
  const hash = createHash('md5');
  let size = 0;
  await bodyToFile(body, file, (chunk) => {
    size += chunk.length;
    if (size > limit.maxBytes) throw limit.tooLarge();
    hash.update(chunk);
    onChunk(chunk);
  });
  return { size, md5: hash.digest() };
}
