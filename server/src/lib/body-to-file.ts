import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/**
 * Writes a body to `file` (owner-only) as it arrives; `onChunk` sees every piece before it is
 * written and may throw to stop (the pipeline's error, the body left unread). Up to 1 MB is
 * buffered while a write is under way, so the socket is read meanwhile.
 */
export async function bodyToFile(
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
