import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { createRandom } from '#core/sim/random.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// Hostile imports over real HTTP, against a server whose import limits are made small (1 MB, a
// .gz 20 times its size): each is refused with a 4xx and a reason in Portuguese, nothing is
// stored, and the server goes on answering.

const MB = 1024 * 1024;
let server: TestServer;
let rider: Browser;
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const day = { y: 2026, m: 3, d: 8 };
const gen = generateSession(interlagos, { seed: 21, heats: 1, lapsPerHeat: [2, 2] });
const c = parseGpsSix(gen.gpsSix).value;
const gate = { a: { lat: -23.7, lon: -46.69 }, b: { lat: -23.7001, lon: -46.6901 } };

async function importFile(b: Browser, filename: string, body: string | Buffer) {
  const res = await b.request(`/api/imports?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer & { code?: string; mensagem?: string } };
}

async function stillServing(s: TestServer) {
  expect((await fetch(`${s.baseUrl}/api/health`)).status).toBe(200);
}

/** What the rider has stored: no session, no file (an import refused keeps nothing). */
async function nothingStored(b: Browser) {
  const me = (await (await b.request('/api/me')).json()) as { devices: string[] };
  for (const device of me.devices.filter((d) => d.startsWith('imp'))) {
    const { tracks } = (await (await b.request(`/api/devices/${device}/tracks`)).json()) as { tracks: string[] };
    expect(tracks).toEqual([]);
  }
}

beforeAll(async () => {
  server = await startTestServer({}, { imports: { maxBytes: MB, inflateRatio: 20 } });
  rider = new Browser(server.baseUrl);
  await rider.signIn('hostil@example.com');
});
afterAll(async () => {
  await server.close();
});

describe('hostile imports are refused with a 4xx and the server keeps serving', () => {
  it('a SpeedAngle .sa.gz whose <timer> holds 6,000 crossings: 422, not 6,000 laps kept', async () => {
    const random = createRandom(3);
    const laps = Array.from({ length: 6000 }, (_, k) => ({
      ...gen.laps[k % gen.laps.length]!,
      lapTimeMs: random.int(80_000, 120_000),
    }));
    const sa = gzipSync(W.writeSpeedAngle(c, day, laps, gate));
    const r = await importFile(rider, 'bomba.sa.gz', sa);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('import/too-complex');
    expect(r.body.mensagem).toContain('voltas próprias');
    await stillServing(server);
    await nothingStored(rider);
  });

  it('a RaceChrono CSV whose lap number changes on every row: 422', async () => {
    const lines = W.writeRaceChrono(c, day).split('\n');
    const header = lines.slice(0, 12);
    const lap = header[9]!.split(',').indexOf('lap_number');
    const rows = lines.slice(12, 12 + 7000).map((row, k) => {
      const f = row.split(',');
      f[lap] = String(k);
      return f.join(',');
    });
    const r = await importFile(rider, 'voltas.csv', [...header, ...rows, ''].join('\n'));
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('import/too-complex');
    await stillServing(server);
  });

  it('an AiM CSV with a header of 1,000 lines before its names row: 422', async () => {
    const aim = W.writeAim(c, day, gen.laps, 10).split('\n');
    const padding = Array.from({ length: 1000 }, (_, k) => `"Campo ${k}","${'x'.repeat(200)}"`);
    const r = await importFile(rider, 'aim.csv', [aim[0], ...padding, ...aim.slice(1)].join('\n'));
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('import/too-complex');
    expect(r.body.mensagem).toContain('linhas de cabeçalho');
    await stillServing(server);
  });

  it('a .gz that inflates past 20 times its size: 413 at that point, nothing stored', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from(W.nmeaSentence('GPRMC,120000.00,A,2342.000,S,04641.000,W,10.0,90.0,151126,,') + '\n'),
        Buffer.alloc(900_000, 0x20),
      ]),
    );
    expect(bomb.length * 20).toBeLessThan(900_000); // under the 1 MB limit inflated, over the ratio
    const r = await importFile(rider, 'bomba.nmea.gz', bomb);
    expect(r.status).toBe(413);
    expect(r.body.mensagem).toContain('descomprimido');
    expect(r.body.mensagem).toContain('20 vezes');
    await stillServing(server);
    await nothingStored(rider);
  });

  it('a damaged .gz, and one cut short: 422 with the reason, not 500', async () => {
    const good = gzipSync(W.writeNmea(c, day));
    const flipped = Buffer.from(good);
    for (let i = 200; i < 260; i++) flipped[i] = flipped[i]! ^ 0x5a;
    for (const [name, body] of [
      ['danificado.nmea.gz', flipped],
      ['cortado.nmea.gz', good.subarray(0, good.length >> 1)],
    ] as const) {
      const r = await importFile(rider, name, body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('import/corrupt-gzip');
      expect(r.body.mensagem).toContain('danificado');
    }
    await stillServing(server);
  });

  it('a body over the limit (1 MB here): 413 before it is read to its end', async () => {
    // A RaceChrono file whose rows are all unreadable, sent without a declared length: only its size stops it.
    const chunk = Buffer.alloc(64 * 1024, 'A\n');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent++ >= 300) ctl.close();
        else ctl.enqueue(sent === 1 ? Buffer.concat([Buffer.from('Format,3\n'), chunk]) : chunk);
      },
    });
    const res = await rider
      .request('/api/imports?filename=big.csv', {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { 'content-type': 'text/csv' },
      } as RequestInit)
      .catch((e: Error) => e);
    if (res instanceof Error) expect(sent).toBeLessThan(300);
    else expect(res.status).toBe(413);
    await stillServing(server);
  });

  it('a declared Content-Length of 1 TB: 413 before any of the body is read', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(new URL('/api/imports?filename=enorme.csv', server.baseUrl), {
        method: 'POST',
        headers: { cookie: rider.cookieHeader(), 'content-type': 'text/csv', 'content-length': String(1e12) },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('Format,3\n'); // and nothing more: the answer must come without the rest
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { mensagem: string }).mensagem).toContain('até 1 MB');
    await stillServing(server);
  });
});

describe('a reading worker that runs out of memory or time fails its own import only', () => {
  const file = W.writeVbo(c, day);

  // A worker out of memory while it reads is replaced by the pool and its import answered 422
  // 'memória'; one that cannot even start (a heap too small to load the readers in) is retried by
  // the pool until the import's time budget runs out.
  it('a worker that cannot run (a heap of 12 MB, too small to load the readers in): 422 within the time budget; the server and other riders go on', async () => {
    const small = await startTestServer({}, { imports: { heapMb: 12, timeMs: 3_000 } });
    try {
      const a = new Browser(small.baseUrl);
      await a.signIn('ana@example.com');
      const r = await importFile(a, 'sessao.vbo', file);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('import/too-complex');
      await stillServing(small);
      expect((await a.request('/api/me')).status).toBe(200);
      await nothingStored(a);
    } finally {
      await small.close();
    }
  });

  it('out of time (a budget of 1 ms): 422 saying so', async () => {
    const hurried = await startTestServer({}, { imports: { timeMs: 1 } });
    try {
      const a = new Browser(hurried.baseUrl);
      await a.signIn('ana@example.com');
      const r = await importFile(a, 'sessao.vbo', file);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('import/too-complex');
      expect(r.body.mensagem).toContain('levaria mais');
      await stillServing(hurried);
    } finally {
      await hurried.close();
    }
  });

  it('with one worker for the instance, two riders importing at once both get their sessions (the second waits its turn)', async () => {
    const one = await startTestServer({}, { imports: { concurrency: 1 } });
    try {
      const [a, b] = [new Browser(one.baseUrl), new Browser(one.baseUrl)];
      await a.signIn('ana@example.com');
      await b.signIn('bia@example.com');
      const [ra, rb] = await Promise.all([importFile(a, 'a.vbo', file), importFile(b, 'b.gpx', W.writeGpx(c, day))]);
      expect([ra.status, rb.status]).toEqual([201, 201]);
      expect(ra.body.laps).toEqual(rb.body.laps);
    } finally {
      await one.close();
    }
  });
});
