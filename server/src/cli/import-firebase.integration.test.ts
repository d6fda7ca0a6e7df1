import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFirebaseExport, type BuiltExport } from '#test/firebase-export.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { runCli } from '#test/cli.ts';
import { hashToken, newToken } from '../lib/tokens';

let server: TestServer;
let exp: BuiltExport;
let out: string[];
let err: string[];

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'chefe.antiga@exemplo.com.br' }, { inject: true });
  exp = buildFirebaseExport();
});
afterAll(async () => {
  await server.close();
  rmSync(exp.dir, { recursive: true, force: true });
});

/** Runs the CLI against the test server's database and blob store. */
async function cli(args: string[]): Promise<number> {
  const r = await runCli({ DATA_DIR: server.dataDir, ...sameDatabase(server) }, args);
  out = [r.out];
  err = [r.err];
  return r.code;
}

/** Every row of the tables the import writes, to compare runs. */
async function snapshot() {
  const db = server.database.db;
  return {
    users: await db.selectFrom('users').selectAll().orderBy('email').execute(),
    devices: await db.selectFrom('devices').selectAll().orderBy('id').execute(),
    sessions: await db.selectFrom('lap_sessions').selectAll().orderBy('id').execute(),
    laps: await db.selectFrom('laps').selectAll().orderBy('session_id').orderBy('idx').execute(),
  };
}

