// Rollouts of a firmware image to cohorts and a percentage, as the admin starts, pauses, widens and
// reads them; a rollout whose failures pass its threshold halts itself, for everyone, at once.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  haltReasonSchema,
  type HaltReason,
  type Rollout,
  type RolloutState,
} from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import {
  cohortMembers,
  devicesNotOffered,
  findFirmware,
  findRollout,
  funnels,
  insertRollout,
  listFirmware,
  listRollouts,
  setRolloutState,
  setUserCohort,
  unfinishedOffers,
  type RolloutRow,
} from './firmware.repository';
import { cohortMatches, compareVersions, DEFAULT_MIN_BATTERY_PCT, inPercentage } from './firmware-rules';

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
    judge,
    finishIfComplete,

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
  };
}
