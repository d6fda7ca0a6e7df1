// Firmware in the field over HTTP (issue 61): a signed image registered, uploaded and rolled out;
// devices offered it at check-in, fetching it by ranges, reporting each step; and every refusal of
// the "Bad input" list. Runs on SQLite + files, and on PostgreSQL + S3.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFirmwareKey, publicKeyFromRaw, signManifest, verifyManifest } from '#server/lib/firmware-signing.ts';
import { firmwareCommand } from '#server/cli/firmware.ts';
import { addDevice, GPS_LINE, LAP_LINE, put } from '#test/fixtures.ts';
import { startFirmwareServer, startRollout } from '#test/firmware-release.ts';
import { Browser, type TestServer } from '#test/test-server.ts';
import { setRoles } from '../users/users.repository';
import { deleteIntent, recordIntent } from '../sessions/upload-intents.repository';
import { HEALTH_ROWS_KEPT, recordCheckIn } from '../devices/device-health.repository';

const KEY = generateFirmwareKey();
const OTHER_KEY = generateFirmwareKey();
const CLASS = 'vt1';
const IMAGE = randomBytes(300_000);
const SHA = createHash('sha256').update(IMAGE).digest('hex');
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

let server: TestServer;
let admin: Browser;
let seq = 10;

function manifest(over: Partial<Record<string, unknown>> = {}): string {
  return JSON.stringify({
    class: CLASS,
    version: '1.1.0',
    seq: ++seq,
    sha256: SHA,
    size: IMAGE.length,
    expires: inDays(30),
    minFrom: '',
    ...over,
  });
}
const signed = (m: string, key = KEY.privatePem) => ({ manifest: m, signature: signManifest(m, key) });

