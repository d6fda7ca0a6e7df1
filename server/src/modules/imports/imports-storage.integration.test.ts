import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportAnswer, ImportStorage } from '#core/contracts/imports.contract.ts';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import * as W from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { gpsColumnsKey } from '#server/modules/sessions/session-files.ts';
import { addDevice, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

// Each rider's storage quota (issue 58: at 60 imports a minute a rider filled the disk, each
// import keeping 7-10 times what was sent): over HTTP, what a rider stores is counted as the blob
// store holds it, an import kept is its raw file and its session's columns (no gps.six text
// beside them), and the import that would pass the quota is refused with how much is used, the
// limit, and what to delete; deleting makes room.

const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
const run = (seed: number, hour: number) =>
  parseGpsSix(
    generateSession(interlagos, {
      seed,
      heats: 1,
      lapsPerHeat: [2, 2],
      gpsNoise: 0.2,
      startTimeMs: hour * 3_600_000,
    }).gpsSix,
  ).value;
const morning = W.writeGpx(run(71, 9), { y: 2026, m: 8, d: 1 });
const afternoon = W.writeGpx(run(72, 15), { y: 2026, m: 8, d: 1 });
const nextDay = W.writeGpx(run(73, 10), { y: 2026, m: 8, d: 2 });
const MiB = 1024 * 1024;
// Room for the first two files and their sessions' columns, not for a third as large.
const QUOTA_MB = Math.round(((morning.length + afternoon.length + nextDay.length / 2) / MiB) * 1000) / 1000;

let server: TestServer;

async function importFile(b: Browser, filename: string, body: string) {
  const res = await b.request(`/api/imports?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream', 'accept-language': 'pt-BR' },
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer & { code?: string; mensagem?: string } };
}
const storage = async (b: Browser) => (await (await b.request('/api/imports/storage')).json()) as ImportStorage;

beforeAll(async () => {
  server = await startTestServer({ RIDER_QUOTA_MB: String(QUOTA_MB) }, { inject: true });
});
afterAll(async () => {
  await server.close();
});

describe("each rider's storage", () => {
  let rider: Browser;
  let first: ImportAnswer;

  it('is counted as the blob store holds it: the raw files and the session’s columns and lap.six, no gps.six text', async () => {
    rider = new Browser(server);
    await rider.signIn('cota@example.com');
    expect(await storage(rider)).toEqual({ usedBytes: 0, limitBytes: Math.round(QUOTA_MB * MiB) });
    first = (await importFile(rider, 'manha.gpx', morning)).body;
    const second = await importFile(rider, 'tarde.gpx', afternoon);
    expect(second.status).toBe(201);
    expect(second.body.files).toBe(2);
    const s = second.body.session;
    const id = `${s.device}/${s.track}/${s.date}`;
    // Listed: the lap.six alone (the gps.six is made from the columns when read).
    expect((await server.blobs.list(`${id}/`, { maxResults: 100 })).items).toEqual([`${id}/lap.six`]);
    expect(await server.blobs.head(`${id}/gps.six`)).toBeUndefined();
    const meta = (await (
      await rider.request(`/api/storage/metadata?path=${encodeURIComponent(`${id}/gps.six`)}`)
    ).json()) as { size: number; md5Hash: string };
    const held = [
      ...[morning, afternoon].map((body) => `${id}/.imports/${createHash('md5').update(body).digest('hex')}`),
      gpsColumnsKey(id, meta.md5Hash),
      `${id}/lap.six`,
    ];
    const sizes = await Promise.all(held.map(async (key) => (await server.blobs.head(key))!.size));
    const used = (await storage(rider)).usedBytes;
    expect(used).toBe(sizes.reduce((a, b) => a + b, 0));
    // The raw files byte for byte, and the rest much smaller than the gps.six text it stands for.
    const raw = Buffer.byteLength(morning) + Buffer.byteLength(afternoon);
    expect(used - raw).toBeGreaterThan(0);
    const exported = await rider.request(`/api/devices/${s.device}/sessions/${s.track}/${s.date}/export/gps.six`);
    const text = await exported.text();
    expect(parseGpsSix(text).value.count).toBe(second.body.samples);
    expect(used - raw).toBeLessThan(Buffer.byteLength(text) / 4);
    // The spec's storage view describes it with the size and md5 of that text.
    expect(meta.size).toBe(Buffer.byteLength(text));
    expect(meta.md5Hash).toBe(createHash('md5').update(text).digest('base64'));
  });

  it('refuses (413) the import that would pass it, saying how much is used, the limit and what to delete; deleting makes room', async () => {
    const before = await storage(rider);
    const refused = await importFile(rider, 'outro-dia.gpx', nextDay);
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('import/quota-exceeded');
    const mb = (bytes: number) => (Math.ceil((bytes / MiB) * 10) / 10).toLocaleString('pt-BR');
    expect(refused.body.mensagem).toBe(
      `Você guarda ${mb(before.usedBytes)} MB de ${mb(before.limitBytes)} MB, e esta importação precisa de uns ${mb(Buffer.byteLength(nextDay))} MB; nada foi gravado. Apague as sessões importadas de que não precisa mais (Importar sessões → Apagar sessão importada) e tente de novo.`,
    );
    expect(await storage(rider)).toEqual(before);
    const s = first.session;
    expect(
      (await rider.request(`/api/devices/${s.device}/sessions/${s.track}/${s.date}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await storage(rider)).usedBytes).toBe(0);
    expect((await importFile(rider, 'outro-dia.gpx', nextDay)).status).toBe(201);
  });

  it('counts a device session of the rider as stored: its gps.six exactly as sent, its lap.six, its columns', async () => {
    const before = (await storage(rider)).usedBytes;
    const token = await addDevice(server, '000000000058', 'cota@example.com');
    const g = generateSession(interlagos, { seed: 74, heats: 1, lapsPerHeat: [2, 2] });
    expect((await put(server, '/api/device/v1/sessions/Interlagos/03082026/gps.six', token, g.gpsSix)).status).toBe(
      200,
    );
    expect((await put(server, '/api/device/v1/sessions/Interlagos/03082026/lap.six', token, g.lapSix)).status).toBe(
      200,
    );
    await server.receiver.drain(); // the derived columns are written after the answer
    const id = '000000000058/Interlagos/03082026';
    const six = await server.blobs.head(`${id}/gps.six`);
    expect(six!.size).toBe(Buffer.byteLength(g.gpsSix));
    const keys = [`${id}/gps.six`, `${id}/lap.six`, gpsColumnsKey(id, six!.md5Hash)];
    const sizes = await Promise.all(keys.map(async (key) => (await server.blobs.head(key))!.size));
    expect((await storage(rider)).usedBytes - before).toBe(sizes.reduce((a, b) => a + b, 0));
  });

  it('is each rider’s own: another rider imports as before', async () => {
    const other = new Browser(server);
    await other.signIn('outra@example.com');
    expect((await importFile(other, 'manha.gpx', morning)).status).toBe(201);
  });
});
