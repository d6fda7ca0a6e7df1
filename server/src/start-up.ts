// What the server does before it serves: open the database (migrated) and the blob store
// (measured), then the start-up chores that leave both consistent.
import type { BlobStore } from './blobs/blob-store';
import { createBlobStore } from './blobs/create-blob-store';
import { measuredBlobStore } from './blobs/measured-blob-store';
import type { AppConfig } from './config';
import { createDatabase, type Database } from './db/create-db';
import { migrateToLatest } from './db/migrate';
import type { Metrics } from './lib/metrics';
import type { Infra, Services } from './services';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: unknown, msg: string): void;
}

/** The database (given, or from the config), migrated to the latest version, and the blob store, both measured. */
export async function openInfra(
  config: AppConfig,
  given: { database?: Database | undefined; blobs?: BlobStore | undefined },
  metrics: Metrics,
  log: Log,
): Promise<Infra> {
  const database =
    given.database ??
    createDatabase({
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      onError: (err) => log.error({ err }, 'database coordination'),
      onQuery: (seconds, ok) => metrics.dbQueryDuration.observe({ outcome: ok ? 'ok' : 'error' }, seconds),
    });
  await migrateToLatest(database.db);
  const blobs = measuredBlobStore(given.blobs ?? createBlobStore(config), {
    observe(operation, outcome, seconds) {
      metrics.blobDuration.observe({ operation, outcome }, seconds);
      if (outcome === 'error') metrics.blobErrors.inc({ operation });
    },
  });
  return { database, blobs };
}

/**
 * Wi-Fi passwords sealed the old way sealed again; listening for other instances' events before
 * serving, so none is missed; temp files of interrupted uploads removed.
 */
export async function runStartUpChores(services: Services, infra: Infra, log: Log): Promise<void> {
  const resealed = await services.users.upgradeSealedPasswords();
  await infra.database.coordination.ready();
  const sweptTemp = await infra.blobs.sweepTemp();
  if (resealed > 0) log.info({ users: resealed }, 'Wi-Fi passwords sealed again, bound to their owner');
  if (sweptTemp > 0) log.warn({ files: sweptTemp }, 'removed temp files of interrupted uploads');
}