async function device(
  token: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(new URL(url, server.baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const buf = Buffer.from(await res.arrayBuffer());
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper
  try {
    json = JSON.parse(buf.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, buf, body: json };
}

const checkIn = (token: string, over: Record<string, unknown> = {}) =>
  device(token, 'POST', '/api/device/v1/check-in', {
    firmware: { version: '1.0.0', slot: 'a' },
    hardware: { class: CLASS },
    battery: 80,
    freeStorageKb: 50_000,
    queuedSessions: 0,
    rssi: -60,
    uptimeS: 3600,
    ...over,
  });
const report = (token: string, rolloutId: string, state: string, error?: string) =>
  device(token, 'POST', '/api/device/v1/firmware-report', { rolloutId, state, ...(error ? { error } : {}) });

/** Registers and uploads an image; returns its id. */
async function uploadImage(m = manifest(), bytes: Buffer = IMAGE): Promise<string> {
  const created = await admin.json('/api/admin/firmware', { method: 'POST', body: JSON.stringify(signed(m)) });
  expect(created.status).toBe(201);
  const res = await admin.request(`/api/admin/firmware/${created.body.id}/image`, {
    method: 'PUT',
    headers: { origin: server.baseUrl, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  expect(res.status).toBe(200);
  return created.body.id as string;
}

/** Rolls it out to everyone; 3 devices before judging unless `over` says. */
const rollout = (firmwareId: string, over: Record<string, unknown> = {}) =>
  startRollout(admin, firmwareId, { minDevices: 3, ...over });

let nextDevice = 100;
type D = { id: string; token: string };
const newDevice = async (owner = 'rider@example.com', seller = '') => {
  const id = String(++nextDevice).padStart(12, '0');
  return { id, token: await addDevice(server, id, owner, seller) };
};

beforeAll(async () => {
  ({ server, admin } = await startFirmwareServer(KEY));
});
afterAll(async () => {
  await server.close();
});

describe('a signed image, rolled out and installed', () => {
  it('is offered at check-in, verified, fetched by ranges, and counted once confirmed after rebooting', async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId);
    const d = await newDevice();

    const offered = await checkIn(d.token);
    expect(offered.status).toBe(200);
    const offer = offered.body.update;
    expect(offer.rolloutId).toBe(id);
    // What a device does first: the signature over the exact manifest bytes, with the maker's public key.
    expect(verifyManifest(offer.manifest, offer.signature, [publicKeyFromRaw(KEY.publicKey)])).toBe(true);
    const m = JSON.parse(offer.manifest);
    expect(m).toMatchObject({ class: CLASS, version: '1.1.0', sha256: SHA, size: IMAGE.length });
    expect(Date.parse(m.expires)).toBeGreaterThan(Date.now());

    // A dropped link: the first 100 000 bytes, then the rest by a Range.
    const whole = await device(d.token, 'GET', offer.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('etag')).toBe(`"${SHA}"`);
    const first = await device(d.token, 'GET', offer.url, undefined, { range: 'bytes=0-99999' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99999/${IMAGE.length}`);
    const rest = await device(d.token, 'GET', offer.url, undefined, { range: 'bytes=100000-', 'if-range': `"${SHA}"` });
    expect(rest.status).toBe(206);
    expect(
      createHash('sha256')
        .update(Buffer.concat([first.buf, rest.buf]))
        .digest('hex'),
    ).toBe(SHA);
    expect((await device(d.token, 'GET', offer.url, undefined, { 'if-none-match': `"${SHA}"` })).status).toBe(304);
    const past = await device(d.token, 'GET', offer.url, undefined, { range: `bytes=${IMAGE.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${IMAGE.length}`);
    expect(past.body.code).toBe('firmware/range-not-satisfiable');

    for (const state of ['downloading', 'downloaded', 'installing'])
      expect((await report(d.token, id, state)).status).toBe(200);
    // Confirming before the device booted the new image does not count.
    const early = await report(d.token, id, 'confirmed');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('firmware/not-rebooted');
    // After the reboot: its check-in says 1.1.0, pending its own verification; then it confirms.
    const rebooted = await checkIn(d.token, { firmware: { version: '1.1.0', slot: 'b', pendingVerify: true } });
    expect(rebooted.body.update).toBeNull();
    expect((await report(d.token, id, 'rebooted')).status).toBe(200);
    expect((await report(d.token, id, 'confirmed')).status).toBe(200);
    expect((await checkIn(d.token, { firmware: { version: '1.1.0', slot: 'b' } })).body.update).toBeNull();

    // The only device of its class confirmed: nothing is left to offer, so it is done by itself.
    const funnel = await admin.json(`/api/admin/rollouts/${id}`);
    expect(funnel.body).toMatchObject({ state: 'done', offered: 1, downloaded: 1, confirmed: 1, failed: 0 });
  });

  it('the CLI makes a key and signs an image the server accepts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-fw-'));
    const keyFile = path.join(dir, 'key.pem');
    const imageFile = path.join(dir, 'image.bin');
    writeFileSync(imageFile, IMAGE);
    const out: string[] = [];
    const sink = { write: (s: string) => out.push(s) };
    expect(await firmwareCommand(['keygen', '--out', keyFile], sink, sink)).toBe(0);
    const publicKey = out.at(-1)!.trim();
    expect(() => publicKeyFromRaw(publicKey)).not.toThrow();
    // Never overwrites a key.
    await expect(firmwareCommand(['keygen', '--out', keyFile], sink, sink)).rejects.toThrow();
    out.length = 0;
    const args = ['sign', imageFile, '--key', keyFile, '--version', '2.0.0', '--class', 'vt9', '--seq', '5'];
    expect(await firmwareCommand(args, sink, sink)).toBe(0);
    const { manifest: m, signature } = JSON.parse(out.at(-1)!);
    expect(JSON.parse(m)).toMatchObject({ class: 'vt9', version: '2.0.0', seq: 5, sha256: SHA, size: IMAGE.length });
    expect(verifyManifest(m, signature, [publicKeyFromRaw(publicKey)])).toBe(true);
    expect(readFileSync(keyFile, 'utf8')).toContain('PRIVATE KEY');
  });
});

describe('bad input gets a clear refusal and changes nothing', () => {
  it('refuses a manifest signed by an unknown key, a tampered one, a backwards seq, an expired one', async () => {
    const unknown = await admin.json('/api/admin/firmware', {
      method: 'POST',
      body: JSON.stringify(signed(manifest(), OTHER_KEY.privatePem)),
    });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'firmware/bad-signature']);
    const good = signed(manifest());
    const tampered = await admin.json('/api/admin/firmware', {
      method: 'POST',
      body: JSON.stringify({ ...good, manifest: good.manifest.replace('"1.1.0"', '"9.9.9"') }),
    });
    expect([tampered.status, tampered.body.code]).toEqual([422, 'firmware/bad-signature']);
    const expired = await admin.json('/api/admin/firmware', {
      method: 'POST',
      body: JSON.stringify(signed(manifest({ expires: inDays(-1) }))),
    });
    expect([expired.status, expired.body.code]).toEqual([422, 'firmware/bad-manifest']);
    await uploadImage(manifest({ seq: 1000 }));
    const backwards = await admin.json('/api/admin/firmware', {
      method: 'POST',
      body: JSON.stringify(signed(manifest({ seq: 999 }))),
    });
    expect([backwards.status, backwards.body.code]).toEqual([409, 'firmware/seq-not-above']);
    expect(backwards.body.message).toContain('1000');
    seq = 1000;
    const listed = await admin.json('/api/admin/firmware');
    expect(listed.body.firmware.filter((f: { seq: number }) => f.seq === 999)).toEqual([]);
  });

  it('refuses a tampered image and an upload cut half way: nothing is stored, no rollout can use it', async () => {
    const created = await admin.json('/api/admin/firmware', {
      method: 'POST',
      body: JSON.stringify(signed(manifest())),
    });
    const id = created.body.id as string;
    const evil = Buffer.from(IMAGE);
    evil[1234] = evil[1234]! ^ 0xff;
    const res = await admin.request(`/api/admin/firmware/${id}/image`, {
      method: 'PUT',
      headers: { origin: server.baseUrl, 'content-type': 'application/octet-stream' },
      body: evil,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('firmware/image-mismatch');
    const bigger = await admin.request(`/api/admin/firmware/${id}/image`, {
      method: 'PUT',
      headers: { origin: server.baseUrl, 'content-type': 'application/octet-stream' },
      body: Buffer.concat([IMAGE, Buffer.from('x')]),
    });
    expect(bigger.status).toBe(422);

    // Cut half way: the socket closes after half the declared bytes.
    await new Promise<void>((resolve) => {
      const url = new URL(server.baseUrl);
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: `/api/admin/firmware/${id}/image`,
        agent: false,
        headers: {
          cookie: admin.cookieHeader(),
          origin: server.baseUrl,
          'content-type': 'application/octet-stream',
          'content-length': String(IMAGE.length),
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(IMAGE.subarray(0, IMAGE.length / 2), () => setTimeout(() => (req.destroy(), resolve()), 100));
    });
    const listed = await admin.json('/api/admin/firmware');
    expect(listed.body.firmware.find((f: { id: string }) => f.id === id).imageStored).toBe(false);
    const refused = await admin.json('/api/admin/rollouts', {
      method: 'POST',
      body: JSON.stringify({ firmwareId: id, cohorts: ['all'], percent: 100, failureThresholdPct: 10, minDevices: 1 }),
    });
    expect([refused.status, refused.body.code]).toEqual([409, 'firmware/image-missing']);
    const keys = await server.blobs.list('firmware/vt1/', { maxResults: 1000 });
    expect(keys.items.some((k) => k.includes(`${seq}-`))).toBe(false);
  });

  it("refuses a device another device's offer, image and reports, and a report for a rollout it is not in", async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId);
    const a = await newDevice();
    const b = await newDevice('other@example.com');
    const offer = (await checkIn(a.token)).body.update;
    expect(offer.rolloutId).toBe(id);
    // b never checked in, so was never offered: neither the image nor a report.
    const image = await device(b.token, 'GET', offer.url);
    expect([image.status, image.body.code]).toEqual([403, 'firmware/not-offered']);
    expect(image.buf.length).toBeLessThan(1000);
    const rep = await report(b.token, id, 'failed', 'boot-loop');
    expect([rep.status, rep.body.code]).toEqual([403, 'firmware/not-offered']);
    expect((await report(a.token, 'no-such-rollout', 'failed')).status).toBe(403);
    // No token, or a made-up one.
    expect((await fetch(new URL(offer.url, server.baseUrl))).status).toBe(401);
    const funnel = await admin.json(`/api/admin/rollouts/${id}`);
    expect(funnel.body).toMatchObject({ offered: 1, failed: 0 });
    // A replayed offer: once the rollout is aborted its image is no longer served, nor offered.
    const aborted = await admin.json(`/api/admin/rollouts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'aborted' }),
    });
    expect(aborted.body.state).toBe('aborted');
    const replay = await device(a.token, 'GET', offer.url);
    expect([replay.status, replay.body.code]).toEqual([409, 'firmware/rollout-closed']);
    expect((await checkIn(a.token)).body.update).toBeNull();
    const resumed = await admin.json(`/api/admin/rollouts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'running' }),
    });
    expect([resumed.status, resumed.body.code]).toEqual([409, 'firmware/rollout-closed']);
  });

  it('offers nothing mid-upload, on a low battery, to a device claiming another class, or below minFrom', async () => {
    const firmwareId = await uploadImage(manifest({ minFrom: '0.9.0' }));
    const id = await rollout(firmwareId, { minBatteryPct: 40 });
    const d = await newDevice();
    expect((await checkIn(d.token, { queuedSessions: 2 })).body.update).toBeNull();
    // An upload of the device's in flight (its intent written, the index not yet updated): nothing either.
    const intent = {
      blobKey: `${d.id}/Interlagos/04112026/gps.six`,
      md5: 'x',
      deviceId: d.id,
      track: 'Interlagos',
      date: '04112026',
      kind: 'gps' as const,
      owner: 'rider@example.com',
    };
    await recordIntent(server.database.db, intent);
    expect((await checkIn(d.token)).body.update).toBeNull();
    await deleteIntent(server.database.db, intent.blobKey, intent.md5);
    expect((await checkIn(d.token, { battery: 20 })).body.update).toBeNull();
    expect((await checkIn(d.token, { firmware: { version: '0.8.0' } })).body.update).toBeNull();
    expect((await checkIn(d.token, { battery: 20, charging: true })).body.update?.rolloutId).toBe(id);
    const liar = await newDevice();
    expect((await checkIn(liar.token, { hardware: { class: 'vt2' } })).body.update).toBeNull();
    expect((await checkIn(liar.token)).body.update).toBeNull();
    await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify({ state: 'aborted' }) });
  });

  it('serves at most 32 image streams at once: the next device is told to come back, none is lost', async () => {
    // Large enough that a download whose body is not read stays open (socket buffers hold a few MB).
    const big = randomBytes(16 * 1024 * 1024);
    const bigSha = createHash('sha256').update(big).digest('hex');
    const firmwareId = await uploadImage(manifest({ sha256: bigSha, size: big.length }), big);
    const id = await rollout(firmwareId);
    const fleet = await Promise.all(Array.from({ length: 33 }, () => newDevice()));
    for (const d of fleet) expect((await checkIn(d.token)).body.update.rolloutId).toBe(id);
    const url = new URL(`/api/device/v1/firmware/${id}/image`, server.baseUrl);
    // 32 downloads held open: their bodies are not read.
    const held: http.ClientRequest[] = [];
    await Promise.all(
      fleet.slice(0, 32).map(
        (d) =>
          new Promise<void>((resolve, reject) => {
            const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${d.token}` } }, (res) => {
              expect(res.statusCode).toBe(200);
              res.pause();
              resolve();
            });
            req.on('error', () => undefined);
            req.on('response', () => undefined);
            held.push(req);
            setTimeout(() => reject(new Error('no answer')), 20_000).unref();
          }),
      ),
    );
    const busy = await device(fleet[32]!.token, 'GET', url.pathname);
    expect([busy.status, busy.body.code]).toEqual([503, 'firmware/busy']);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const req of held) req.destroy();
    // Once they are gone, the device that waited gets its image whole.
    let again = busy;
    for (let i = 0; i < 50 && again.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await device(fleet[32]!.token, 'GET', url.pathname);
    }
    expect(again.status).toBe(200);
    expect(createHash('sha256').update(again.buf).digest('hex')).toBe(bigSha);
    await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify({ state: 'aborted' }) });
  });

  it('answers 1,000 devices checking in at once, each recorded', async () => {
    const devices = await Promise.all(Array.from({ length: 1000 }, () => newDevice('fleet@example.com')));
    // All in flight together, over 100 connections (as through a proxy): a socket per request would
    // test the machine's listen backlog, not the server.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
    const url = new URL(server.baseUrl);
    const body = JSON.stringify({ firmware: { version: '1.0.0' }, hardware: { class: CLASS }, battery: 90 });
    const statuses = await Promise.all(
      devices.map(
        (d) =>
          new Promise<number>((resolve, reject) => {
            const req = http.request(
              {
                host: url.hostname,
                port: url.port,
                method: 'POST',
                path: '/api/device/v1/check-in',
                agent,
                headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              },
            );
            req.on('error', reject);
            req.end(body);
          }),
      ),
    );
    agent.destroy();
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const fleet = await admin.json('/api/admin/fleet');
    const seen = fleet.body.devices.filter(
      (x: { owner: string; lastSeenAt: string | null }) => x.owner === 'fleet@example.com' && x.lastSeenAt,
    );
    expect(seen).toHaveLength(1000);
  }, 120_000);
});

