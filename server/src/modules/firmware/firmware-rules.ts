// The rules of firmware and its rollouts that need no database: the steps a device goes through,
// where an image is kept and fetched, versions, percentages, cohorts, and a manifest's reading.
import { createHash } from 'node:crypto';
import { firmwareManifestSchema } from '#core/contracts/firmware.contract.ts';
import { AppError } from '#core/errors.ts';

/** Below this battery (per cent, not charging) a device is not offered an image unless the rollout says otherwise. */
export const DEFAULT_MIN_BATTERY_PCT = 30;
export const TERMINAL_STEPS = new Set(['confirmed', 'failed', 'rolled-back']);
export const FAILED_STEPS = new Set(['failed', 'rolled-back']);
/** Steps in the order a device goes through them; a report may not go back (a replayed report changes nothing). */
export const STEP_ORDER = ['offered', 'downloading', 'downloaded', 'installing', 'rebooted', 'confirmed'];

export const firmwareBlobKey = (f: { class: string; seq: number; sha256: string }) =>
  `firmware/${f.class}/${f.seq}-${f.sha256.slice(0, 16)}.bin`;

/** Where a device fetches a rollout's image: the rollout names it, so only its offer opens it. */
export const firmwareUrl = (rolloutId: string) => `/api/device/v1/firmware/${rolloutId}/image`;

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

export function parseManifest(manifest: string) {
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

export function cohortMatches(cohorts: string[], facts: { cohort: string; sellers: string[] }): boolean {
  return cohorts.some(
    (c) =>
      c === 'all' ||
      (c === facts.cohort && c !== '') ||
      (c.startsWith('seller:') && facts.sellers.includes(c.slice('seller:'.length))),
  );
}
