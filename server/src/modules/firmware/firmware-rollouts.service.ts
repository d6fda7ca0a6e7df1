// Rollouts of a firmware image to cohorts and a percentage, as the admin starts, pauses, widens and
// reads them; a rollout whose failures pass its threshold halts itself, for everyone, at once.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Rollout, RolloutState } from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import {
  cohortMembers,
  findFirmware,
  findRollout,
  funnels,
  insertRollout,
  listFirmware,
  listRollouts,
  setRolloutState,
  setUserCohort,
  type RolloutRow,
} from './firmware.repository';
import { DEFAULT_MIN_BATTERY_PCT } from './firmware-rules';

export function createFirmwareRollouts(deps: { db: Kysely<DB> }) {
  const { db } = deps;

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
        haltReason: r.halt_reason,
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
    const share = (f.failed / finished) * 100;
    if (share <= rollout.failure_threshold_pct) return;
    const reason = `${f.failed} of ${finished} devices failed (${share.toFixed(0)} % > ${rollout.failure_threshold_pct} %)`;
    await inTransaction(db, async (trx) => {
      if (!(await setRolloutState(trx, rolloutId, ['running'], { state: 'halted', halt_reason: reason }))) return;
      await recordAudit(trx, {
        actor: 'system',
        action: 'halt-rollout',
        target: rolloutId,
        before: { state: 'running' },
        after: { state: 'halted', reason, failures: f.failures },
      });
    });
  }

  return {
    judge,

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

    /** Pause, resume, abort, widen. A halted, aborted or done rollout stays as it is. */
    async patchRollout(
      actor: string,
      id: string,
      patch: { state?: 'running' | 'paused' | 'aborted'; percent?: number },
    ) {
      const rollout = await findRollout(db, id);
      if (!rollout) throw new AppError('storage/object-not-found', `No rollout ${id}.`);
      await inTransaction(db, async (trx) => {
        const changed = await setRolloutState(trx, id, ['running', 'paused'], {
          ...(patch.state ? { state: patch.state } : {}),
          ...(patch.percent !== undefined ? { percent: patch.percent } : {}),
        });
        if (!changed)
          throw new AppError(
            'firmware/rollout-closed',
            `Rollout ${id} is ${rollout.state}: it can no longer be paused, resumed or widened.`,
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
          after: { state: patch.state ?? rollout.state, percent: patch.percent ?? rollout.percent },
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
  };
}