describe('a rollout that stops itself', () => {
  it('halts at once for everyone when failures pass the threshold among minDevices, and says so in the audit log', async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId, { failureThresholdPct: 30, minDevices: 4 });
    const fleet = await Promise.all(Array.from({ length: 6 }, () => newDevice()));
    for (const d of fleet) expect((await checkIn(d.token)).body.update.rolloutId).toBe(id);
    // One confirms; three fail (two boot loops and a rollback): 3 of 4 > 30 %.
    const [ok, f1, f2, f3, late] = fleet as [D, D, D, D, D, D];
    await checkIn(ok.token, { firmware: { version: '1.1.0', slot: 'b' } });
    expect((await report(ok.token, id, 'confirmed')).status).toBe(200);
    await report(f1.token, id, 'failed', 'boot-loop');
    await report(f2.token, id, 'failed', 'boot-loop');
    expect((await admin.json(`/api/admin/rollouts/${id}`)).body.state).toBe('running');
    await report(f3.token, id, 'rolled-back');
    const halted = await admin.json(`/api/admin/rollouts/${id}`);
    expect(halted.body).toMatchObject({
      state: 'halted',
      confirmed: 1,
      failed: 3,
      failures: { 'boot-loop': 2, 'rolled-back': 1 },
    });
    // Why, as a code and its figures (the page words it); a report after the halt moves the funnel, not that.
    const reason = { code: 'failure-threshold', failed: 3, judged: 4, threshold: 30 };
    expect(halted.body.haltReason).toEqual(reason);
    // Everyone: a device already offered can no longer fetch it, and none is offered it.
    const offer = (await checkIn(late.token)).body.update;
    expect(offer).toBeNull();
    expect((await device(late.token, 'GET', `/api/device/v1/firmware/${id}/image`)).status).toBe(409);
    await report(late.token, id, 'failed', 'boot-loop');
    expect((await admin.json(`/api/admin/rollouts/${id}`)).body).toMatchObject({ failed: 4, haltReason: reason });
    const audit = await admin.json('/api/admin/audit');
    expect(
      audit.body.find((e: { action: string; target: string }) => e.action === 'halt-rollout' && e.target === id),
    ).toMatchObject({
      actor: 'system',
      after: { state: 'halted', reason: 'failure-threshold', failed: 3, judged: 4, threshold: 30 },
    });
    // Pause and abort are written too; a halted rollout is not resumed by a click.
    const resumed = await admin.json(`/api/admin/rollouts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'running' }),
    });
    expect(resumed.status).toBe(409);
  });

  it('halts when the report that reaches minDevices is a confirmation, the failures having come first', async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId, { failureThresholdPct: 30, minDevices: 4 });
    const fleet = await Promise.all(Array.from({ length: 4 }, () => newDevice()));
    for (const d of fleet) expect((await checkIn(d.token)).body.update.rolloutId).toBe(id);
    // Two fail before anyone could judge (2 of 2, under minDevices); two confirm after: 2 of 4 > 30 %.
    const [f1, f2, ok1, ok2] = fleet as [D, D, D, D];
    await report(f1.token, id, 'failed', 'boot-loop');
    await report(f2.token, id, 'failed', 'boot-loop');
    for (const ok of [ok1, ok2]) {
      await checkIn(ok.token, { firmware: { version: '1.1.0', slot: 'b' } });
      expect((await report(ok.token, id, 'confirmed')).status).toBe(200);
    }
    // Halted, not done: every device finished, but half of them failed.
    expect((await admin.json(`/api/admin/rollouts/${id}`)).body).toMatchObject({
      state: 'halted',
      haltReason: { code: 'failure-threshold', failed: 2, judged: 4, threshold: 30 },
    });
  });

  it('keeps a device in or out of a percentage by a stable hash, and widening keeps those in', async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId, { percent: 10, cohorts: ['beta'] });
    const devices = await Promise.all(Array.from({ length: 60 }, (_, i) => newDevice(`beta${i}@example.com`)));
    for (let i = 0; i < 60; i++) {
      const res = await admin.json(`/api/admin/users/beta${i}%40example.com/cohort`, {
        method: 'PUT',
        body: JSON.stringify({ cohort: 'beta' }),
      });
      expect(res.status).toBe(200);
    }
    const outsider = await newDevice('not-beta@example.com');
    const at10 = new Set<string>();
    for (const d of devices) if ((await checkIn(d.token)).body.update) at10.add(d.id);
    expect(at10.size).toBeLessThan(20);
    const patched = await admin.json(`/api/admin/rollouts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ percent: 50 }),
    });
    expect(patched.body.percent).toBe(50);
    const at50 = new Set<string>();
    for (const d of devices) if ((await checkIn(d.token)).body.update) at50.add(d.id);
    for (const d of at10) expect(at50.has(d)).toBe(true);
    expect(at50.size).toBeGreaterThan(at10.size);
    expect(at50.size).toBeLessThan(50);
    expect((await checkIn(outsider.token)).body.update).toBeNull();
    const actions = (await admin.json('/api/admin/audit')).body.map((e: { action: string }) => e.action);
    expect(actions).toContain('widen-rollout');
    expect(actions).toContain('set-firmware-cohort');
    await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify({ state: 'paused' }) });
    expect((await admin.json('/api/admin/audit')).body[0].action).toBe('pause-rollout');
    await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify({ state: 'aborted' }) });
  });

  it('becomes done by itself once every device of its cohort × percentage has finished; a wider share opens it again', async () => {
    const firmwareId = await uploadImage();
    const cohort = 'seller:done@example.com';
    const id = await rollout(firmwareId, { cohorts: [cohort], percent: 50, failureThresholdPct: 50, minDevices: 10 });
    const fleet = await Promise.all(
      Array.from({ length: 20 }, () => newDevice('rider@example.com', 'done@example.com')),
    );
    // One of the cohort never checks in: its class is unknown, so it holds nothing up.
    await newDevice('rider@example.com', 'done@example.com');
    const offered: D[] = [];
    for (const d of fleet) if ((await checkIn(d.token)).body.update) offered.push(d);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThan(fleet.length);
    const state = async () => (await admin.json(`/api/admin/rollouts/${id}`)).body.state as string;
    // All but the last confirm after rebooting; the last fails (under the threshold): then it is done.
    for (const d of offered.slice(0, -1)) {
      await checkIn(d.token, { firmware: { version: '1.1.0', slot: 'b' } });
      expect((await report(d.token, id, 'confirmed')).status).toBe(200);
      expect(await state()).toBe('running');
    }
    expect((await report(offered.at(-1)!.token, id, 'failed', 'install-failed')).status).toBe(200);
    const done = await admin.json(`/api/admin/rollouts/${id}`);
    expect(done.body).toMatchObject({ state: 'done', confirmed: offered.length - 1, failed: 1, haltReason: null });
    const finished = (await admin.json('/api/admin/audit')).body.filter(
      (e: { action: string; target: string }) => e.action === 'finish-rollout' && e.target === id,
    );
    expect(finished).toEqual([
      expect.objectContaining({ actor: 'system', after: { state: 'done', confirmed: offered.length - 1, failed: 1 } }),
    ]);
    // Done offers nothing more; it cannot be paused, and a share no wider changes nothing.
    const outside = fleet.find((d) => !offered.includes(d))!;
    expect((await checkIn(outside.token)).body.update).toBeNull();
    for (const patch of [{ state: 'paused' }, { percent: 50 }])
      expect(
        (await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify(patch) })).status,
      ).toBe(409);
    // Widened, it runs again and offers the rest of the cohort.
    const widened = await admin.json(`/api/admin/rollouts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ percent: 100 }),
    });
    expect(widened.body).toMatchObject({ state: 'running', percent: 100 });
    expect((await checkIn(outside.token)).body.update.rolloutId).toBe(id);
    expect((await admin.json('/api/admin/audit')).body[0]).toMatchObject({
      action: 'widen-rollout',
      before: { state: 'done', percent: 50 },
      after: { state: 'running', percent: 100 },
    });
    await admin.json(`/api/admin/rollouts/${id}`, { method: 'PATCH', body: JSON.stringify({ state: 'aborted' }) });
  });

  it("loses and slows no rider's upload while a rollout's devices download and report", async () => {
    const firmwareId = await uploadImage();
    const id = await rollout(firmwareId, { failureThresholdPct: 90, minDevices: 50 });
    const fleet = await Promise.all(Array.from({ length: 30 }, () => newDevice()));
    const rider = await newDevice('racer@example.com');
    const busy = fleet.map(async (d) => {
      const offer = (await checkIn(d.token)).body.update;
      await device(d.token, 'GET', offer.url);
      await report(d.token, id, 'downloaded');
    });
    const lap = put(server, '/api/device/v1/sessions/Interlagos/03112026/lap.six', rider.token, LAP_LINE);
    const gps = put(server, '/api/device/v1/sessions/Interlagos/03112026/gps.six', rider.token, GPS_LINE);
    const [lapRes, gpsRes] = await Promise.all([lap, gps, ...busy]);
    expect([lapRes.status, gpsRes.status]).toEqual([200, 200]);
    const racer = new Browser(server.baseUrl);
    await racer.signIn('racer@example.com');
    const laps = await racer.json(`/api/devices/${rider.id}/sessions/Interlagos/03112026/laps`);
    expect(laps.body.laps.map((l: { lapTime: string }) => l.lapTime)).toEqual(['0132456']);
    // The rider's device itself is never offered an image while it has sessions to send.
    expect((await checkIn(rider.token, { queuedSessions: 1 })).body.update).toBeNull();
    expect((await admin.json(`/api/admin/rollouts/${id}`)).body.downloaded).toBe(30);
  }, 60_000);
});

describe('fleet health', () => {
  it("shows admins every device, a seller their stock and buyers' devices only, a rider their own", async () => {
    const s1 = new Browser(server.baseUrl);
    await s1.signIn('s1@example.com');
    await setRoles(server.database.db, 's1@example.com', { adm: '', seller: '1' });
    const stock = await newDevice('company@voltas.local', 's1@example.com');
    const other = await newDevice('company@voltas.local', 's2@example.com');
    const mine = await newDevice('owner@example.com');
    await checkIn(stock.token, { freeStorageKb: 100, lastUploadError: 'http-503' });
    await checkIn(other.token);
    await checkIn(mine.token, { firmware: { version: '1.0.3' } });
    // History stays bounded.
    for (let i = 0; i < 5; i++) await checkIn(mine.token);

    const seen = await s1.json('/api/seller/fleet');
    expect(seen.status).toBe(200);
    expect(seen.body.devices.map((d: { id: string }) => d.id)).toEqual([stock.id]);
    expect(seen.body.devices[0]).toMatchObject({ attention: ['low-storage', 'upload-errors'], rollout: null });

    const all = await admin.json('/api/admin/fleet');
    const ids = all.body.devices.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([stock.id, other.id, mine.id]));
    // Those needing attention come first.
    expect(all.body.devices[0].attention.length).toBeGreaterThan(0);
    expect(all.body.versions.length).toBeGreaterThan(0);
    const history = await admin.json(`/api/admin/devices/${mine.id}/health`);
    expect(history.body.history).toHaveLength(6);
    // Bounded: past 200 check-ins the oldest go (recorded directly: a device may check in 30 times a minute).
    const input = { firmware: { version: '1.0.0' }, hardware: { class: CLASS } };
    for (let i = 0; i < 205; i++) await recordCheckIn(server.database.db, mine.id, input);
    const kept = await admin.json(`/api/admin/devices/${mine.id}/health`);
    expect(kept.body.history).toHaveLength(HEALTH_ROWS_KEPT);

    const owner = new Browser(server.baseUrl);
    await owner.signIn('owner@example.com');
    const me = await owner.json('/api/me');
    expect(me.body.ownedDevices[0]).toMatchObject({ id: mine.id, version: '1.0.0' });
    expect(me.body.ownedDevices[0].lastSeenAt).toBeTruthy();
    // The old status call still records the version.
    const status = await device(mine.token, 'POST', '/api/device/v1/status', { version: '0.9.0', up: 'up' });
    expect(status.status).toBe(200);
    expect((await owner.json('/api/me')).body.ownedDevices[0].version).toBe('0.9.0');
  });
});
