// A firmware release the way an admin makes one over HTTP: a signed image registered, its bytes
// uploaded, rolled out to everyone. The fleet, firmware and authorization tests and the fleet bench
// all start from one; a refusal throws, naming the step.
import { createHash } from 'node:crypto';
import { generateFirmwareKey, signManifest } from '#server/lib/firmware-signing.ts';
import { Browser, startTestServer, type TestServer } from './test-server';

type FirmwareKey = ReturnType<typeof generateFirmwareKey>;

/** A server that trusts `key`'s images, and its admin signed in. */
export async function startFirmwareServer(
  key: FirmwareKey,
  env: Record<string, string> = {},
): Promise<{ server: TestServer; admin: Browser }> {
  const server = await startTestServer({
    ADMIN_EMAILS: 'admin@example.com',
    FIRMWARE_PUBLIC_KEYS: key.publicKey,
    ...env,
  });
  const admin = new Browser(server.baseUrl);
  await admin.signIn('admin@example.com');
  return { server, admin };
}

interface Release {
  version?: string;
  seq?: number;
  hardwareClass?: string;
  /** The rollout's own settings (cohorts: everyone, 100 %, threshold 50 %, 5 devices unless told). */
  rollout?: Record<string, unknown>;
}

/** Registers `image` signed with `key`, uploads it, and rolls it out; its firmware and rollout ids. */
export async function releaseFirmware(
  admin: Browser,
  key: FirmwareKey,
  image: Buffer<ArrayBuffer>,
  release: Release = {},
): Promise<{ firmwareId: string; rolloutId: string }> {
  const manifest = JSON.stringify({
    class: release.hardwareClass ?? 'vt1',
    version: release.version ?? '1.1.0',
    seq: release.seq ?? 1,
    sha256: createHash('sha256').update(image).digest('hex'),
    size: image.length,
    expires: new Date(Date.now() + 86_400_000).toISOString(),
    minFrom: '',
  });
  const created = await admin.json('/api/admin/firmware', {
    method: 'POST',
    body: JSON.stringify({ manifest, signature: signManifest(manifest, key.privatePem) }),
  });
  if (created.status !== 201) throw new Error(`firmware: ${created.status} ${JSON.stringify(created.body)}`);
  const firmwareId = created.body.id as string;
  const uploaded = await admin.request(`/api/admin/firmware/${firmwareId}/image`, {
    method: 'PUT',
    headers: { origin: admin.baseUrl, 'content-type': 'application/octet-stream' },
    body: image,
  });
  if (uploaded.status !== 200) throw new Error(`image upload: ${uploaded.status}`);
  return { firmwareId, rolloutId: await startRollout(admin, firmwareId, release.rollout) };
}

/** Rolls an uploaded image out (to everyone, 100 %, threshold 50 %, 5 devices, unless `over` says). */
export async function startRollout(
  admin: Browser,
  firmwareId: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await admin.json('/api/admin/rollouts', {
    method: 'POST',
    body: JSON.stringify({
      firmwareId,
      cohorts: ['all'],
      percent: 100,
      failureThresholdPct: 50,
      minDevices: 5,
      ...over,
    }),
  });
  if (res.status !== 201) throw new Error(`rollout: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}
