// The simulated fleet against a real server (issue 61): devices upload their sessions, take a signed
// image by ranges through dropped links, and confirm or fail as planned; a rollout whose failures
// pass its threshold halts itself; and the CLI runs the same fleet.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planFleet } from '#core/sim/fleet.ts';
import { generateFirmwareKey, publicKeyFromRaw } from '#server/lib/firmware-signing.ts';
import { addDevice } from '#test/fixtures.ts';
import { releaseFirmware, startFirmwareServer } from '#test/firmware-release.ts';
import { type Browser, sameDatabase, type TestServer } from '#test/test-server.ts';
import { runFleet, type FleetDevice } from './fleet';
import { run } from './voltas';

const KEY = generateFirmwareKey();
let server: TestServer;
let admin: Browser;

/** A fresh image of the fleet's class, signed, uploaded and rolled out to everyone. */
const release = async (version: string, seq: number, rollout: Record<string, unknown>) =>
  (await releaseFirmware(admin, KEY, randomBytes(256 * 1024 + 17), { version, seq, rollout })).rolloutId;

async function fleetOf(count: number, first: number): Promise<FleetDevice[]> {
  const devices: FleetDevice[] = [];
  for (let i = 0; i < count; i++) {
    const id = String(first + i).padStart(12, '0');
    devices.push({ id, token: await addDevice(server, id, `fleet${first}@example.com`) });
  }
  return devices;
}

beforeAll(async () => {
  ({ server, admin } = await startFirmwareServer(KEY));
});
// On PostgreSQL the close waits for pg-boss to finish analysing the fleet's twenty sessions: a wait, not a deadline.
afterAll(async () => {
  await server.close();
}, 180_000);

describe('a simulated fleet', () => {
  it('uploads its sessions, downloads through dropped links, and confirms or fails as told', async () => {
    const rolloutId = await release('1.1.0', 11, { percent: 100, failureThresholdPct: 50, minDevices: 5 });
    const devices = await fleetOf(20, 500);
    const summary = await runFleet({
      server: server.baseUrl,
      devices,
      plan: planFleet(20, { liars: 1, rebootLoops: 1, failShare: 0.1, dropShare: 0.5, seed: 3 }),
      keys: [publicKeyFromRaw(KEY.publicKey)],
      hardwareClass: 'vt1',
      version: '1.0.0',
      rounds: 2,
      sessions: { track: 'Interlagos', date: '05122026' },
      concurrency: 10,
    });
    expect(summary.uploads).toBe(20);
    expect(summary.resumed).toBeGreaterThan(0);
    expect(summary.confirmed).toBe(16);
    expect(summary.failed).toEqual({ 'class-mismatch': 1, 'boot-loop': 1, 'install-failed': 2 });
    expect(summary.versions).toEqual({ '1.1.0': 16, '1.0.0': 4 });
    const funnel = await admin.json(`/api/admin/rollouts/${rolloutId}`);
    // Every device of the class has finished, under the threshold: done by itself.
    expect(funnel.body).toMatchObject({
      state: 'done',
      offered: 20,
      confirmed: 16,
      failed: 4,
      failures: { 'class-mismatch': 1, 'boot-loop': 1, 'install-failed': 2 },
    });
    // Every rider's session arrived, whole, while the fleet downloaded.
    const sessions = await server.database.db
      .selectFrom('lap_sessions')
      .select('device_id')
      .where(
        'device_id',
        'in',
        devices.map((d) => d.id),
      )
      .execute();
    expect(sessions).toHaveLength(20);
  }, 120_000);

  it('halts a rollout by itself once half its devices fail, then offers it to nobody', async () => {
    const rolloutId = await release('1.2.0', 12, { percent: 100, failureThresholdPct: 30, minDevices: 4 });
    const devices = await fleetOf(12, 600);
    const summary = await runFleet({
      server: server.baseUrl,
      devices,
      plan: planFleet(12, { failShare: 0.5, seed: 5 }),
      keys: [publicKeyFromRaw(KEY.publicKey)],
      hardwareClass: 'vt1',
      version: '1.0.0',
      rounds: 1,
      concurrency: 1,
    });
    const funnel = await admin.json(`/api/admin/rollouts/${rolloutId}`);
    expect(funnel.body.state).toBe('halted');
    // Each was offered it when the fleet first checked in; those after the halt never took it.
    expect(funnel.body.offered).toBe(12);
    expect(summary.offers).toBeLessThan(12);
    // A device that never got it checks in again: nothing.
    const late = devices.at(-1)!;
    const again = await fetch(`${server.baseUrl}/api/device/v1/check-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${late.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firmware: { version: '1.0.0' }, hardware: { class: 'vt1' } }),
    });
    expect(((await again.json()) as { update: unknown }).update).toBeNull();
  }, 120_000);

  it('drops a download whose offer is withdrawn mid-way, reports nothing more, and checks in again', async () => {
    const rolloutId = await release('1.4.0', 14, { percent: 100, failureThresholdPct: 10, minDevices: 2 });
    const devices = await fleetOf(8, 700);
    // Two bad flashes halt the rollout while the six others are held a third of the way into
    // their download (their link dropped): their resume finds the offer withdrawn (409).
    const plan = devices.map((_, i) =>
      i < 2
        ? { behaviour: 'fails-install' as const, dropsLink: false }
        : { behaviour: 'healthy' as const, dropsLink: true },
    );
    const halted = async () => {
      for (let i = 0; i < 300; i++) {
        if ((await admin.json(`/api/admin/rollouts/${rolloutId}`)).body.state === 'halted') return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the rollout did not halt');
    };
    const summary = await runFleet({
      server: server.baseUrl,
      devices,
      plan,
      keys: [publicKeyFromRaw(KEY.publicKey)],
      hardwareClass: 'vt1',
      version: '1.0.0',
      rounds: 2,
      concurrency: 8,
      onStep: (_id, step) => (step === 'link-dropped' ? halted() : undefined),
    });
    expect(summary.withdrawn).toBe(6);
    expect(summary).toMatchObject({ offers: 8, confirmed: 0, failed: { 'install-failed': 2 } });
    // Every device went on checking in: its first check-in, then both rounds, none stopped by the 409.
    expect(summary.checkIns).toBe(24);
    const funnel = await admin.json(`/api/admin/rollouts/${rolloutId}`);
    expect(funnel.body).toMatchObject({ state: 'halted', offered: 8, failed: 2, confirmed: 0 });
    // The withdrawn devices reported nothing after 'downloading'.
    const steps = await server.database.db
      .selectFrom('rollout_devices')
      .select(['device_id', 'state'])
      .where('rollout_id', '=', rolloutId)
      .orderBy('device_id')
      .execute();
    expect(steps.map((s) => s.state)).toEqual(['failed', 'failed', ...new Array(6).fill('downloading')]);
  }, 120_000);

  it('runs from the command line: voltas simulate --fleet', async () => {
    const rolloutId = await release('1.5.0', 15, { percent: 100, failureThresholdPct: 90, minDevices: 5 });
    for (const [k, v] of Object.entries({
      ...sameDatabase(server),
      DATA_DIR: server.dataDir,
      FIRMWARE_PUBLIC_KEYS: KEY.publicKey,
    }))
      vi.stubEnv(k, v);
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await run(['simulate', '--fleet', '4', '--server', server.baseUrl, '--rounds', '1'])).toBe(0);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ confirmed: 4, offers: 4 });
    expect((await admin.json(`/api/admin/rollouts/${rolloutId}`)).body.confirmed).toBe(4);
  }, 120_000);
});
