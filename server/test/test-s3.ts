import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error -- s3rver ships no types; only the constructor, run() and close() are used.
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
interface S3rverStore {
  listObjects(
    bucket: string,
    options: { delimiter?: string; prefix?: string; startAfter?: string; maxKeys?: number },
  ): Promise<ListResult>;
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

async function start(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'voltas-s3-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
  rollUpLikeS3(server.store);
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
