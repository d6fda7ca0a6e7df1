// Signed firmware and its rollouts (issue 61): the admin registers a manifest signed off the server,
// uploads the image it names, and rolls it out to cohorts and a percentage; devices are offered it at
// check-in, fetch it by ranges, and report each step. A rollout whose failures pass its threshold
// halts itself, for everyone, at once.
import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import {
  firmwareManifestSchema,
  haltReasonSchema,
  type CheckInInput,
  type FirmwareOffer,
  type HaltReason,
  type Rollout,
  type RolloutState,
} from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { receiveToFile } from '#server/lib/body-to-file.ts';
import { publicKeyFromRaw, verifyManifest } from '#server/lib/firmware-signing.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import {
  cohortFactsOfDevice,
  cohortMembers,
  devicesNotOffered,
  findFirmware,
  findRollout,
  findRolloutDevice,
  funnels,
  insertFirmware,
  insertRollout,
  lastSeqOfClass,
  listFirmware,
  listRollouts,
  markImageStored,
  recordOffer,
  recordStep,
  rolloutStepsOfDevices,
  runningRolloutsOfClass,
  setRolloutState,
  setUserCohort,
  unfinishedOffers,
  uploadInFlight,
  type FirmwareRow,
  type RolloutRow,
} from './firmware.repository';

/** Below this battery (per cent, not charging) a device is not offered an image unless the rollout says otherwise. */
const DEFAULT_MIN_BATTERY_PCT = 30;
const TERMINAL_STEPS = new Set(['confirmed', 'failed', 'rolled-back']);
const FAILED_STEPS = new Set(['failed', 'rolled-back']);
/** Steps in the order a device goes through them; a report may not go back (a replayed report changes nothing). */
const STEP_ORDER = ['offered', 'downloading', 'downloaded', 'installing', 'rebooted', 'confirmed'];

export const firmwareBlobKey = (f: { class: string; seq: number; sha256: string }) =>
  `firmware/${f.class}/${f.seq}-${f.sha256.slice(0, 16)}.bin`;

/** Where a device fetches a rollout's image: the rollout names it, so only its offer opens it. */
const firmwareUrl = (rolloutId: string) => `/api/device/v1/firmware/${rolloutId}/image`;

/** Whether a device is in a rollout's percentage: a stable hash of (device, rollout), so widening keeps everyone in. */
export function inPercentage(deviceId: string, rolloutId: string, percent: number): boolean {
  const bucket = createHash('sha256').update(`${deviceId}:${rolloutId}`).digest().readUInt32BE(0) / 2 ** 32;
  return bucket * 100 < percent;
}

/** Compares dotted versions numerically (1.10.0 > 1.9.0); a pre-release tag sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const [ca = '', pa = ''] = a.split('-', 2);
  const [cb = '', pb = ''] = b.split('-', 2);
  const na = ca.split('.').map(Number);
  const nb = cb.split('.').map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] || 0) - (nb[i] || 0);
    if (d) return Math.sign(d);
  }
  if (pa === pb) return 0;
  if (!pa) return 1;
  if (!pb) return -1;
  return pa < pb ? -1 : 1;
}

function parseManifest(manifest: string) {
  let json: unknown;
  try {
    json = JSON.parse(manifest);
  } catch {
    throw new AppError('firmware/bad-manifest', 'The manifest is not JSON; nothing was stored.');
  }
  const parsed = firmwareManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError(
      'firmware/bad-manifest',
      `The manifest's ${issue.path.join('.') || 'body'} is wrong: ${issue.message}; nothing was stored.`,
    );
  }
  return parsed.data;
}

function cohortMatches(cohorts: string[], facts: { cohort: string; sellers: string[] }): boolean {
  return cohorts.some(
    (c) =>
      c === 'all' ||
      (c === facts.cohort && c !== '') ||
      (c.startsWith('seller:') && facts.sellers.includes(c.slice('seller:'.length))),
  );
}

/** A halted rollout's reason: its stored code and figures (null unless halted, or unreadable). */
function haltReasonOf(r: RolloutRow): HaltReason | null {
  if (!r.halt_reason) return null;
  let figures: unknown;
  try {
    figures = JSON.parse(r.halt_figures);
  } catch {
    return null;
  }
  return haltReasonSchema.safeParse({ ...(figures as object), code: r.halt_reason }).data ?? null;
}

