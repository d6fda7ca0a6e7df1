import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGpsSix } from '#core/formats/gps-six.ts';
import { writeGpx } from '#core/imports/test-support/writers.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { addDevice, LAP_LINE, put, readEvents, streamEnds } from '#test/fixtures.ts';
import { onPostgres } from '#test/test-database.ts';
import { Browser, sameDatabase, startTestServer, type TestServer } from '#test/test-server.ts';
import { setDisabled, setRoles } from '../users/users.repository';
import { MAX_STREAMS_PER_SIGN_IN, MAX_STREAMS_PER_USER } from './live.routes';

// Live updates are tied to the sign-in they were opened under (issue 19, holes 3 and 6).

const HEARTBEAT_MS = 150;
let server: TestServer;
let admin: Browser;

beforeAll(async () => {
  server = await startTestServer(
    { ADMIN_EMAILS: 'chefe@example.com' },
    { live: { heartbeatMs: HEARTBEAT_MS, maxStreams: 12 } },
  );
  admin = new Browser(server.baseUrl);
  await admin.signIn('chefe@example.com');
});
afterAll(async () => {
  await server.close();
});

async function rider(email: string): Promise<Browser> {
  const b = new Browser(server.baseUrl);
  await b.signIn(email);
  return b;
}

describe('hole 3: a live stream closes when its sign-in no longer allows it', () => {
  it('logout closes it at once', async () => {
    const b = await rider('logout.live@example.com');
    const stream = await b.request('/api/events');
    expect(stream.status).toBe(200);
    const ended = streamEnds(stream, 3000);
    await b.json('/api/auth/logout', { method: 'POST', body: '{}' });
    expect(await ended).toBe(true);
  });

  it("an admin disabling the user closes it, and a demoted admin's stream carries nothing more", async () => {
    const b = await rider('disabled.live@example.com');
    const stream = await b.request('/api/events');
    const ended = streamEnds(stream, 3000);
    expect(
      (
        await admin.json('/api/admin/users/disabled.live%40example.com/disabled', {
          method: 'PUT',
          body: JSON.stringify({ disabled: true }),
        })
      ).status,
    ).toBe(200);
    expect(await ended).toBe(true);

    const boss = await rider('boss.live@example.com');
    await setRoles(server.database.db, 'boss.live@example.com', { adm: '1', seller: '' });
    const bossStream = await boss.request('/api/events');
    const bossEnded = streamEnds(bossStream, 3000);
    expect(
      (
        await admin.json('/api/admin/users/boss.live%40example.com/roles', {
          method: 'PUT',
          body: JSON.stringify({ adm: false, seller: false }),
        })
      ).status,
    ).toBe(200);
    expect(await bossEnded).toBe(true);
    // Reconnected, as a rider now: another rider's upload is not theirs to hear.
    const again = await boss.request('/api/events');
    const token = await addDevice(server, '000000000451', 'someone.live@example.com');
    await put(server, '/api/device/v1/sessions/Live/01112026/lap.six', token, LAP_LINE);
    expect(await readEvents(again, /000000000451/, 600)).not.toContain('000000000451');
  });

  it('a change made where no bus reaches (a direct database change, the CLI on SQLite) or an expiry closes it within a heartbeat', async () => {
    const b = await rider('cli.live@example.com');
    const stream = await b.request('/api/events');
    const ended = streamEnds(stream, 20 * HEARTBEAT_MS);
    await setDisabled(server.database.db, 'cli.live@example.com', true);
    expect(await ended).toBe(true);

    const c = await rider('expiry.live@example.com');
    const expiring = await c.request('/api/events');
    const expired = streamEnds(expiring, 20 * HEARTBEAT_MS);
    await server.database.db
      .updateTable('auth_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_email', '=', 'expiry.live@example.com')
      .execute();
    expect(await expired).toBe(true);
  });

  it('a sign-in past its absolute lifetime ends, however active', async () => {
    const d = await rider('old.live@example.com');
    expect((await d.json('/api/me')).status).toBe(200);
    await server.database.db
      .updateTable('auth_sessions')
      .set({ created_at: new Date(Date.now() - 91 * 86_400_000).toISOString() })
      .where('user_email', '=', 'old.live@example.com')
      .execute();
    expect((await d.json('/api/me')).status).toBe(401);
  });

  it('a stream that stays allowed stays open', async () => {
    const b = await rider('stays.live@example.com');
    const stream = await b.request('/api/events');
    expect(await streamEnds(stream, 6 * HEARTBEAT_MS)).toBe(false);
  });
});

