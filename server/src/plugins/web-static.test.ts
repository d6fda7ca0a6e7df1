import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../web/build/precompress';
import { pagePreloads, webStatic } from './web-static';

// The built app as the build leaves it (web/build/precompress.ts writes .br and .gz beside each
// text file), served by the real plugin.
let root: string;
let app: FastifyInstance;
const script = `export const laps = [${Array.from({ length: 400 }, (_, i) => `{ lap: ${i}, time: '01:3${i % 10}.${i}' }`).join(', ')}];\n`;
const page = `<!doctype html><html lang="pt-BR"><head><title>Voltas</title></head><body><div id="root"></div>${'<!-- pista -->'.repeat(100)}</body></html>\n`;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'voltas-web-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), page);
  writeFileSync(path.join(root, 'assets', 'laps-page-abc123.js'), script);
  writeFileSync(path.join(root, 'assets', 'tiny-def456.js'), 'export {};\n');
  writeFileSync(path.join(root, 'assets', 'photo-0a1b2c.png'), Buffer.alloc(4096, 7));
  await precompressDir(root);
  app = Fastify();
  await app.register(webStatic, { root });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the build step', () => {
  it('writes Brotli and gzip copies of text files that decompress to the file, and none of small or binary files', () => {
    for (const ext of ['br', 'gz']) {
      expect(existsSync(path.join(root, 'assets', `laps-page-abc123.js.${ext}`))).toBe(true);
      expect(existsSync(path.join(root, `index.html.${ext}`))).toBe(true);
      expect(existsSync(path.join(root, 'assets', `tiny-def456.js.${ext}`))).toBe(false);
      expect(existsSync(path.join(root, 'assets', `photo-0a1b2c.png.${ext}`))).toBe(false);
    }
  });
});

describe('serving', () => {
  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends Brotli to a browser that takes it, with the cache headers of a hashed asset', async () => {
    const res = await get('/assets/laps-page-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client that takes only gzip, and the file itself to one that takes neither', async () => {
    const gz = await get('/assets/laps-page-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    for (const plain of [
      await get('/assets/laps-page-abc123.js'),
      await get('/assets/laps-page-abc123.js', 'identity'),
    ]) {
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
    }
  });

  it('sends a file without compressed copies as it is, even to a browser', async () => {
    const res = await get('/assets/tiny-def456.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};\n');
  });

  it("compresses the app's page on every route it answers, and still 404s a missing file", async () => {
    const res = await get('/analytics?hw=000000000900', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(page);
    expect((await get('/assets/gone-999.js', 'br')).statusCode).toBe(404);
  });
});

describe('preloads named by the address', () => {
  it("the analytics page's analysis and laps start downloading with its HTML (its GPS file once they have painted)", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/analytics?hw=000000000900&pista=Vila%20Real&data=02112026&cor=inclinacao',
    });
    expect(res.statusCode).toBe(200);
    const base = '/api/devices/000000000900/sessions/Vila%20Real/02112026';
    expect(res.headers.link).toBe(
      ['analysis', 'laps'].map((p) => `<${base}/${p}>; rel=preload; as=fetch; crossorigin`).join(', '),
    );
  });

  it('none for other pages, or for an address that names no valid session', async () => {
    expect(
      (await app.inject({ method: 'GET', url: '/laps?hw=000000000900&pista=Interlagos&data=02112026' })).headers.link,
    ).toBeUndefined();
    // A name given twice is no session either.
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/analytics?hw=000000000900&hw=000000000901&pista=Interlagos&data=02112026',
        })
      ).headers.link,
    ).toBeUndefined();
    for (const query of [
      '',
      'hw=000000000900&pista=Interlagos',
      'hw=12&pista=Interlagos&data=02112026',
      'hw=000000000900&pista=Interlagos&data=2026-11-02',
      `hw=000000000900&pista=${'x'.repeat(65)}&data=02112026`,
    ]) {
      expect(pagePreloads('/analytics', Object.fromEntries(new URLSearchParams(query))), query).toBeUndefined();
    }
  });

  it("a signed-in rider's page starts on who they are and their preferences with its HTML", () => {
    const me = ['/api/me', '/api/me/preferences'].map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`);
    expect(pagePreloads('/laps', {}, true)).toBe(me.join(', '));
    expect(pagePreloads('/laps', {}, false)).toBeUndefined();
    const analytics = pagePreloads('/analytics', { hw: '000000000900', pista: 'Interlagos', data: '02112026' }, true);
    expect(analytics!.split(', ')).toEqual([
      ...me,
      ...['analysis', 'laps'].map(
        (p) => `</api/devices/000000000900/sessions/Interlagos/02112026/${p}>; rel=preload; as=fetch; crossorigin`,
      ),
    ]);
  });

  it('a hostile track name stays inside its URL (percent-encoded: no header or link injection)', () => {
    const link = pagePreloads('/analytics', {
      hw: '000000000900',
      pista: 'x>; rel=preload; as=script, <//evil.example/a.js\r\nSet-Cookie: a',
      data: '02112026',
    })!;
    expect(link.split(', ')).toHaveLength(2);
    expect(link).not.toMatch(/[\r\n]|evil\.example\/a\.js>|as=script/);
    for (const part of link.split(', '))
      expect(part).toMatch(
        /^<\/api\/devices\/000000000900\/sessions\/[^<>;, ]+\/02112026\/(analysis|laps)>; rel=preload; as=fetch; crossorigin$/,
      );
  });
});
