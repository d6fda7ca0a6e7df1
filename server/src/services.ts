// Every service of the server, built once from the config and the infrastructure (database, blob
// store): the app hands them to its routes and jobs, and the `voltas` command calls the same ones.
import type { BlobStore } from './blobs/blob-store';
import type { AppConfig } from './config';
import type { Database } from './db/create-db';
import { SecretBox } from './lib/secret-box';
import { loadTracks } from './lib/track-files';
import { createAdminService } from './modules/admin/admin.service';
import { createAuthSessionStore } from './modules/auth/auth-sessions.service';
import { createDevicesService } from './modules/devices/devices.service';
import { createFirmwareService } from './modules/firmware/firmware.service';
import { createHealthService } from './modules/health/health.service';
import type { ImportLimits } from './modules/imports/import-worker';
import { createImportsService } from './modules/imports/imports.service';
import type { SessionBounds } from './modules/imports/session-merge';
import { createProgressService } from './modules/progress/progress.service';
import { createSellerService } from './modules/seller/seller.service';
import { createSessionEvents } from './modules/sessions/session-events.service';
import { createSessionReader } from './modules/sessions/session-reader.service';
import { createSessionReceiver } from './modules/sessions/session-receiver.service';
import { createSharesService } from './modules/shares/shares.service';
import { createStorageService } from './modules/storage/storage.service';
import { trackCatalogue } from './modules/tracks/track-catalogue';
import { createTrackPack } from './modules/tracks/track-pack.service';
import { createTracksService } from './modules/tracks/tracks.service';
import { createUsersService } from './modules/users/users.service';
import { createVideosService } from './modules/videos/videos.service';
import { trackRules } from './plugins/policy';

/** What the services stand on, chosen from the config by the app or the command. */
export interface Infra {
  database: Database;
  blobs: BlobStore;
}

export interface ServiceOptions {
  /** Import limits: size, inflation, a reading worker's memory and time, a session's files and fixes (tests make them small). */
  imports?: Partial<ImportLimits & SessionBounds>;
  /** An operator's command: no rider's storage quota on what it imports. */
  operator?: boolean;
}

/** Builds every service once; `close` lets work in flight finish (imports, received files) and stops listening for events. */
export function createServices(config: AppConfig, infra: Infra, options: ServiceOptions = {}) {
  const { blobs } = infra;
  const { db, coordination } = infra.database;
  const { companyAccount, publicUrl, secretKey } = config;
  const events = createSessionEvents(coordination);
  const receiver = createSessionReceiver({ db, blobs, coordination, events });
  const reader = createSessionReader({ db, blobs });
  const tracks = createTracksService({
    db,
    reader,
    catalogue: trackCatalogue,
    bundled: loadTracks(),
    rules: trackRules,
  });
  const imports = createImportsService({
    db,
    blobs,
    receiver,
    tracks,
    coordination,
    ...(options.operator ? {} : { quotaBytes: config.riderQuotaBytes }),
    ...(options.imports ? { limits: options.imports, bounds: options.imports } : {}),
  });
  const shares = createSharesService({ db, reader, tracks, publicUrl, secretKey });
  return {
    events,
    receiver,
    reader,
    tracks,
    imports,
    shares,
    users: createUsersService(db, new SecretBox(secretKey)),
    devices: createDevicesService(db),
    authSessions: createAuthSessionStore(db),
    health: createHealthService({ db, blobs }),
    storage: createStorageService({ db, blobs, bucket: config.s3?.bucket ?? 'voltas' }),
    videos: createVideosService({ db, reader, coordination }),
    progress: createProgressService({ reader, tracks, shares }),
    admin: createAdminService({ db, companyAccount, coordination }),
    seller: createSellerService({ db, companyAccount }),
    firmware: createFirmwareService({ db, blobs, publicKeys: config.firmwarePublicKeys }),
    trackPack: createTrackPack({ db, catalogue: trackCatalogue }),

    async close() {
      await imports.close();
      await receiver.drain();
      events.stop();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
