import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBlobStore } from './local-blob-store';

const md5 = (s: string) => createHash('md5').update(s).digest('base64');

describe('LocalBlobStore', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'voltas-blobs-'));
  const store = new LocalBlobStore(root);

  it('puts, reads back, overwrites (new generation, same creation time) and deletes', async () => {
    const first = await store.put('d/t/01012026/lap.six', Buffer.from('one'), 'text/plain');
    expect(first).toMatchObject({ size: 3, md5Hash: md5('one'), contentType: 'text/plain' });
    const second = await store.put('d/t/01012026/lap.six', Buffer.from('second'), 'text/plain');
    expect(second.generation).not.toBe(first.generation);
    expect(second.timeCreated).toBe(first.timeCreated);
    expect((await store.get('d/t/01012026/lap.six'))?.toString()).toBe('second');
    expect(await store.head('d/t/01012026/lap.six')).toMatchObject({ size: 6, md5Hash: md5('second') });
    await store.delete('d/t/01012026/lap.six');
    expect(await store.get('d/t/01012026/lap.six')).toBeUndefined();
    expect(await store.head('d/t/01012026/lap.six')).toBeUndefined();
  });

  it('leaves no temporary file behind and lists neither sidecars, temp nor derived entries', async () => {
    await store.put('x/a', Buffer.from('a'), 'text/plain');
    await store.put('x/.derived/a.cols.gz', Buffer.from('z'), 'application/octet-stream', { durable: false });
    await store.put('x/b', Buffer.from('b'), 'text/plain');
    expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
    expect(await store.list('x/', { maxResults: 10 })).toEqual({
      prefixes: [],
      items: ['x/a', 'x/b'],
      nextPageToken: undefined,
    });
    const page1 = await store.list('x', { maxResults: 1 });
    expect(page1.items).toEqual(['x/a']);
    expect((await store.list('x', { maxResults: 1, pageToken: page1.nextPageToken })).items).toEqual(['x/b']);
    expect((await store.list('', { maxResults: 10 })).prefixes).toEqual(expect.arrayContaining(['x/']));
  });

  it('ignores a stale metadata sidecar (data changed behind it, e.g. after a crash) and recomputes', async () => {
    await store.put('s/file', Buffer.from('old bytes'), 'text/plain');
    const file = path.join(root, 's', 'file');
    writeFileSync(file, 'new bytes, longer');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await store.head('s/file')).toMatchObject({ size: 17, md5Hash: md5('new bytes, longer') });
  });

  it('refuses unsafe keys', async () => {
    for (const key of ['', '../x', 'a/../b', 'a//b', 'a/./b', 'a\\b', 'a\u0000b']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe blob key/);
    }
  });
});