export function createFirmwareService(deps: { db: Kysely<DB>; blobs: BlobStore; publicKeys: string[] }) {
  const { db, blobs } = deps;
  const keys: KeyObject[] = deps.publicKeys.map(publicKeyFromRaw);

  const toFirmware = (f: FirmwareRow) => ({
    id: f.id,
    class: f.class,
    version: f.version,
    seq: f.seq,
    sha256: f.sha256,
    size: f.size,
    minFrom: f.min_from,
    expires: f.expires,
    imageStored: f.image_stored === 1,
    createdAt: f.created_at,
    createdBy: f.created_by,
  });

  async function describe(rows: RolloutRow[]): Promise<Rollout[]> {
    const byFunnel = await funnels(
      db,
      rows.map((r) => r.id),
    );
    const images = new Map((await listFirmware(db)).map((f) => [f.id, f]));
    return rows.map((r) => {
      const f = images.get(r.firmware_id);
      return {
        id: r.id,
        firmwareId: r.firmware_id,
        class: f?.class ?? '',
        version: f?.version ?? '',
        cohorts: JSON.parse(r.cohorts) as string[],
        percent: r.percent,
        failureThresholdPct: r.failure_threshold_pct,
        minDevices: r.min_devices,
        minBatteryPct: r.min_battery_pct,
        state: r.state as RolloutState,
        haltReason: haltReasonOf(r),
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        createdBy: r.created_by,
        ...byFunnel.get(r.id)!,
      };
    });
  }

  /** Halts a running rollout whose failures passed its threshold among at least minDevices finished devices. */
  async function judge(rolloutId: string): Promise<void> {
    const rollout = await findRollout(db, rolloutId);
    if (rollout?.state !== 'running') return;
    const f = (await funnels(db, [rolloutId])).get(rolloutId)!;
    const finished = f.confirmed + f.failed;
    if (finished < rollout.min_devices) return;
    if ((f.failed / finished) * 100 <= rollout.failure_threshold_pct) return;
    const { code, ...figures }: HaltReason = {
      code: 'failure-threshold',
      failed: f.failed,
      judged: finished,
      threshold: rollout.failure_threshold_pct,
    };
    await inTransaction(db, async (trx) => {
      const halted = await setRolloutState(trx, rolloutId, ['running'], {
        state: 'halted',
        halt_reason: code,
        halt_figures: JSON.stringify(figures),
      });
      if (!halted) return;
      await recordAudit(trx, {
        actor: 'system',
        action: 'halt-rollout',
        target: rolloutId,
        before: { state: 'running' },
        after: { state: 'halted', reason: code, ...figures, failures: f.failures },
      });
    });
  }

  /**
   * Marks a running (or paused) rollout done once nothing is left of it: every device offered it has
   * confirmed, failed or rolled back, and no device of its class in its cohorts × percentage is still
   * to be offered it (a device that never checked in has no known class and does not count). Called
   * when a device finishes, after judge(): a halt wins.
   */
  async function finishIfComplete(rolloutId: string): Promise<void> {
    const rollout = await findRollout(db, rolloutId);
    if (rollout?.state !== 'running' && rollout?.state !== 'paused') return;
    if ((await unfinishedOffers(db, rolloutId)) > 0) return;
    const f = (await findFirmware(db, rollout.firmware_id))!;
    const cohorts = JSON.parse(rollout.cohorts) as string[];
    const waiting = (await devicesNotOffered(db, rolloutId, f.class)).some(
      (d) =>
        compareVersions(d.version, f.version) < 0 &&
        !(f.min_from && compareVersions(d.version, f.min_from) < 0) &&
        cohortMatches(cohorts, d.facts) &&
        inPercentage(d.id, rolloutId, rollout.percent),
    );
    if (waiting) return;
    const funnel = (await funnels(db, [rolloutId])).get(rolloutId)!;
    await inTransaction(db, async (trx) => {
      if (!(await setRolloutState(trx, rolloutId, [rollout.state], { state: 'done' }))) return;
      await recordAudit(trx, {
        actor: 'system',
        action: 'finish-rollout',
        target: rolloutId,
        before: { state: rollout.state },
        after: { state: 'done', confirmed: funnel.confirmed, failed: funnel.failed },
      });
    });
  }

  return {
    listFirmware: async () => ({ firmware: (await listFirmware(db)).map(toFirmware) }),

    /** Verifies the manifest's signature and rules; the image is uploaded next. */
    async register(actor: string, input: { manifest: string; signature: string }): Promise<{ id: string }> {
      if (!verifyManifest(input.manifest, input.signature, keys))
        throw new AppError(
          'firmware/bad-signature',
          keys.length
            ? undefined
            : 'No firmware key is configured (FIRMWARE_PUBLIC_KEYS is empty): no image can be accepted.',
        );
      const m = parseManifest(input.manifest);
      if (Date.parse(m.expires) <= Date.now())
        throw new AppError('firmware/bad-manifest', `The manifest expired at ${m.expires}; sign it again.`);
      return inTransaction(db, async (trx) => {
        const last = await lastSeqOfClass(trx, m.class);
        if (m.seq <= last)
          throw new AppError(
            'firmware/seq-not-above',
            `seq ${m.seq} is not above ${last}, the last of class ${m.class}: sign with a higher seq.`,
          );
        const id = randomBytes(8).toString('hex');
        await insertFirmware(trx, {
          id,
          class: m.class,
          version: m.version,
          seq: m.seq,
          sha256: m.sha256,
          size: m.size,
          min_from: m.minFrom,
          expires: m.expires,
          manifest: input.manifest,
          signature: input.signature,
          created_at: nowIso(),
          created_by: actor,
        });
        await recordAudit(trx, {
          actor,
          action: 'register-firmware',
          target: id,
          before: {},
          after: { class: m.class, version: m.version, seq: m.seq, sha256: m.sha256, size: m.size },
        });
        return { id };
      });
    },

    /**
     * Streams the image to a temp file, checking its size on the way and its sha256 at the end,
     * before it reaches the blob store: a cut or a wrong upload stores nothing.
     */
    async storeImage(actor: string, id: string, body: AsyncIterable<Uint8Array>, declared: number) {
      const f = await findFirmware(db, id);
      if (!f) throw new AppError('storage/object-not-found', `No firmware ${id}.`);
      const mismatch = (what: string) =>
        new AppError(
          'firmware/image-mismatch',
          `The image's ${what} does not match the signed manifest (${f.size} bytes, sha256 ${f.sha256}); nothing was stored.`,
        );
      if (Number.isFinite(declared) && declared !== f.size) throw mismatch('size');
      const temp = await blobs.tempPath();
      const sha = createHash('sha256');
      try {
        const { size, md5 } = await receiveToFile(
          body,
          temp,
          { maxBytes: f.size, tooLarge: () => mismatch('size') },
          (c) => sha.update(c),
        );
        if (size !== f.size) throw mismatch('size');
        if (sha.digest('hex') !== f.sha256) throw mismatch('sha256');
        await blobs.putFile(firmwareBlobKey(f), temp, 'application/octet-stream', { md5: md5.toString('base64') });
      } finally {
        await rm(temp, { force: true });
      }
      await inTransaction(db, async (trx) => {
        await markImageStored(trx, id);
        await recordAudit(trx, {
          actor,
          action: 'upload-firmware-image',
          target: id,
          before: { imageStored: f.image_stored === 1 },
          after: { imageStored: true, size: f.size, sha256: f.sha256 },
        });
      });
      return toFirmware({ ...f, image_stored: 1 });
    },

    async createRollout(
      actor: string,
      input: {
        firmwareId: string;
        cohorts: string[];
        percent: number;
        failureThresholdPct: number;
        minDevices: number;
        minBatteryPct?: number | undefined;
      },
    ): Promise<{ id: string }> {
      const f = await findFirmware(db, input.firmwareId);
      if (!f) throw new AppError('storage/object-not-found', `No firmware ${input.firmwareId}.`);
      if (f.image_stored !== 1) throw new AppError('firmware/image-missing');
      if (Date.parse(f.expires) <= Date.now())
        throw new AppError('firmware/bad-manifest', `The manifest expired at ${f.expires}; sign it again.`);
      const id = randomBytes(8).toString('hex');
      const now = nowIso();
      const cohorts = [...new Set(input.cohorts)];
      await inTransaction(db, async (trx) => {
        await insertRollout(trx, {
          id,
          firmware_id: f.id,
          cohorts: JSON.stringify(cohorts),
          percent: input.percent,
          failure_threshold_pct: input.failureThresholdPct,
          min_devices: input.minDevices,
          min_battery_pct: input.minBatteryPct ?? DEFAULT_MIN_BATTERY_PCT,
          state: 'running',
          created_at: now,
          updated_at: now,
          created_by: actor,
        });
        await recordAudit(trx, {
          actor,
          action: 'start-rollout',
          target: id,
          before: {},
          after: { firmwareId: f.id, version: f.version, cohorts, percent: input.percent },
        });
      });
      return { id };
    },

    /**
     * Pause, resume, abort, widen. A halted or aborted rollout stays as it is; a done one only opens
     * again (running) to a wider percentage: done at 10 %, widened to 50 %.
     */
    async patchRollout(
      actor: string,
      id: string,
      patch: { state?: 'running' | 'paused' | 'aborted'; percent?: number },
    ) {
      const rollout = await findRollout(db, id);
      if (!rollout) throw new AppError('storage/object-not-found', `No rollout ${id}.`);
      const reopen =
        rollout.state === 'done' &&
        patch.percent !== undefined &&
        patch.percent > rollout.percent &&
        (patch.state ?? 'running') === 'running';
      await inTransaction(db, async (trx) => {
        const changed = await setRolloutState(trx, id, reopen ? ['done'] : ['running', 'paused'], {
          ...(patch.state || reopen ? { state: patch.state ?? 'running' } : {}),
          ...(patch.percent !== undefined ? { percent: patch.percent } : {}),
        });
        if (!changed)
          throw new AppError(
            'firmware/rollout-closed',
            rollout.state === 'done'
              ? `Rollout ${id} is done: only a wider percentage opens it again.`
              : `Rollout ${id} is ${rollout.state}: it can no longer be paused, resumed or widened.`,
          );
        const action =
          patch.state === 'paused'
            ? 'pause-rollout'
            : patch.state === 'aborted'
              ? 'abort-rollout'
              : patch.state === 'running' && rollout.state === 'paused'
                ? 'resume-rollout'
                : 'widen-rollout';
        await recordAudit(trx, {
          actor,
          action,
          target: id,
          before: { state: rollout.state, percent: rollout.percent },
          after: {
            state: patch.state ?? (reopen ? 'running' : rollout.state),
            percent: patch.percent ?? rollout.percent,
          },
        });
      });
      return (await describe([(await findRollout(db, id))!]))[0]!;
    },

    async rollout(id: string): Promise<Rollout> {
      const row = await findRollout(db, id);
      if (!row) throw new AppError('storage/object-not-found', `No rollout ${id}.`);
      return (await describe([row]))[0]!;
    },
    rollouts: async () => ({ rollouts: await describe(await listRollouts(db)) }),

    async setCohort(actor: string, email: string, cohort: '' | 'internal' | 'beta') {
      await inTransaction(db, async (trx) => {
        if (!(await setUserCohort(trx, email, cohort)))
          throw new AppError('storage/object-not-found', `No user ${email}.`);
        await recordAudit(trx, { actor, action: 'set-firmware-cohort', target: email, before: {}, after: { cohort } });
      });
    },
    cohortMembers: async () => ({
      users: (await cohortMembers(db)).map((u) => ({
        email: u.email,
        cohort: u.firmware_cohort as '' | 'internal' | 'beta',
      })),
    }),

    /**
     * The offer for a device at check-in, or null: the newest running rollout of its class that
     * holds it (cohort and percentage), that it has not finished, and that it may install now (not
     * mid-upload, not on a low battery, not pending its own confirmation, its version in range).
     */
    async offerFor(
      device: { id: string; knownClass: string | null },
      input: CheckInInput,
    ): Promise<FirmwareOffer | null> {
      const claimed = input.hardware.class;
      // A device's class is fixed by its first check-in: one that claims another gets nothing.
      if (device.knownClass && device.knownClass !== claimed) return null;
      if (input.firmware.pendingVerify) return null;
      if ((input.queuedSessions ?? 0) > 0) return null;
      const rollouts = await runningRolloutsOfClass(db, claimed);
      if (!rollouts.length) return null;
      if (await uploadInFlight(db, device.id)) return null;
      const facts = await cohortFactsOfDevice(db, device.id);
      const now = Date.now();
      for (const r of rollouts) {
        if (Date.parse(r.expires) <= now) continue;
        const step = await findRolloutDevice(db, r.id, device.id);
        if (step && TERMINAL_STEPS.has(step.state)) continue;
        if (!step) {
          if (compareVersions(input.firmware.version, r.version) >= 0) continue;
          if (r.min_from && compareVersions(input.firmware.version, r.min_from) < 0) continue;
          if (!cohortMatches(JSON.parse(r.cohorts) as string[], facts)) continue;
          if (!inPercentage(device.id, r.id, r.percent)) continue;
        }
        if (input.battery !== undefined && !input.charging && input.battery < r.min_battery_pct) return null;
        if (!step) await recordOffer(db, r.id, device.id);
        return { manifest: r.manifest, signature: r.signature, rolloutId: r.id, url: firmwareUrl(r.id) };
      }
      return null;
    },

    /**
     * A device's step in a rollout it was offered. Steps only go forward; 'confirmed' counts only
     * once the device's check-in reports the new version (it rebooted into it).
     */
    async report(
      device: { id: string; version: string },
      input: { rolloutId: string; state: string; error?: string | undefined },
    ): Promise<void> {
      const step = await findRolloutDevice(db, input.rolloutId, device.id);
      if (!step) throw new AppError('firmware/not-offered');
      const rollout = (await findRollout(db, input.rolloutId))!;
      const f = (await findFirmware(db, rollout.firmware_id))!;
      if (TERMINAL_STEPS.has(step.state)) return; // its outcome is counted once
      if (input.state === 'confirmed' && compareVersions(device.version, f.version) !== 0)
        throw new AppError(
          'firmware/not-rebooted',
          `Confirm ${f.version} after rebooting into it: the last check-in reported ${device.version || 'no version'}.`,
        );
      const failed = FAILED_STEPS.has(input.state);
      if (!failed && STEP_ORDER.indexOf(input.state) < STEP_ORDER.indexOf(step.state)) return;
      await recordStep(db, input.rolloutId, device.id, {
        state: input.state,
        error: failed ? (input.error ?? null) : null,
        downloaded: STEP_ORDER.indexOf(input.state) >= STEP_ORDER.indexOf('downloaded'),
      });
      if (failed) await judge(input.rolloutId);
      if (TERMINAL_STEPS.has(input.state)) await finishIfComplete(input.rolloutId);
    },

    /** The image a device may fetch: only through a standing offer of a rollout not halted or aborted. */
    async imageFor(deviceId: string, rolloutId: string) {
      const step = await findRolloutDevice(db, rolloutId, deviceId);
      if (!step) throw new AppError('firmware/not-offered');
      const rollout = (await findRollout(db, rolloutId))!;
      if (rollout.state === 'halted' || rollout.state === 'aborted') throw new AppError('firmware/rollout-closed');
      const f = (await findFirmware(db, rollout.firmware_id))!;
      if (Date.parse(f.expires) <= Date.now())
        throw new AppError('firmware/rollout-closed', `The offer expired at ${f.expires}.`);
      return {
        size: f.size,
        sha256: f.sha256,
        open: (range?: { start: number; end: number }) => blobs.getStream(firmwareBlobKey(f), range),
      };
    },

    /** Each device's rollout steps, newest offer first (the fleet view keeps the first per device). */
    currentSteps: () => rolloutStepsOfDevices(db),
  };
}

export type FirmwareService = ReturnType<typeof createFirmwareService>;