describe('voltas import-firebase', () => {
  it('imports users, devices and sessions, and reports every skipped item with its reason', async () => {
    expect(await cli(['import-firebase', '--firestore', exp.firestore, '--storage', exp.storage])).toBe(0);
    const text = out.join('');
    // 4 valid lapTime documents (rider, seller, admin, the one with a hostile name) + none created from devices.
    expect(text).toContain('users: 4 created, 0 updated, 0 unchanged');
    expect(text).toContain('devices: 2 created, 0 updated, 0 unchanged');
    expect(text).toContain('files: 3 stored, 0 unchanged');
    for (const [item, reason] of exp.expectedSkips) {
      const line = text.split('\n').find((l) => l.trim().startsWith(`${item}:`));
      expect(line, `skipped ${item}`).toBeDefined();
      expect(line).toMatch(reason);
    }
    expect(text).toContain(`skipped: ${exp.expectedSkips.length}`);
    expect(text).toMatch(/devices without an upload token yet .*000000000201, 000000000202/);
  });

  it('the rider sees their profile, device and laps; the seller their buyer; the admin everything', async () => {
    const rider = new Browser(server);
    await rider.signIn(exp.rider.email);
    const me = (await rider.json('/api/me')).body;
    expect(me.profile).toEqual({
      wifi: exp.rider.wifi,
      senha: exp.rider.senha,
      nomePiloto: exp.rider.nomePiloto,
      numeroMoto: exp.rider.numeroMoto,
    });
    expect(me.devices).toEqual([exp.rider.device]);
    expect((await rider.json(`/api/devices/${exp.rider.device}/tracks`)).body.tracks).toEqual([
      'Curitiba',
      'Interlagos',
    ]);
    for (const s of exp.sessions) {
      const laps = await rider.json(`/api/devices/${exp.rider.device}/sessions/${s.track}/${s.date}/laps`);
      expect(laps.status).toBe(200);
      expect(laps.body.laps.map((l: { lapTimeMs: number }) => l.lapTimeMs)).toEqual(
        s.generated.laps.map((l) => l.lapTimeMs),
      );
      const summary = await rider.json(`/api/devices/${exp.rider.device}/sessions/${s.track}/${s.date}/summary`);
      expect(summary.body.sampleCount).toBe(s.gps ? s.generated.sampleCount : 0);
    }
    const seller = new Browser(server);
    await seller.signIn(exp.seller);
    expect((await seller.json('/api/me')).body.roles).toEqual({ admin: false, seller: true });
    const buyers = await seller.json('/api/seller/buyers');
    expect(buyers.body.map((b: { email: string }) => b.email)).toEqual([exp.rider.email]);
    const admin = new Browser(server);
    await admin.signIn(exp.admin);
    expect((await admin.json('/api/me')).body.roles.admin).toBe(true);
    const devices = (await admin.json('/api/admin/devices')).body as { id: string; owner: string; seller: string }[];
    expect(devices.find((d) => d.id === exp.stockDevice)).toMatchObject({
      owner: server.config.companyAccount,
      seller: exp.seller,
    });
    expect(devices.find((d) => d.id === exp.rider.device)).toMatchObject({
      owner: exp.rider.email,
      seller: exp.seller,
    });
  });

  it('running it twice changes nothing', async () => {
    const before = await snapshot();
    expect(await cli(['import-firebase', '--firestore', exp.firestore, '--storage', exp.storage])).toBe(0);
    expect(out.join('')).toContain('users: 0 created, 0 updated, 4 unchanged');
    expect(out.join('')).toContain('devices: 0 created, 0 updated, 2 unchanged');
    expect(out.join('')).toContain('files: 0 stored, 3 unchanged');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an export that is not one (truncated, not JSON, wrong shape) and imports nothing', async () => {
    const before = await snapshot();
    const full = JSON.stringify({ lapTime: { 'x.novo@exemplo.com.br': { hardware: '' } }, join: {} });
    const cases: [string, string, RegExp][] = [
      ['truncated.json', full.slice(0, full.length - 7), /not valid JSON/],
      ['binary.json', '\u0000\u0001\u0002', /not valid JSON/],
      ['array.json', '[1,2,3]', /JSON object/],
      ['empty-object.json', '{}', /neither a "lapTime" nor a "join"/],
      ['wrong-collection.json', '{"lapTime": [1, 2]}', /not an object of documents/],
    ];
    for (const [name, body, message] of cases) {
      const file = path.join(exp.dir, name);
      writeFileSync(file, body);
      expect(await cli(['import-firebase', '--firestore', file])).toBe(1);
      expect(err.join('')).toMatch(message);
      expect(err.join('')).toContain('nothing was imported');
    }
    expect(await cli(['import-firebase', '--firestore', path.join(exp.dir, 'missing.json')])).toBe(1);
    expect(
      await cli(['import-firebase', '--firestore', exp.firestore, '--storage', path.join(exp.dir, 'missing')]),
    ).toBe(1);
    expect(await cli(['import-firebase'])).toBe(2);
    expect(await snapshot()).toEqual(before);
  });

  it('a newer export updates what changed, and only that', async () => {
    const file = path.join(exp.dir, 'newer.json');
    writeFileSync(
      file,
      JSON.stringify({
        lapTime: {
          [exp.rider.email]: {
            hardware: [exp.rider.device],
            wifi: 'Box Nova',
            senha: 'outra',
            nomePiloto: exp.rider.nomePiloto,
            numeroMoto: exp.rider.numeroMoto,
            userSeller: exp.seller,
          },
        },
      }),
    );
    expect(await cli(['import-firebase', '--firestore', file])).toBe(0);
    expect(out.join('')).toContain('users: 0 created, 1 updated, 0 unchanged');
    const rider = new Browser(server);
    await rider.signIn(exp.rider.email);
    expect((await rider.json('/api/me')).body.profile).toMatchObject({ wifi: 'Box Nova', senha: 'outra' });
  });

  it('an export that gives a device to someone else revokes its token (hole 2), and sessions stay with who recorded them', async () => {
    const token = newToken();
    await server.database.db
      .updateTable('devices')
      .set({ token_hash: hashToken(token) })
      .where('id', '=', exp.rider.device)
      .execute();
    expect(
      (await server.fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    const file = path.join(exp.dir, 'sold.json');
    writeFileSync(file, JSON.stringify({ join: { [exp.rider.device]: { owner: 'novo.dono@exemplo.com.br' } } }));
    expect(await cli(['import-firebase', '--firestore', file])).toBe(0);
    expect(out.join('')).toMatch(new RegExp(`devices without an upload token yet .*${exp.rider.device}`));
    expect(
      (await server.fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(401);
    const newOwner = new Browser(server);
    await newOwner.signIn('novo.dono@exemplo.com.br');
    expect((await newOwner.json(`/api/devices/${exp.rider.device}/tracks`)).body.tracks).toEqual([]);
    // The import's demo-device rule holds too: 000000000001 is never imported (see the skips above).
  });
});
