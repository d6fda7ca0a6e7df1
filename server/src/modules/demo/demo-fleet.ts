// The demo's fleet (issue 61): devices with a few days of check-ins, a rollout that finished and one
// that halted itself on failures, so the hardware and firmware pages a newcomer opens are not empty.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CheckInInput } from '#core/contracts/firmware.contract.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { generateFirmwareKey, signManifest } from '#server/lib/firmware-signing.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import { insertDevice } from '../devices/devices.repository';
import { recordCheckIn } from '../devices/device-health.repository';
import {
  findFirmware,
  insertFirmware,
  insertRollout,
  markImageStored,
  recordOffer,
  recordStep,
  setRolloutState,
} from '../firmware/firmware.repository';
import { firmwareBlobKey } from '../firmware/firmware-rules';

const CLASS = 'vt1';
const HOUR = 3_600_000;
/** Fleet devices beside the demo's own: owned by the company, some in the demo seller's stock. */
const FLEET_IDS = ['000000000201', '000000000202', '000000000203', '000000000204', '000000000205', '000000000206'];
const DONE_FIRMWARE = 'demo-fw-120';
const HALTED_FIRMWARE = 'demo-fw-130';

interface Story {
  id: string;
  /** Hours since its last check-in. */
  silentH: number;
  freeStorageKb: number;
  lastUploadError?: string;
  /** Its step in the halted rollout, if it was offered 1.3.0. */
  halted?: { state: 'confirmed' | 'failed' | 'rolled-back'; error?: string };
}

/** Loads the demo fleet once (a second load finds its firmware and adds nothing). */
export async function loadDemoFleet(
  db: Kysely<DB>,
  blobs: BlobStore,
  opts: { demoDevices: string[]; companyAccount: string; seller: string; admin: string },
): Promise<number> {
  if (await findFirmware(db, DONE_FIRMWARE)) return 0;
  for (const [i, id] of FLEET_IDS.entries()) {
    const seller = i < 3 ? opts.seller : '';
    await insertDevice(
      db,
      { id, owner: opts.companyAccount, seller, tokenHash: hashToken(newToken()), name: `Frota ${i + 1}` },
      { ifAbsent: true },
    );
  }
  const stories: Story[] = [
    ...opts.demoDevices.map((id) => ({ id, silentH: 2, freeStorageKb: 900_000 })),
    { id: FLEET_IDS[0]!, silentH: 1, freeStorageKb: 750_000, halted: { state: 'confirmed' } },
    { id: FLEET_IDS[1]!, silentH: 3, freeStorageKb: 4_000, halted: { state: 'failed', error: 'boot-loop' } },
    { id: FLEET_IDS[2]!, silentH: 120, freeStorageKb: 600_000 },
    { id: FLEET_IDS[3]!, silentH: 5, freeStorageKb: 500_000, lastUploadError: 'http-timeout' },
    { id: FLEET_IDS[4]!, silentH: 2, freeStorageKb: 820_000, halted: { state: 'rolled-back', error: 'boot-loop' } },
    { id: FLEET_IDS[5]!, silentH: 4, freeStorageKb: 640_000, halted: { state: 'failed', error: 'hash-mismatch' } },
  ];

  // Two images signed with a key made for the demo (no server key verifies them again).
  const key = generateFirmwareKey();
  const now = Date.now();
  const images: { id: string; version: string; seq: number; daysAgo: number }[] = [
    { id: DONE_FIRMWARE, version: '1.2.0', seq: 120, daysAgo: 20 },
    { id: HALTED_FIRMWARE, version: '1.3.0', seq: 130, daysAgo: 2 },
  ];
  for (const image of images) {
    const bytes = randomBytes(64 * 1024);
    const manifest = JSON.stringify({
      class: CLASS,
      version: image.version,
      seq: image.seq,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      expires: new Date(now + 90 * 24 * HOUR).toISOString(),
      minFrom: '1.0.0',
    });
    const m = JSON.parse(manifest) as { sha256: string; size: number; expires: string };
    const created = new Date(now - image.daysAgo * 24 * HOUR).toISOString();
    await insertFirmware(db, {
      id: image.id,
      class: CLASS,
      version: image.version,
      seq: image.seq,
      sha256: m.sha256,
      size: m.size,
      min_from: '1.0.0',
      expires: m.expires,
      manifest,
      signature: signManifest(manifest, key.privatePem),
      created_at: created,
      created_by: opts.admin,
    });
    await blobs.put(
      firmwareBlobKey({ class: CLASS, seq: image.seq, sha256: m.sha256 }),
      bytes,
      'application/octet-stream',
    );
    await markImageStored(db, image.id);
    await insertRollout(db, {
      id: `demo-rollout-${image.seq}`,
      firmware_id: image.id,
      cohorts: JSON.stringify(['all']),
      percent: image.seq === 120 ? 100 : 50,
      failure_threshold_pct: 30,
      min_devices: 4,
      min_battery_pct: 30,
      state: 'running',
      created_at: created,
      updated_at: created,
      created_by: opts.admin,
    });
  }

  // Every device took 1.2.0; those offered 1.3.0 then confirmed, failed or rolled back.
  for (const s of stories) {
    await recordOffer(db, 'demo-rollout-120', s.id);
    await recordStep(db, 'demo-rollout-120', s.id, { state: 'confirmed', error: null, downloaded: true });
    if (s.halted) {
      await recordOffer(db, 'demo-rollout-130', s.id);
      await recordStep(db, 'demo-rollout-130', s.id, {
        state: s.halted.state,
        error: s.halted.error ?? null,
        downloaded: true,
      });
    }
    // Four check-ins a day for three days, the last `silentH` hours ago.
    for (let n = 11; n >= 0; n--) {
      const at = new Date(now - (s.silentH + n * 6) * HOUR);
      const version = s.halted?.state === 'confirmed' && n < 4 ? '1.3.0' : '1.2.0';
      const checkIn: CheckInInput = {
        firmware: { version, slot: version === '1.3.0' ? 'b' : 'a' },
        hardware: { class: CLASS },
        battery: Math.max(5, 95 - n * 6 - (s.id.charCodeAt(11) % 7)),
        freeStorageKb: s.freeStorageKb + n * 1000,
        queuedSessions: 0,
        ...(s.lastUploadError && n < 6 ? { lastUploadError: s.lastUploadError } : {}),
        resetReason: s.halted?.error === 'boot-loop' && n < 3 ? 'watchdog' : 'power-on',
        rssi: -55 - (n % 4) * 5,
        uptimeS: (12 - n) * 6 * 3600,
      };
      await recordCheckIn(db, s.id, checkIn, at);
    }
  }
  await setRolloutState(db, 'demo-rollout-120', ['running'], { state: 'done' });
  await recordAudit(db, {
    actor: 'system',
    action: 'finish-rollout',
    target: 'demo-rollout-120',
    before: { state: 'running' },
    after: { state: 'done', confirmed: stories.length, failed: 0 },
  });
  const figures = { failed: 3, judged: 4, threshold: 30 };
  await setRolloutState(db, 'demo-rollout-130', ['running'], {
    state: 'halted',
    halt_reason: 'failure-threshold',
    halt_figures: JSON.stringify(figures),
  });
  await recordAudit(db, {
    actor: 'system',
    action: 'halt-rollout',
    target: 'demo-rollout-130',
    before: { state: 'running' },
    after: { state: 'halted', reason: 'failure-threshold', ...figures },
  });
  return FLEET_IDS.length;
}