describe("an admin's stream carries what an admin may read", () => {
  it("a rider's import is announced to that rider alone (admins get 404 reading it), a device session to admins too", async () => {
    const interlagos = loadTracks().find((t) => t.name === 'Interlagos')!;
    const gpx = writeGpx(
      parseGpsSix(generateSession(interlagos, { seed: 5, heats: 1, lapsPerHeat: [2, 2] }).gpsSix).value,
      { y: 2026, m: 10, d: 9 },
    );
    const importer = await rider('importer.live@example.com');
    const [adminStream, ownStream] = [await admin.request('/api/events'), await importer.request('/api/events')];
    const imported = await importer.request('/api/imports?filename=manha.gpx', {
      method: 'POST',
      body: gpx,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(imported.status).toBe(201);
    const collection = ((await imported.json()) as { session: { device: string } }).session.device;
    expect(await readEvents(ownStream, new RegExp(collection), 3000)).toContain(collection);
    // A device session after it: the admin hears that one, and nothing of the import before it.
    const token = await addDevice(server, '000000000452', 'importer.live@example.com');
    await put(server, '/api/device/v1/sessions/Live/02112026/lap.six', token, LAP_LINE);
    const heard = await readEvents(adminStream, /000000000452/, 3000);
    expect(heard).toContain('000000000452');
    expect(heard).not.toContain(collection);
  });
});

describe('hole 6: live streams are bounded', () => {
  it(`at most ${MAX_STREAMS_PER_SIGN_IN} per sign-in (429 beyond), and a place frees when one closes`, async () => {
    const b = await rider('many.live@example.com');
    const open = [];
    for (let i = 0; i < MAX_STREAMS_PER_SIGN_IN; i++) {
      const res = await b.request('/api/events');
      expect(res.status).toBe(200);
      open.push(res);
    }
    const refused = await b.request('/api/events');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Record<string, unknown>).code).toBe('auth/too-many-requests');
    await open.pop()!.body!.cancel();
    // The place frees when the server sees that stream closed: a moment later, longer on a busy machine.
    let again: Response | undefined;
    await expect
      .poll(
        async () => {
          const res = await b.request('/api/events');
          if (res.status === 200) again = res;
          else await res.body?.cancel();
          return res.status;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(200);
    for (const res of [...open, again]) await res?.body?.cancel();
  });

  it(`at most ${MAX_STREAMS_PER_USER} per rider, however many times they sign in`, async () => {
    const opened: Response[] = [];
    let refused: Response | undefined;
    for (let signIn = 0; signIn < 3 && !refused; signIn++) {
      const b = await rider('many.signins.live@example.com');
      for (let k = 0; k < MAX_STREAMS_PER_SIGN_IN && !refused; k++) {
        const res = await b.request('/api/events');
        if (res.status === 429) refused = res;
        else opened.push(res);
      }
    }
    expect(opened).toHaveLength(MAX_STREAMS_PER_USER);
    expect(((await refused!.json()) as Record<string, unknown>).message).toMatch(/per rider/);
    for (const res of opened) await res.body?.cancel();
  });

  it('a cap per instance (429 beyond), whoever asks', async () => {
    const opened: Response[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 8 && !refused; i++) {
      const b = await rider(`cap${i}.live@example.com`);
      for (let k = 0; k < 2; k++) {
        const res = await b.request('/api/events');
        if (res.status === 429) refused = res;
        else opened.push(res);
      }
    }
    expect(refused?.status).toBe(429);
    expect(opened.length).toBeLessThanOrEqual(12);
    for (const res of opened) await res.body?.cancel();
  });
});

describe.skipIf(!onPostgres)('on every instance (the coordination bus)', () => {
  it('logging out on one instance closes the streams opened on another', async () => {
    const other = await startTestServer(
      { ...sameDatabase(server), SECRET_KEY: server.config.secretKey },
      { live: { heartbeatMs: 60_000 } },
    );
    try {
      const onA = await rider('bus.live@example.com');
      const onB = new Browser(other.baseUrl);
      for (const [k, v] of onA.cookies) onB.cookies.set(k, v);
      const stream = await onB.request('/api/events');
      expect(stream.status).toBe(200);
      const ended = streamEnds(stream, 3000);
      await onA.json('/api/auth/logout', { method: 'POST', body: '{}' });
      // The heartbeat on B is a minute away: only the bus can have closed it.
      expect(await ended).toBe(true);
    } finally {
      await other.close();
    }
  });
});
