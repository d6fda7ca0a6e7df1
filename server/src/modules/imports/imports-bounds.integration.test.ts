import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportAnswer } from '#core/contracts/imports.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// A session takes a bounded number of files and of fixes (issue 58: a session of many files,
// each joining through `?track=`, stalled the whole server): over HTTP, the file past either is
// refused with the limit named in the rider's language, and nothing of it is kept.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const day = { y: 2026, m: 9, d: 12 };
/** A run of two laps at `hour` UTC: files of one day that follow each other (heats). */
const run = (hour: number, laps = 2) =>
  parseGpsSix(
    generateSession(interlagos, {
      seed: 60 + hour,
      heats: 1,
      lapsPerHeat: [laps, laps],
      gpsNoise: 0.2,
      startTimeMs: hour * 3_600_000,
    }).gpsSix,
  ).value;
const short = [9, 10, 11, 12].map((h) => run(h));
const long = run(14, 8);
const FILES = 3;
// Three short runs fit; a short and the long one do not.
const FIXES = short.slice(0, 3).reduce((n, c) => n + c.count, 0) + 100;

let server: TestServer;

async function importFile(b: Browser, filename: string, body: string, query = '') {
  const res = await b.request(`/api/imports?filename=${encodeURIComponent(filename)}${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream', 'accept-language': 'pt-BR' },
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer & { code?: string; mensagem?: string } };
}
const used = async (b: Browser) =>
  ((await (await b.request('/api/imports/storage')).json()) as { usedBytes: number }).usedBytes;

beforeAll(async () => {
  server = await startTestServer({}, { imports: { maxSessionFiles: FILES, maxSessionFixes: FIXES }, inject: true });
});
afterAll(async () => {
  await server.close();
});

describe('a session takes at most so many files and fixes', () => {
  it(`the ${FILES + 1}th file of one track day is refused (409) with the limit, through ?track= too; nothing of it kept`, async () => {
    expect(long.count + short[0]!.count).toBeGreaterThan(FIXES);
    const rider = new Browser(server);
    await rider.signIn('muitos@example.com');
    let answer!: ImportAnswer;
    for (let k = 0; k < FILES; k++) {
      const r = await importFile(rider, `bateria${k + 1}.gpx`, W.writeGpx(short[k]!, day));
      expect(r.status).toBe(201);
      expect(r.body.files).toBe(k + 1);
      answer = r.body;
    }
    const before = await used(rider);
    const extra = W.writeGpx(short[3]!, day);
    const refused = await importFile(rider, 'bateria4.gpx', extra);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('import/session-full');
    expect(refused.body.mensagem).toBe(
      'Uma sessão (uma pista, um dia) aceita no máximo 3 arquivos, e esta já os tem; nada foi gravado.',
    );
    // Named into the session with ?track=: the same.
    const named = await importFile(rider, 'bateria4.gpx', extra, `&track=${encodeURIComponent(answer.session.track)}`);
    expect(named.status).toBe(409);
    expect(named.body.code).toBe('import/session-full');
    expect(await used(rider)).toBe(before);
    // Under another name it is a session of its own.
    const other = await importFile(rider, 'bateria4.gpx', extra, '&track=Treino');
    expect(other.status).toBe(201);
    expect(other.body.files).toBe(1);
  });

  it('a file that would take the session past its fixes is refused (409) with both counts; the session stays as it was', async () => {
    const rider = new Browser(server);
    await rider.signIn('longo@example.com');
    const first = await importFile(rider, 'manha.gpx', W.writeGpx(short[0]!, day));
    expect(first.status).toBe(201);
    const s = first.body.session;
    const laps = async () =>
      (await (await rider.request(`/api/devices/${s.device}/sessions/${s.track}/${s.date}/laps`)).json()) as {
        laps: unknown[];
      };
    const [before, lapsBefore] = [await used(rider), await laps()];
    const refused = await importFile(rider, 'tarde.gpx', W.writeGpx(long, day));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('import/session-full');
    const fixes = (short[0]!.count + long.count).toLocaleString('pt-BR');
    expect(refused.body.mensagem).toBe(
      `Com este arquivo a sessão (uma pista, um dia) teria ${fixes} pontos de GPS, mais que os ${FIXES.toLocaleString('pt-BR')} que uma sessão aceita; nada foi gravado.`,
    );
    expect(await used(rider)).toBe(before);
    expect(await laps()).toEqual(lapsBefore);
  });
});
