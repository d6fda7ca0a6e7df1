import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { testS3, type TestS3 } from '#test/test-s3.ts';
import type { BlobStore } from './blob-store';
import { createBlobStore } from './create-blob-store';
import { LocalBlobStore } from './local-blob-store';

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('base64');

let s3: TestS3;
beforeAll(async () => {
  s3 = await testS3();
});

/** Each store as the app builds it from config (createBlobStore), on a fresh root or bucket. */
const stores: [string, () => Promise<BlobStore>][] = [
  ['filesystem', async () => new LocalBlobStore(mkdtempSync(path.join(os.tmpdir(), 'voltas-contract-')))],
  [
    'S3 (s3rver on loopback)',
    async () =>
      createBlobStore(
        loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'voltas-contract-')), ...(await s3.bucketEnv()) }),
      ),
  ],
];

describe.each(stores)('BlobStore contract: %s', (_name, make) => {
  let store: BlobStore;
  beforeAll(async () => {
    store = await make();
  });

  it('puts and gets the exact bytes (every byte value, 5 MB), with their MD5', async () => {
    const body = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(5 * 1024 * 1024)]);
    const meta = await store.put('000000000001/Interlagos/01112026/gps.six', body, 'text/plain; charset=utf-8');
    expect(meta).toMatchObject({
      key: '000000000001/Interlagos/01112026/gps.six',
      size: body.length,
      md5Hash: md5(body),
      contentType: 'text/plain; charset=utf-8',
    });
    const back = await store.get('000000000001/Interlagos/01112026/gps.six');
    expect(back?.length).toBe(body.length);
    expect(back?.equals(body)).toBe(true);
  });

  it('reports metadata: size, md5, content type, creation and update times, generation', async () => {
    const meta = await store.put('m/a.six', Buffer.from('abc'), 'text/plain');
    const head = await store.head('m/a.six');
    expect(head).toMatchObject({
      key: 'm/a.six',
      size: 3,
      md5Hash: md5('abc'),
      contentType: 'text/plain',
      generation: meta.generation,
      timeCreated: meta.timeCreated,
    });
    expect(Date.parse(head!.updated)).not.toBeNaN();
  });

  it('overwrites: new bytes, new generation, creation time kept', async () => {
    const first = await store.put('o/file', Buffer.from('one'), 'text/plain');
    const second = await store.put('o/file', Buffer.from('second version'), 'text/plain');
    expect(second.generation).not.toBe(first.generation);
    expect(second.timeCreated).toBe(first.timeCreated);
    expect((await store.get('o/file'))?.toString()).toBe('second version');
    expect(await store.head('o/file')).toMatchObject({
      size: 14,
      md5Hash: md5('second version'),
      generation: second.generation,
    });
  });

  it('a read during or right after a put gets a whole object, the old one or the new one', async () => {
    // Readers rely on it: a session's derived columns are rewritten while riders read them.
    const versions = [randomBytes(300 * 1024), randomBytes(200 * 1024), randomBytes(250 * 1024)];
    await store.put('w/file', versions[0]!, 'application/octet-stream');
    const seen = new Set<number>();
    for (let round = 1; round <= 6; round++) {
      const next = versions[round % versions.length]!;
      const reads: Promise<Buffer | undefined>[] = [];
      const writing = store.put('w/file', next, 'application/octet-stream');
      for (let i = 0; i < 4; i++) reads.push(store.get('w/file'));
      await writing;
      expect((await store.get('w/file'))?.equals(next), `round ${round}, read after the put`).toBe(true);
      for (const got of await Promise.all(reads)) {
        const which = versions.findIndex((v) => got?.equals(v));
        expect(which, `round ${round}: a read of ${got?.length} bytes`).not.toBe(-1);
        seen.add(which);
      }
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('answers undefined for missing keys, and deleting a missing key is not an error', async () => {
    expect(await store.get('missing/nothing')).toBeUndefined();
    expect(await store.head('missing/nothing')).toBeUndefined();
    await store.delete('missing/nothing');
    await store.put('d/x', Buffer.from('x'), 'text/plain');
    await store.delete('d/x');
    expect(await store.get('d/x')).toBeUndefined();
  });

  it('lists one level with the delimiter: folders and files in order, hidden entries left out', async () => {
    for (const key of ['l/b.six', 'l/a.six', 'l/sub1/x', 'l/sub2/deep/y', 'l/.derived/c.cols.gz', 'l2/other']) {
      await store.put(key, Buffer.from(key), 'text/plain');
    }
    expect(await store.list('l/', { maxResults: 100 })).toEqual({
      prefixes: ['l/sub1/', 'l/sub2/'],
      items: ['l/a.six', 'l/b.six'],
      nextPageToken: undefined,
    });
    expect(await store.list('l', { maxResults: 100 })).toEqual({
      prefixes: ['l/sub1/', 'l/sub2/'],
      items: ['l/a.six', 'l/b.six'],
      nextPageToken: undefined,
    });
    expect(await store.list('l/sub2', { maxResults: 100 })).toEqual({
      prefixes: ['l/sub2/deep/'],
      items: [],
      nextPageToken: undefined,
    });
    expect(await store.list('nothing-here', { maxResults: 100 })).toEqual({
      prefixes: [],
      items: [],
      nextPageToken: undefined,
    });
    const root = await store.list('', { maxResults: 100 });
    expect(root.prefixes).toEqual(expect.arrayContaining(['l/', 'l2/']));
  });

  it('pages with a token: every entry once, in order, across folders and files', async () => {
    const keys = Array.from({ length: 23 }, (_, i) => `p/f${String(i).padStart(2, '0')}`);
    for (const key of keys) await store.put(key, Buffer.from(key), 'text/plain');
    for (const dir of ['p/f05x/a', 'p/f05x/b', 'p/g/a']) await store.put(dir, Buffer.from(dir), 'text/plain');
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await store.list('p/', { maxResults: 5, pageToken: token });
      expect(page.prefixes.length + page.items.length).toBeLessThanOrEqual(5);
      seen.push(...[...page.prefixes, ...page.items].sort());
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 20);
    const expected = [...keys, 'p/f05x/', 'p/g/'].sort();
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 5));
  });

  it('putFile takes over a file written at tempPath(): stored exactly, the file gone; getStream streams it back', async () => {
    const body = randomBytes(3 * 1024 * 1024 + 17);
    const file = await store.tempPath();
    writeFileSync(file, body);
    const meta = await store.putFile('f/big.six', file, 'text/plain; charset=utf-8', { md5: md5(body) });
    expect(meta).toMatchObject({ size: body.length, md5Hash: md5(body) });
    expect(existsSync(file)).toBe(false);
    expect(await store.head('f/big.six')).toMatchObject({
      size: body.length,
      md5Hash: md5(body),
      contentType: 'text/plain; charset=utf-8',
    });
    const streamed = await store.getStream('f/big.six');
    expect(streamed?.size).toBe(body.length);
    const chunks: Buffer[] = [];
    for await (const chunk of streamed!.body) chunks.push(Buffer.from(chunk));
    expect(chunks.length).toBeGreaterThan(1); // really streamed, not one buffer
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect(await store.getStream('f/missing')).toBeUndefined();
  });

  it('sweepTemp removes the temp files a crash left behind, and nothing else', async () => {
    await store.put('sw/kept', Buffer.from('kept'), 'text/plain');
    const left = await store.tempPath();
    writeFileSync(left, 'half an upload');
    expect(await store.sweepTemp()).toBeGreaterThanOrEqual(1);
    expect(existsSync(left)).toBe(false);
    expect((await store.get('sw/kept'))?.toString()).toBe('kept');
  });

  it('refuses unsafe keys before touching the store', async () => {
    for (const key of ['', '../x', 'a/../b', 'a//b', 'a\\b']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe blob key/);
    }
  });

  it('is reachable (ping)', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe('S3 checksums', () => {
  it('a put whose stored bytes do not match the MD5 sent with them fails loudly', async () => {
    // AWS S3 refuses such a body (BadDigest) and keeps the old object; s3rver does not check
    // Content-MD5, so what is shown here is the store's own ETag comparison.
    const env = await s3.bucketEnv();
    const store = createBlobStore(loadConfig({ DATA_DIR: os.tmpdir(), ...env }));
    await expect(store.put('c/file', Buffer.from('damaged'), 'text/plain', { md5: md5('original') })).rejects.toThrow(
      /other bytes than were sent/,
    );
  });

  it('a missing bucket fails the reachability probe', async () => {
    const env = await s3.bucketEnv();
    const store = createBlobStore(loadConfig({ DATA_DIR: os.tmpdir(), ...env, S3_BUCKET: 'no-such-bucket' }));
    await expect(store.ping()).rejects.toThrow();
  });
});
