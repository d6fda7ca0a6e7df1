import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// Issue 58, first HIGH: one rider made every other rider's imports fail. Eight abandoned uploads
// of a .gpx.gz of 255 MiB of empty elements (nothing stored, so the same bytes again and again)
// freed their rider's "two at a time" slots while their workers went on, queued ahead of everyone
// on the pool, and another rider's valid import failed at its time budget, which had started in
// the queue. Over real HTTP, on a server with one import worker and a 5 s budget: the slot is held
// until the server is done, the budget starts with the work, riders take turns on the pool, and a
// file of markup with no fixes is refused at its first megabyte.

const MB = 1024 * 1024;
const BUDGET_MS = 5_000;
let server: TestServer;
const riders = new Map<string, Browser>();
const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const c = parseGpsSix(generateSession(interlagos, { seed: 21, heats: 1, lapsPerHeat: [2, 2] }).gpsSix).value;
/** A rider's ordinary import: a 1.2 MB GPX of two laps at Interlagos (half a second of a worker). */
const valid = Buffer.from(W.writeGpx(c, { y: 2026, m: 3, d: 8 }));

const head =
  '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n';
const fix = (k: number) =>
  `<trkpt lat="${(-23.7 + k * 1e-7).toFixed(7)}" lon="-46.69"><time>${new Date(Date.UTC(2026, 2, 8, 12) + k * 100).toISOString()}</time></trkpt>\n`;

/** The bomb: a .gpx.gz of 255 MiB of empty `<a/>` (~12 s of a worker to read to its end). */
const markupBomb = gzipSync(Buffer.concat([Buffer.from(head), Buffer.alloc(255 * MB, '<a/>')]));

/**
 * A .gpx.gz that is slow to read yet not refused early: a fix every 15,000 characters (70 a MB,
 * above the bound), empty elements between them; `tail` after its last fix (a DTD refuses it then).
 */
function slowGpx(mb: number, tail = '') {
  const junk = Buffer.alloc(15_000, '<a/>');
  const parts = [Buffer.from(head)];
  for (let k = 0; k < (mb * MB) / junk.length; k++) parts.push(Buffer.from(fix(k)), junk);
  parts.push(Buffer.from(`${tail}</trkseg></trk></gpx>\n`));
  return gzipSync(Buffer.concat(parts), { level: 1 });
}
/** 240 MiB: far longer to read than the budget, so stopped there (it fails alone, 422). */
const overBudget = slowGpx(240);
/** 12 MiB ending with a DTD: read to its end (half a second or so of a worker), then refused. */
const floodFile = slowGpx(12, '<!DOCTYPE gpx>');

async function rider(email: string): Promise<Browser> {
  let b = riders.get(email);
  if (!b) {
    b = new Browser(server.baseUrl);
    await b.signIn(email);
    riders.set(email, b);
  }
  return b;
}

