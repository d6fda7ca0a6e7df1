// Signed firmware and its rollouts (issue 61): the admin registers a manifest signed off the server,
// uploads the image it names, and rolls it out to cohorts and a percentage; devices are offered it at
// check-in, fetch it by ranges, and report each step. A rollout whose failures pass its threshold
// halts itself, for everyone, at once.
import type { Kysely } from 'kysely';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { createFirmwareImages } from './firmware-images.service';
import { createFirmwareOffers } from './firmware-offers.service';
import { createFirmwareRollouts } from './firmware-rollouts.service';

/** One face over images (firmware-images), rollouts (firmware-rollouts) and devices' offers (firmware-offers). */
export function createFirmwareService(deps: { db: Kysely<DB>; blobs: BlobStore; publicKeys: string[] }) {
  const { judge, finishIfComplete, ...rollouts } = createFirmwareRollouts(deps);
  return {
    ...createFirmwareImages(deps),
    ...rollouts,
    ...createFirmwareOffers({ ...deps, judge, finishIfComplete }),
  };
}

export type FirmwareService = ReturnType<typeof createFirmwareService>;
