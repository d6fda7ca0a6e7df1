// The blob store when an S3 bucket is configured (AWS or an S3-compatible server): session files as
// objects, their MD5, creation time and generation in each object's metadata; large uploads wait in a
// local spool folder until sent.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  assertSafeKey,
  byKey,
  emptyFolder,
  listPage,
  type BlobListPage,
  type BlobMetadata,
  type BlobStore,
  type ByteRange,
  type PutOptions,
} from './blob-store';
import type { AppConfig } from '../config';

/** The bucket as configured, and a local folder for large uploads on their way to it (tempPath). */
type S3BlobStoreOptions = NonNullable<AppConfig['s3']> & { spoolDir: string };

/** Custom metadata kept on each object: what S3 itself does not track the way the spec does. */
const META_MD5 = 'voltas-md5';
const META_CREATED = 'voltas-created';
const META_GENERATION = 'voltas-generation';

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound';
  }
  return false;
}

/** A name hidden from listings, like the filesystem store's dot entries ('.derived/'). */
const hidden = (key: string) => /(^|\/)\.[^/]*\/?$/.test(key);

/**
 * Objects in an S3-compatible bucket under the same keys as the filesystem store. Each PUT is
 * atomic on the S3 side (readers see the old object or the new one) and carries Content-MD5, so
 * the server refuses bytes damaged on the way.
 */
export class S3BlobStore implements BlobStore {
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly spoolDir: string;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.spoolDir = options.spoolDir;
    const checksum = options.requestChecksum === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: checksum,
      responseChecksumValidation: checksum,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // A store that is away fails an operation in seconds (the request answers 503 and the
      // device retries), instead of holding it until the operating system gives up.
      requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
      maxAttempts: 2,
    });
    this.description = `S3 bucket ${options.bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
  }

  async put(key: string, body: Buffer, contentType: string, options: PutOptions = {}): Promise<BlobMetadata> {
    const md5 = options.md5 ?? createHash('md5').update(body).digest('base64');
    return this.send(key, body, body.length, contentType, md5);
  }

  async putFile(
    key: string,
    file: string,
    contentType: string,
    options: PutOptions & { md5: string },
  ): Promise<BlobMetadata> {
    try {
      const { size } = await fs.stat(file);
      return await this.send(key, createReadStream(file), size, contentType, options.md5);
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  async tempPath(): Promise<string> {
    await fs.mkdir(this.spoolDir, { recursive: true });
    return path.join(this.spoolDir, `${randomBytes(8).toString('hex')}.part`);
  }

  private async send(
    key: string,
    body: Buffer | Readable,
    size: number,
    contentType: string,
    md5: string,
  ): Promise<BlobMetadata> {
    assertSafeKey(key);
    const previous = await this.head(key);
    const now = new Date().toISOString();
    const timeCreated = previous?.timeCreated ?? now;
    const generation = String(Date.now() * 1000 + Math.floor(Math.random() * 1000));
    const res = await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: size,
        ContentMD5: md5,
        Metadata: { [META_MD5]: md5, [META_CREATED]: timeCreated, [META_GENERATION]: generation },
      }),
    );
    // S3 refuses a body that does not match Content-MD5; some compatible servers do not check it,
    // or store the SDK's chunk framing inside the object. A plain PUT's ETag is the hex MD5 of what
    // was stored (not with KMS encryption), so compare it too.
    const etag = (res.ETag ?? '').replaceAll('"', '');
    const kms = res.ServerSideEncryption?.startsWith('aws:kms') ?? false;
    if (!kms && /^[0-9a-f]{32}$/i.test(etag) && Buffer.from(etag, 'hex').toString('base64') !== md5) {
      throw new Error(
        `The object store kept other bytes than were sent for ${key} (ETag ${etag}); with an S3-compatible server try S3_REQUEST_CHECKSUM=when_required.`,
      );
    }
    return { key, size, md5Hash: md5, contentType, timeCreated, updated: now, generation };
  }

  /** The object's GET answer (body not yet read), or undefined when there is none. */
  private async getObject(key: string, range?: ByteRange) {
    assertSafeKey(key);
    try {
      return await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async getStream(key: string, range?: ByteRange) {
    const res = await this.getObject(key, range);
    if (!res?.Body) return undefined;
    return { body: res.Body as Readable, size: Number(res.ContentLength ?? 0) };
  }

  async get(key: string): Promise<Buffer | undefined> {
    const res = await this.getObject(key);
    if (!res) return undefined;
    if (!res.Body) return Buffer.alloc(0);
    return Buffer.from(await res.Body.transformToByteArray());
  }

  async head(key: string): Promise<BlobMetadata | undefined> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const meta = res.Metadata ?? {};
      const updated = (res.LastModified ?? new Date(0)).toISOString();
      // Objects written by other tools have no md5 metadata: a plain (non-multipart) ETag is the hex MD5.
      const etag = (res.ETag ?? '').replaceAll('"', '');
      const md5Hash =
        meta[META_MD5] ?? (/^[0-9a-f]{32}$/i.test(etag) ? Buffer.from(etag, 'hex').toString('base64') : '');
      return {
        key,
        size: Number(res.ContentLength ?? 0),
        md5Hash,
        contentType: res.ContentType ?? 'application/octet-stream',
        timeCreated: meta[META_CREATED] ?? updated,
        updated,
        generation: meta[META_GENERATION] ?? String((res.LastModified?.getTime() ?? 0) * 1000),
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * One level below `prefix`; the page token is the last name returned (as in the filesystem
   * store), passed to S3 as StartAfter. A folder after which S3 would roll the same folder up
   * again is skipped by comparing names.
   */
  async list(prefix: string, opts: { maxResults: number; pageToken?: string | undefined }): Promise<BlobListPage> {
    const clean = prefix.replace(/\/+$/, '');
    if (clean) assertSafeKey(clean);
    const base = clean ? `${clean}/` : '';
    const after = opts.pageToken;
    const entries: { key: string; dir: boolean }[] = [];
    let continuation: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: base,
          Delimiter: '/',
          MaxKeys: 1000,
          ...(continuation ? { ContinuationToken: continuation } : after ? { StartAfter: after } : {}),
        }),
      );
      for (const p of res.CommonPrefixes ?? [])
        if (p.Prefix && !hidden(p.Prefix)) entries.push({ key: p.Prefix, dir: true });
      for (const o of res.Contents ?? [])
        if (o.Key && o.Key !== base && !hidden(o.Key)) entries.push({ key: o.Key, dir: false });
      continuation = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (continuation && entries.filter((e) => !after || e.key > after).length <= opts.maxResults);
    const names = entries.filter((e) => !after || e.key > after).sort(byKey);
    return listPage(names.slice(0, opts.maxResults), names.length > opts.maxResults || continuation !== undefined);
  }

  sweepTemp(): Promise<number> {
    return emptyFolder(this.spoolDir);
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
