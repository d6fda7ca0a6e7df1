import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, LAP_LINE, put } from '#test/fixtures.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { setRoles } from '../users/users.repository';

let server: TestServer;
let admin: Browser;
let seller: Browser;
let otherSeller: Browser;
let buyer: Browser;

beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_EMAILS: 'admin@example.com', COMPANY_ACCOUNT: 'estoque@voltas.local' },
    { inject: true },
  );
  admin = new Browser(server);
  await admin.signIn('admin@example.com');
  seller = new Browser(server);
  await seller.signIn('seller@example.com');
  otherSeller = new Browser(server);
  await otherSeller.signIn('other.seller@example.com');
  buyer = new Browser(server);
  await buyer.signIn('buyer@example.com');
  await buyer.json('/api/me/profile', {
    method: 'PUT',
    body: JSON.stringify({ wifi: 'CasaDoBuyer', senha: 'segredo-do-buyer', nomePiloto: 'Comprador', numeroMoto: '11' }),
  });
});
afterAll(async () => {
  await server.close();
});

describe('administration', () => {
  it('lists users with the Wi-Fi name and never the password', async () => {
    const res = await admin.json('/api/admin/users');
    expect(res.status).toBe(200);
    const row = res.body.find((u: { email: string }) => u.email === 'buyer@example.com');
    expect(row).toMatchObject({
      wifi: 'CasaDoBuyer',
      nomePiloto: 'Comprador',
      numeroMoto: '11',
      hardware: [],
      adm: '',
      userSeller: '',
    });
    expect(JSON.stringify(res.body)).not.toContain('segredo-do-buyer');
  });

  it("sets roles, registers a device (token once), assigns it to a seller, makes a buyer the seller's customer — all audited", async () => {
    expect(
      (
        await admin.json('/api/admin/users/seller%40example.com/roles', {
          method: 'PUT',
          body: JSON.stringify({ adm: false, seller: true }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin.json('/api/admin/users/other.seller%40example.com/roles', {
          method: 'PUT',
          body: JSON.stringify({ adm: false, seller: true }),
        })
      ).status,
    ).toBe(200);
    expect((await admin.json('/api/admin/sellers')).body.map((u: { email: string }) => u.email)).toEqual([
      'other.seller@example.com',
      'seller@example.com',
    ]);

    const reg = await admin.json('/api/admin/devices', {
      method: 'POST',
      body: JSON.stringify({ id: '000000000500' }),
    });
    expect(reg.status).toBe(200);
    expect(reg.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const dup = await admin.json('/api/admin/devices', {
      method: 'POST',
      body: JSON.stringify({ id: '000000000500' }),
    });
    expect(dup.status).toBe(400);
    const bad = await admin.json('/api/admin/devices', { method: 'POST', body: JSON.stringify({ id: '123' }) });
    expect(bad.status).toBe(400);

    expect(
      (
        await admin.json('/api/admin/assign-device-seller', {
          method: 'POST',
          body: JSON.stringify({ deviceId: '000000000500', seller: 'seller@example.com' }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin.json('/api/admin/assign-device-seller', {
          method: 'POST',
          body: JSON.stringify({ deviceId: '000000000500', seller: 'buyer@example.com' }),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin.json('/api/admin/assign-buyer-seller', {
          method: 'POST',
          body: JSON.stringify({ buyer: 'buyer@example.com', seller: 'seller@example.com' }),
        })
      ).status,
    ).toBe(200);
    const devices = await admin.json('/api/admin/devices');
    expect(devices.body.find((d: { id: string }) => d.id === '000000000500')).toMatchObject({
      owner: 'estoque@voltas.local',
      seller: 'seller@example.com',
    });

    const audit = await admin.json('/api/admin/audit');
    const actions = audit.body.map(
      (e: { action: string; target: string; actor: string }) => `${e.actor} ${e.action} ${e.target}`,
    );
    expect(actions).toEqual(
      expect.arrayContaining([
        'admin@example.com set-roles seller@example.com',
        'admin@example.com register-device 000000000500',
        'admin@example.com assign-device-seller 000000000500',
        'admin@example.com assign-buyer-seller buyer@example.com',
      ]),
    );
    const sellerChange = audit.body.find((e: { action: string }) => e.action === 'assign-device-seller');
    expect(sellerChange).toMatchObject({ before: { seller: '' }, after: { seller: 'seller@example.com' } });
    expect(JSON.stringify(audit.body)).not.toContain(reg.body.token);
  });

  it('the seller sees only their buyers and stock, and hands a device to their buyer', async () => {
    const buyers = await seller.json('/api/seller/buyers');
    expect(buyers.body).toEqual([{ email: 'buyer@example.com', hardware: [], nomePiloto: 'Comprador' }]);
    expect((await seller.json('/api/seller/stock')).body.map((d: { id: string }) => d.id)).toEqual(['000000000500']);
    expect((await otherSeller.json('/api/seller/buyers')).body).toEqual([]);
    expect((await otherSeller.json('/api/seller/stock')).body).toEqual([]);
    // Another seller cannot sell my device, nor can I sell to someone else's buyer.
    expect(
      (
        await otherSeller.json('/api/seller/assign', {
          method: 'POST',
          body: JSON.stringify({ buyer: 'buyer@example.com', deviceId: '000000000500' }),
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await seller.json('/api/seller/assign', {
          method: 'POST',
          body: JSON.stringify({ buyer: 'admin@example.com', deviceId: '000000000500' }),
        })
      ).status,
    ).toBe(403);

    const sold = await seller.json('/api/seller/assign', {
      method: 'POST',
      body: JSON.stringify({ buyer: 'buyer@example.com', deviceId: '000000000500' }),
    });
    expect(sold.status).toBe(200);
    expect((await seller.json('/api/seller/stock')).body).toEqual([]);
    expect((await seller.json('/api/seller/buyers')).body[0].hardware).toEqual(['000000000500']);
    expect((await buyer.json('/api/me')).body.devices).toEqual(['000000000500']);
    const audit = await admin.json('/api/admin/audit');
    expect(audit.body[0]).toMatchObject({
      actor: 'seller@example.com',
      action: 'sell-device',
      target: '000000000500',
      before: { owner: 'estoque@voltas.local' },
      after: { owner: 'buyer@example.com' },
    });
  });

  it('assign-owner hands a device over; each owner keeps only their own sessions', async () => {
    const token = await addDevice(server, '000000000600', 'first@example.com');
    await put(server, '/api/device/v1/sessions/Interlagos/01102026/lap.six', token, LAP_LINE);
    const first = new Browser(server);
    await first.signIn('first@example.com');
    const assigned = await admin.json('/api/admin/assign-owner', {
      method: 'POST',
      body: JSON.stringify({ email: 'buyer@example.com', deviceId: '000000000600' }),
    });
    expect(assigned.status).toBe(200);
    // The change of owner revoked the token loaded while the first owner had it; the new one, given once, works.
    expect(assigned.body).toEqual({
      ok: true,
      id: '000000000600',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
    });
    expect((await put(server, '/api/device/v1/sessions/Interlagos/02102026/lap.six', token, LAP_LINE)).status).toBe(
      401,
    );
    expect(
      (await put(server, '/api/device/v1/sessions/Interlagos/02102026/lap.six', assigned.body.token, LAP_LINE)).status,
    ).toBe(200);
    // Assigning it again to the same owner keeps the token.
    const again = await admin.json('/api/admin/assign-owner', {
      method: 'POST',
      body: JSON.stringify({ email: 'buyer@example.com', deviceId: '000000000600' }),
    });
    expect(again.body).toEqual({ ok: true, id: '000000000600', token: null });
    expect(
      (await put(server, '/api/device/v1/sessions/Interlagos/03102026/lap.six', assigned.body.token, LAP_LINE)).status,
    ).toBe(200);
    expect((await buyer.json('/api/devices/000000000600/tracks/Interlagos/dates')).body.dates).toEqual([
      '02102026',
      '03102026',
    ]);
    expect((await first.json('/api/devices/000000000600/tracks/Interlagos/dates')).body.dates).toEqual(['01102026']);
    expect(
      (
        await admin.json('/api/admin/assign-owner', {
          method: 'POST',
          body: JSON.stringify({ email: 'ghost@example.com', deviceId: '000000000600' }),
        })
      ).status,
    ).toBe(404);
  });

  it('disabling a user signs them out at once; re-enabling lets them back in; an admin cannot disable themself', async () => {
    const victim = new Browser(server);
    await victim.signIn('victim@example.com');
    expect(
      (
        await admin.json('/api/admin/users/victim%40example.com/disabled', {
          method: 'PUT',
          body: JSON.stringify({ disabled: true }),
        })
      ).status,
    ).toBe(200);
    expect((await victim.json('/api/me')).status).toBe(401);
    expect((await victim.signIn('victim@example.com')).headers.get('location')).toBe(
      '/login?erro=auth%2Fuser-disabled',
    );
    expect(
      (
        await admin.json('/api/admin/users/victim%40example.com/disabled', {
          method: 'PUT',
          body: JSON.stringify({ disabled: false }),
        })
      ).status,
    ).toBe(200);
    expect((await victim.signIn('victim@example.com')).headers.get('location')).toBe('/user');
    expect(
      (
        await admin.json('/api/admin/users/admin%40example.com/disabled', {
          method: 'PUT',
          body: JSON.stringify({ disabled: true }),
        })
      ).status,
    ).toBe(400);
    const audit = await admin.json('/api/admin/audit');
    expect(
      audit.body
        .filter((e: { target: string }) => e.target === 'victim@example.com')
        .map((e: { action: string }) => e.action),
    ).toEqual(['enable-user', 'disable-user']);
  });

  it('rotating a token invalidates the old one and is audited', async () => {
    const old = await addDevice(server, '000000000700', 'rot@example.com');
    const res = await admin.json('/api/admin/devices/000000000700/token', { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(
      (await server.fetch(`${server.baseUrl}/api/device/v1/config`, { headers: { authorization: `Bearer ${old}` } }))
        .status,
    ).toBe(401);
    expect(
      (
        await server.fetch(`${server.baseUrl}/api/device/v1/config`, {
          headers: { authorization: `Bearer ${res.body.token}` },
        })
      ).status,
    ).toBe(200);
  });

  it('a non-admin gets 403 from every admin call', async () => {
    expect((await seller.json('/api/admin/users')).status).toBe(403);
    expect(
      (await buyer.json('/api/admin/devices', { method: 'POST', body: JSON.stringify({ id: '000000000999' }) })).status,
    ).toBe(403);
    expect((await buyer.json('/api/seller/buyers')).status).toBe(403);
  });
});

describe('CLI changes are audited too', () => {
  it('records role changes made with voltas user role', async () => {
    await setRoles(server.database.db, 'buyer@example.com', { adm: '', seller: '' });
    const { createAdminService } = await import('./admin.service');
    await createAdminService({ db: server.database.db, companyAccount: 'estoque@voltas.local' }).setRoles(
      'cli',
      'buyer@example.com',
      {
        adm: false,
        seller: true,
      },
    );
    const audit = await admin.json('/api/admin/audit');
    expect(audit.body[0]).toMatchObject({
      actor: 'cli',
      action: 'set-roles',
      target: 'buyer@example.com',
      after: { seller: '1' },
    });
  });
});
