import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error -- s3rver ships no types; the constructor, run(), close() and its store (patched below) are used.
import S3rver from 's3rver';
import { onFileEnd } from './cleanups';
import { freePort } from './test-server';

/**
 * A real S3-compatible server (s3rver) on loopback, one per test file that needs it, storing in a
 * temporary directory. s3rver needs path-style addressing and checksums only when required
 * (TOOLCHAIN.md): with the SDK's defaults it stores the chunk framing inside the object.
 */
export interface TestS3 {
  endpoint: string;
  /** A new empty bucket; returns the env that points a server at it. */
  bucketEnv(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

let shared: Promise<TestS3> | undefined;

/** The test file's S3 server, started on first use and stopped after the file (server/test/setup.ts). */
export function testS3(): Promise<TestS3> {
  if (!shared) {
    shared = start();
    onFileEnd(async () => {
      if (shared) await (await shared).stop();
    });
  }
  return shared;
}

/** On the scale-out run (PostgreSQL + S3), every test server stores its blobs in S3. */
export const onS3 = process.env.VOLTAS_TEST_S3 === '1';

interface ListResult {
  objects: { key: string }[];
  commonPrefixes: string[];
  isTruncated: boolean;
}
interface S3rverObject {
  bucket: string;
  key: string;
  content: Buffer | NodeJS.ReadableStream;
  metadata: Record<string, string>;
}
/** The parts of s3rver's store (`server.store`, its FilesystemStore) patched below to act as S3 does. */
interface S3rverStore {
  rootDirectory: string;
  getResourcePath(bucket: string, key: string, resource: string): string;
  listObjects(
    bucket: string,
    options: { delimiter?: string; prefix?: string; startAfter?: string; maxKeys?: number },
  ): Promise<ListResult>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver 3.7.1 (its last release) never walks folders two levels below the listed prefix when a
 * delimiter is given, so `a/b/c/file` is missing from a listing of `a/` instead of showing up as
 * the common prefix `a/b/` as on S3. This lists without the delimiter and rolls keys up as S3 does.
 */
function rollUpLikeS3(store: S3rverStore): void {
  const list = store.listObjects.bind(store);
  store.listObjects = async (bucket, options) => {
    const { delimiter, prefix = '', maxKeys = Infinity } = options;
    if (!delimiter) return list(bucket, options);
    const all = await list(bucket, { ...options, delimiter: '', maxKeys: Infinity });
    const commonPrefixes = new Set<string>();
    const objects: { key: string }[] = [];
    let isTruncated = false;
    for (const object of all.objects) {
      const idx = object.key.slice(prefix.length).indexOf(delimiter);
      if (idx !== -1) commonPrefixes.add(object.key.slice(0, prefix.length + idx + 1));
      else if (objects.length < maxKeys) objects.push(object);
      else isTruncated = true;
    }
    return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated };
  };
}

/**
 * s3rver writes an object in place and answers the PUT before its bytes are all on disk, so a
 * read during or just after a PUT gets a torn object. S3 is consistent: a read sees the old
 * object or the new one, whole, and the new one once the PUT has answered. This writes the bytes
 * to a file of their own and renames it over the object before answering.
 */
function wholeObjectsLikeS3(store: S3rverStore): void {
  let written = 0;
  store.putObject = async (object) => {
    const target = store.getResourcePath(object.bucket, object.key, 'object');
    // In the store's root, which s3rver lists as buckets only when they are folders.
    const incoming = path.join(store.rootDirectory, `.incoming-${process.pid}-${written++}`);
    const hash = createHash('md5');
    let size = 0;
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      const content = Buffer.isBuffer(object.content) ? [object.content] : object.content;
      await pipeline(content, counting, createWriteStream(incoming));
      const md5 = hash.digest('hex');
      await mkdir(path.dirname(target), { recursive: true });
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      await rename(incoming, target);
      return { size, md5 };
    } finally {
      await rm(incoming, { force: true });
    }
  };
}

async function start(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'voltas-s3-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
  rollUpLikeS3(server.store);
  wholeObjectsLikeS3(server.store);
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    async bucketEnv() {
      const bucket = `voltas-${randomBytes(5).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return {
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_FORCE_PATH_STYLE: 'true',
        S3_REQUEST_CHECKSUM: 'when_required',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      };
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
      shared = undefined;
    },
  };
}
