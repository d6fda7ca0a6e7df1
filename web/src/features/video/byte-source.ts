import type { ByteSource } from '#core/video/gpmf.ts';

/** A browser File or Blob as core/video's ByteSource: reads only the ranges asked for, never the whole file. */
export function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  };
}
