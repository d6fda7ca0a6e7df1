// Parsed GPS columns spooled to a scratch file as they arrive, then stored as the derived columns blob.
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, promises as fs, writeSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip as gzipCallback } from 'node:zlib';
import { CODEC_BLOCK, CODEC_COLUMNS, encodeBlock, encodeHeader, ScaleFinder } from '#core/formats/gps-columns-codec.ts';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumnKey, type GpsColumns } from '#core/formats/gps-columns.ts';
import { GpsSixStream, type GpsStreamSummary } from '#core/formats/gps-six-stream.ts';
import type { BlobMetadata, BlobStore } from '#server/blobs/blob-store.ts';
import { isUtf8 } from 'node:buffer';

const gzip = promisify(gzipCallback);
/** Samples held in memory at a time (about 4.5 MB of columns): sixteen codec blocks. */
export const SPOOL_BATCH = 16 * CODEC_BLOCK;
/** Each column's typed array as parsed, and its bytes per value (the scratch file's layout). */
const parsedShape = allocGpsColumns(0);
const NATIVE = CODEC_COLUMNS.map((k) => parsedShape[k].constructor as new (n: number) => GpsColumns[GpsColumnKey]);
const NATIVE_WIDTH = CODEC_COLUMNS.map((k) => parsedShape[k].BYTES_PER_ELEMENT);

/** A batch of one column's values as codec blocks (every block full but a column's last). */
function* blocks(values: GpsColumns[GpsColumnKey], scale: number): Generator<Uint8Array> {
  for (let from = 0; from < values.length; from += CODEC_BLOCK)
    yield encodeBlock(values.subarray(from, from + CODEC_BLOCK), scale);
}

/** The first `count` values of a column as bytes, without copying. */
function nativeBytes(c: GpsColumns, key: GpsColumnKey, count: number): Uint8Array {
  const src = c[key];
  return new Uint8Array(src.buffer, src.byteOffset, count * src.BYTES_PER_ELEMENT);
}

/**
 * Parsed GPS columns on their way into the derived blob (gps-columns-codec's encoding, gzipped),
 * in bounded memory whatever the file's size: samples gather in one in-memory batch (each
 * column's scale is found as they arrive); a full batch goes to a scratch file as parsed, column
 * after column; at the end every column is read back batch by batch, each batch being sixteen
 * codec blocks, encoded and streamed through gzip to the blob store. A session that fits one batch
 * never touches the scratch file.
 */
export class ColumnSpool {
  private batch = allocGpsColumns(SPOOL_BATCH);
  private readonly scales = new ScaleFinder();
  private readonly flushed: { count: number; offset: number }[] = [];
  private fd: number | undefined;
  private written = 0;
  total = 0;

  /** `scratch`: a path for the batch file (created only if needed) in the blob store's temp area. */
  constructor(private readonly scratch: string) {}

  add(c: GpsColumns): void {
    let from = 0;
    while (from < c.count) {
      const n = Math.min(c.count - from, SPOOL_BATCH - this.batch.count);
      for (const k of GPS_COLUMN_KEYS)
        (this.batch[k] as Float64Array).set((c[k] as Float64Array).subarray(from, from + n), this.batch.count);
      this.scales.add(this.batch, this.batch.count, this.batch.count + n);
      this.batch.count += n;
      this.total += n;
      from += n;
      if (this.batch.count === SPOOL_BATCH) this.flush();
    }
  }

  private flush(): void {
    this.fd ??= openSync(this.scratch, 'w+', 0o600);
    const count = this.batch.count;
    this.flushed.push({ count, offset: this.written });
    for (const k of CODEC_COLUMNS) {
      const bytes = nativeBytes(this.batch, k, count);
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
      this.written += bytes.length;
    }
    this.batch.count = 0;
  }

  /** The encoded bytes: the header, then each column block by block. */
  private async *encoded(): AsyncGenerator<Uint8Array> {
    const scales = this.scales.scales;
    yield encodeHeader(this.total, scales);
    const handle = this.fd === undefined ? undefined : await fs.open(this.scratch, 'r');
    try {
      for (let k = 0; k < CODEC_COLUMNS.length; k++) {
        const key = CODEC_COLUMNS[k]!;
        const width = NATIVE_WIDTH[k]!;
        const before = NATIVE_WIDTH.slice(0, k).reduce((sum, w) => sum + w, 0);
        for (const b of this.flushed) {
          const values = new NATIVE[k]!(b.count);
          await handle!.read(new Uint8Array(values.buffer), 0, b.count * width, b.offset + b.count * before);
          yield* blocks(values, scales[k]!);
        }
        if (this.batch.count) yield* blocks(this.batch[key].subarray(0, this.batch.count), scales[k]!);
      }
    } finally {
      await handle?.close();
    }
  }

  /**
   * Writes the derived blob at `key`: not fsynced (it is rebuilt from gps.six when missing) unless
   * `durable` (an import's, which has no gps.six blob).
   */
  async store(blobs: BlobStore, key: string, durable = false): Promise<BlobMetadata> {
    if (this.fd === undefined) {
      const parts: Uint8Array[] = [];
      for await (const part of this.encoded()) parts.push(part);
      return blobs.put(key, await gzip(Buffer.concat(parts), { level: 6 }), 'application/octet-stream', { durable });
    }
    const file = await blobs.tempPath();
    const md5 = createHash('md5');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.from(this.encoded(), { highWaterMark: 1 }),
        createGzip({ level: 6 }),
        hashing,
        createWriteStream(file, { mode: 0o600 }),
      );
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return blobs.putFile(key, file, 'application/octet-stream', { durable, md5: md5.digest('base64') });
  }

  async dispose(): Promise<void> {
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
      await fs.rm(this.scratch, { force: true });
    }
    this.batch = allocGpsColumns(0);
  }
}

/** Parses a stored gps.six as a stream (bounded memory), its columns into `spool` when given. */
export async function parseStoredGps(
  blobs: BlobStore,
  key: string,
  spool?: ColumnSpool,
): Promise<GpsStreamSummary | undefined> {
  const src = await blobs.getStream(key);
  if (!src) return undefined;
  const parser = new GpsSixStream(spool ? (c) => spool.add(c) : undefined, isUtf8);
  for await (const chunk of src.body) parser.push(chunk);
  return parser.end();
}
