// Firmware as a device meets it: offered at check-in, fetched by ranges, each step reported.
import type { Kysely } from 'kysely';
import type { CheckInInput, FirmwareOffer } from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import {
  cohortFactsOfDevice,
  findFirmware,
  findRollout,
  findRolloutDevice,
  recordOffer,
  recordStep,
  rolloutStepsOfDevices,
  runningRolloutsOfClass,
  uploadInFlight,
} from './firmware.repository';
import {
  FAILED_STEPS,
  STEP_ORDER,
  TERMINAL_STEPS,
  cohortMatches,
  compareVersions,
  firmwareBlobKey,
  firmwareUrl,
  inPercentage,
} from './firmware-rules';

export function createFirmwareOffers(deps: {
  db: Kysely<DB>;
  blobs: BlobStore;
  /** Halts the rollout if its failures passed its threshold (the rollouts' own rule). */
  judge: (rolloutId: string) => Promise<void>;
  /** Marks the rollout done once nothing is left of it (after judge: a halt wins). */
  finishIfComplete: (rolloutId: string) => Promise<void>;
}) {
  const { db, blobs, judge, finishIfComplete } = deps;

  return {
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
      // Judged at every outcome, not only at a failure: failures reported before minDevices had
      // finished count once enough have, whatever the last report was. A halt wins over done.
      if (TERMINAL_STEPS.has(input.state)) {
        await judge(input.rolloutId);
        await finishIfComplete(input.rolloutId);
      }
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
