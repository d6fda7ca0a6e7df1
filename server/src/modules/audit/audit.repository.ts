// The audit_log table: who changed what about users, devices and tracks, before and after; written in
// the same transaction as the change, read newest first by the admin page.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';

type AuditAction =
  | 'assign-owner'
  | 'assign-buyer-seller'
  | 'assign-device-seller'
  | 'register-device'
  | 'rotate-token'
  | 'set-roles'
  | 'disable-user'
  | 'enable-user'
  | 'sell-device'
  | 'revoke-token'
  | 'move-track-gate'
  | 'rename-track'
  | 'share-track'
  | 'register-firmware'
  | 'upload-firmware-image'
  | 'start-rollout'
  | 'pause-rollout'
  | 'resume-rollout'
  | 'abort-rollout'
  | 'widen-rollout'
  | 'halt-rollout'
  | 'finish-rollout'
  | 'set-firmware-cohort'
  | 'draw-pit-lane';

export interface AuditEntry {
  actor: string;
  action: AuditAction;
  target: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

let lastMs = 0;
let counter = 0;
/** Time-sortable and monotonic within a process: `<ms base36>-<counter>-<random>`. */
function auditId(now: number): string {
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = 0;
  }
  return `${now.toString(36).padStart(10, '0')}-${counter.toString(36).padStart(4, '0')}-${randomBytes(4).toString('hex')}`;
}

/** Call inside the same transaction as the change it records. */
export async function recordAudit(db: Kysely<DB>, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: auditId(Date.now()),
      at: nowIso(),
      actor: e.actor,
      action: e.action,
      target: e.target,
      before: JSON.stringify(e.before),
      after: JSON.stringify(e.after),
    })
    .execute();
}

export async function listAudit(db: Kysely<DB>, limit = 500) {
  const rows = await db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    target: r.target,
    before: JSON.parse(r.before) as Record<string, unknown>,
    after: JSON.parse(r.after) as Record<string, unknown>,
  }));
}