async function importFile(b: Browser, filename: string, body: Buffer, language = 'pt-BR') {
  const res = await b.request(`/api/imports?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream', 'accept-language': language },
  });
  return { status: res.status, body: (await res.json()) as { code?: string; mensagem?: string; laps?: unknown[] } };
}

/** An upload sent whole, whose client then hangs up without waiting for the answer. */
async function abandonedUpload(b: Browser, filename: string, body: Buffer): Promise<void> {
  const req = http.request(new URL(`/api/imports?filename=${filename}`, server.baseUrl), {
    method: 'POST',
    headers: {
      cookie: b.cookieHeader(),
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
    },
  });
  req.on('error', () => undefined);
  await new Promise<void>((resolve) => req.end(body, resolve));
  await sleep(1_000); // the server (in this process) reads the body and hands it to a worker
  req.destroy();
}

beforeAll(async () => {
  // One worker, a 5 s budget, and room for the hostile .gz files to inflate (their ratio is ~1000).
  server = await startTestServer({}, { imports: { concurrency: 1, timeMs: BUDGET_MS, inflateRatio: 2000 } });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('one rider cannot make the other riders imports fail (issue 58)', () => {
  it('a client that hangs up keeps its slot until the server is done with its upload', async () => {
    const hostile = await rider('abandona@example.com');
    // Two uploads, each a budget's worth of work for the one worker, abandoned once sent.
    await Promise.all([
      abandonedUpload(hostile, 'a.gpx.gz', overBudget),
      abandonedUpload(hostile, 'b.gpx.gz', overBudget),
    ]);
    await sleep(500); // the server sees both clients go
    // The server still works on both: a third waits for none.
    const third = await importFile(hostile, 'c.gpx', valid);
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('auth/too-many-requests');
    // Once both are done (stopped at their budget), the rider imports again.
    let again = third;
    while (again.status === 429) {
      await sleep(250);
      again = await importFile(hostile, 'c.gpx', valid);
    }
    expect(again.status).toBe(201);
  }, 60_000);

  it("another rider's import gets its whole budget, however long it waited for the worker", async () => {
    const h1 = await rider('lento1@example.com');
    const h2 = await rider('lento2@example.com');
    const ana = await rider('ana@example.com');
    // Ana's import waits for the rest of one file's budget and the whole of another's: more than its own.
    const slow1 = importFile(h1, 'lento.gpx.gz', overBudget);
    await sleep(500);
    const slow2 = importFile(h2, 'lento.gpx.gz', overBudget);
    await sleep(500);
    const mine = await importFile(ana, 'manha.gpx', valid);
    expect(mine.status).toBe(201);
    expect(mine.body.laps!.length).toBeGreaterThan(0);
    // The slow files fail alone.
    for (const r of await Promise.all([slow1, slow2])) {
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('import/too-complex');
    }
  }, 60_000);

  it('riders share the worker: three riders flooding it hold back a fourth by a turn each at most, not by their whole queue', async () => {
    const hostile = await Promise.all(['inunda1@example.com', 'inunda2@example.com', 'inunda3@example.com'].map(rider));
    let flooding = true;
    let answered = 0;
    const statuses = new Set<number>();
    // Each hostile rider keeps its two imports in flight, sending the next as soon as one is answered.
    const floods = hostile.flatMap((b) =>
      [0, 1].map(async () => {
        while (flooding) {
          const r = await importFile(b, 'inunda.gpx.gz', floodFile);
          statuses.add(r.status);
          answered++;
        }
      }),
    );
    while (answered < 6) await sleep(50); // every hostile rider has had the worker
    const before = answered;
    const mine = await importFile(await rider('bia@example.com'), 'tarde.gpx', valid);
    const meanwhile = answered - before;
    flooding = false;
    await Promise.all(floods);
    expect(mine.status).toBe(201);
    expect([...statuses]).toEqual([422]); // each hostile file refused (its DTD), nothing stored
    // Bia's import is a few short tasks (read, analyse); the worker goes to the rider who has used
    // it least, so before each of them at most one task of each of the three hostile riders runs
    // (and the one running when she came): 7 at most, 2 seen. In one queue, first come first
    // served, each of her tasks waited for all six of theirs: 12 seen.
    expect(meanwhile).toBeLessThanOrEqual(1 + 3 * 2);
  }, 120_000);

  it("a .gpx.gz of 255 MiB of empty elements is refused at its first megabyte: 422 naming what a GPX holds, in the rider's language", async () => {
    const hostile = await rider('bomba@example.com');
    const pt = await importFile(hostile, 'bomba.gpx.gz', markupBomb);
    expect(pt.status).toBe(422);
    expect(pt.body.code).toBe('import/too-few-fixes');
    expect(pt.body.mensagem).toMatch(
      /^Em 1 MB do GPX \(até a linha \d+\) há só 0 pontos de trajeto com posição e hora/,
    );
    const es = await importFile(hostile, 'bomba.gpx.gz', markupBomb, 'es');
    expect(es.body.code).toBe('import/too-few-fixes');
    expect(es.body.mensagem).toMatch(/^En 1 MB del GPX \(hasta la línea \d+\) hay solo 0 puntos de trayecto/);
  }, 60_000);

  it("the issue's attack replayed: eight abandoned bomb uploads, then another rider's valid import succeeds", async () => {
    const hostile = await rider('bomba@example.com');
    await Promise.all(Array.from({ length: 8 }, (_, k) => abandonedUpload(hostile, `bomba${k}.gpx.gz`, markupBomb)));
    const mine = await importFile(await rider('carla@example.com'), 'manha.gpx', valid);
    expect(mine.status).toBe(201);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  }, 60_000);
});
