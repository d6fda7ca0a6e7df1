// Bringing the database schema up to date, at every start of the server and of the CLI; a new
// migration is imported and added to the list below. The readiness check asks what is pending.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-lap-sessions';
import * as m0003 from './migrations/0003-audit-log';
import * as m0004 from './migrations/0004-session-line-counts';
import * as m0005 from './migrations/0005-rate-limits';
import * as m0006 from './migrations/0006-tracks';
import * as m0007 from './migrations/0007-track-sectors';
import * as m0008 from './migrations/0008-imports';
import * as m0009 from './migrations/0009-own-sessions-index';
import * as m0010 from './migrations/0010-progress-and-shares';
import * as m0011 from './migrations/0011-session-ideal-lap';
import * as m0012 from './migrations/0012-track-owners';
import * as m0013 from './migrations/0013-figures-version';
import * as m0014 from './migrations/0014-video-syncs';
import * as m0015 from './migrations/0015-user-preferences';
import * as m0016 from './migrations/0016-orphan-video-syncs';
import * as m0017 from './migrations/0017-share-names';
import * as m0018 from './migrations/0018-session-gate';
import * as m0019 from './migrations/0019-session-storage';
import * as m0020 from './migrations/0020-device-fleet';
import * as m0021 from './migrations/0021-rollout-halt-code';

/** Migrations listed in code (no directory scanning), so bundling and tsx behave the same. */
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-lap-sessions': m0002,
  '0003-audit-log': m0003,
  '0004-session-line-counts': m0004,
  '0005-rate-limits': m0005,
  '0006-tracks': m0006,
  '0007-track-sectors': m0007,
  '0008-imports': m0008,
  '0009-own-sessions-index': m0009,
  '0010-progress-and-shares': m0010,
  '0011-session-ideal-lap': m0011,
  '0012-track-owners': m0012,
  '0013-figures-version': m0013,
  '0014-video-syncs': m0014,
  '0015-user-preferences': m0015,
  '0016-orphan-video-syncs': m0016,
  '0017-share-names': m0017,
  '0018-session-gate': m0018,
  '0019-session-storage': m0019,
  '0020-device-fleet': m0020,
  '0021-rollout-halt-code': m0021,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are untyped by design
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
}

/** Migrations this code knows that the database has not run (readiness: none may be pending). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are untyped by design
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const all = await new Migrator({ db, provider }).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
