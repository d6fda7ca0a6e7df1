import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, promises as fs, writeSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip as gzipCallback } from 'node:zlib';
import { CODEC_LAYOUT, columnBytes, encodedSize, encodeHeader } from '../../../../core/formats/gps-columns-codec';
import { allocGpsColumns, GPS_COLUMN_KEYS, type GpsColumns } from '../../../../core/formats/six-format';
import type { BlobMetadata, BlobStore } from '../../blobs/blob-store';

const gzip = promisify(gzipCallback);
/** Samples held in memory at a time (about 4.5 MB of columns). */
export const SPOOL_BATCH = 65_536;
const BYTES_PER_SAMPLE = encodedSize(1) - 8;

/**
 * Parsed GPS columns on their way into the derived blob (gps-columns-codec's layout, gzipped), in
 * bounded memory whatever the file's size: samples gather in one in-memory batch; a full batch
 * goes to a scratch file, column after column; at the end every column is read back batch by
 * batch (the codec stores each column whole) and streamed through gzip to the blob store. A
 * session that fits one batch never touches the scratch file.
 */
export class ColumnSpool {
  private batch = allocGpsColumns(SPOOL_BATCH);
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
      for (const k of GPS_COLUMN_KEYS) (this.batch[k] as Float64Array).set((c[k] as Float64Array).subarray(from, from + n), this.batch.count);
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
    for (const [k] of CODEC_LAYOUT) {
      const bytes = columnBytes(this.batch, k, count);
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.written + done);
      this.written += bytes.length;
    }
    this.batch.count = 0;
  }

  /** The encoded bytes, column after column. */
  private async *encoded(): AsyncGenerator<Uint8Array> {
    yield encodeHeader(this.total);
    const handle = this.fd === undefined ? undefined : await fs.open(this.scratch, 'r');
    try {
      for (const [k, width] of CODEC_LAYOUT) {
        const before = CODEC_LAYOUT.slice(0, CODEC_LAYOUT.findIndex(([key]) => key === k)).reduce((sum, [, w]) => sum + w, 0);
        for (const b of this.flushed) {
          const out = new Uint8Array(b.count * width);
          await handle!.read(out, 0, out.length, b.offset + b.count * before);
          yield out;
        }
        if (this.batch.count) yield columnBytes(this.batch, k).slice();
      }
    } finally {
      await handle?.close();
    }
  }

  /** Writes the derived blob at `key` (not fsynced: it is rebuilt from gps.six when missing). */
  async store(blobs: BlobStore, key: string): Promise<BlobMetadata> {
    if (this.fd === undefined) {
      const parts: Uint8Array[] = [];
      for await (const part of this.encoded()) parts.push(part);
      return blobs.put(key, await gzip(Buffer.concat(parts), { level: 1 }), 'application/octet-stream', { durable: false });
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
      await pipeline(Readable.from(this.encoded(), { highWaterMark: 1 }), createGzip({ level: 1 }), hashing, createWriteStream(file, { mode: 0o600 }));
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return blobs.putFile(key, file, 'application/octet-stream', { durable: false, md5: md5.digest('base64') });
  }

  /** Size of the encoded (not gzipped) columns. */
  get encodedBytes(): number {
    return 8 + this.total * BYTES_PER_SAMPLE;
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
