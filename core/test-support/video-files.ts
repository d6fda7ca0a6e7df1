import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ByteSource } from '../video/gpmf';

/** The shared GoPro samples (read-only, outside the repository). */
export const SAMPLE_VIDEOS = path.resolve(import.meta.dirname, '../../../shared/data/video');

/** A file on disk as the ranged-read source the video code takes (a browser File in the app). */
export async function fileSource(file: string): Promise<ByteSource & { close(): Promise<void> }> {
  const handle: FileHandle = await open(file, 'r');
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const bytes = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(bytes, done, length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return bytes.subarray(0, done);
    },
    close: () => handle.close(),
  };
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

/** A box tree with every 32-bit chunk offset table (stco) made 64-bit (co64) and moved by `shift`. */
function moveChunkOffsets(box: Uint8Array, shift: number): Uint8Array {
  const view = new DataView(box.buffer, box.byteOffset, box.byteLength);
  const type = String.fromCharCode(...box.subarray(4, 8));
  if (type === 'stco') {
    const count = view.getUint32(12);
    const out = new Uint8Array(16 + 8 * count);
    const o = new DataView(out.buffer);
    o.setUint32(0, out.length);
    out.set(new TextEncoder().encode('co64'), 4);
    o.setUint32(8, view.getUint32(8)); // version and flags
    o.setUint32(12, count);
    for (let i = 0; i < count; i++) o.setBigUint64(16 + 8 * i, BigInt(view.getUint32(16 + 4 * i) + shift));
    return out;
  }
  if (!CONTAINERS.has(type)) return box;
  const children: Uint8Array[] = [];
  for (let at = 8; at < box.length;) {
    const size = view.getUint32(at);
    children.push(moveChunkOffsets(box.subarray(at, at + size), shift));
    at += size;
  }
  const out = new Uint8Array(8 + children.reduce((s, c) => s + c.length, 0));
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(box.subarray(4, 8), 4);
  let at = 8;
  for (const c of children) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * A sample video grown past 4 GB without writing 4 GB: its mdat gets a 64-bit header and `padBytes`
 * of hole (a sparse file) before the original media, and its index, rewritten with 64-bit chunk
 * offsets, goes at the end, as a camera writes it. Expects ftyp, mdat, moov in that order.
 */
export async function writePaddedCopy(sample: string, out: string, padBytes: number): Promise<number> {
  const src = new Uint8Array(await readFile(sample));
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const boxes = new Map<string, { offset: number; size: number }>();
  for (let at = 0; at < src.length;) {
    const size = view.getUint32(at);
    boxes.set(String.fromCharCode(...src.subarray(at + 4, at + 8)), { offset: at, size });
    at += size;
  }
  const ftyp = boxes.get('ftyp')!;
  const mdat = boxes.get('mdat')!;
  const moov = boxes.get('moov')!;
  const payload = src.subarray(mdat.offset + 8, mdat.offset + mdat.size);
  const payloadAt = ftyp.size + 16 + padBytes;
  const header = new Uint8Array(16);
  const h = new DataView(header.buffer);
  h.setUint32(0, 1); // size 1: the 64-bit size follows the type
  header.set(new TextEncoder().encode('mdat'), 4);
  h.setBigUint64(8, BigInt(16 + padBytes + payload.length));
  const index = moveChunkOffsets(src.subarray(moov.offset, moov.offset + moov.size), payloadAt - (mdat.offset + 8));
  const handle = await open(out, 'w');
  try {
    await handle.write(src.subarray(ftyp.offset, ftyp.offset + ftyp.size), 0, ftyp.size, 0);
    await handle.write(header, 0, 16, ftyp.size);
    await handle.write(payload, 0, payload.length, payloadAt);
    await handle.write(index, 0, index.length, payloadAt + payload.length);
  } finally {
    await handle.close();
  }
  return payloadAt + payload.length + index.length;
}
