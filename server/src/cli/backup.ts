import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { restrictToOwner } from '../lib/owner-only';
import type { AppConfig } from '../config';
import type { BlobStore } from '../blobs/blob-store';
import type { Database } from '../db/create-db';
import { migrateToLatest } from '../db/migrate';
import { createServices } from '../services';
import { nowIso } from '../lib/tokens';

/**
 * `voltas backup <dir>` and `voltas restore <dir>`. The embedded setup backs up completely: the
 * SQLite database through SQLite's online backup (consistent while the server runs), the blob
 * files, and the generated secret key (without it, Wi-Fi passwords cannot be read back). For
 * PostgreSQL and S3 the tools of those systems do it better; the commands say which.
 */
export class BackupError extends Error {}

const MANIFEST = 'voltas-backup.json';
const DB_FILE = 'voltas.sqlite';

interface Manifest {
  format: 1;
  createdAt: string;
  database: 'sqlite' | 'postgres';
  blobs: 'filesystem' | 's3';
  blobFiles: number;
  secretKey: 'included' | 'from SECRET_KEY';
}

async function copyTree(from: string, to: string, skip: (name: string) => boolean): Promise<number> {
  let files = 0;
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) files += await copyTree(src, dst, skip);
    else if (entry.isFile()) {
      await fs.copyFile(src, dst);
      files++;
    }
  }
  return files;
}

/** Returns the lines to print. */
export async function backup(config: AppConfig, database: Database, dir: string): Promise<string[]> {
  const target = path.resolve(dir);
  if (existsSync(target) && (await fs.readdir(target)).length > 0)
    throw new BackupError(`${target} is not empty: give a new or empty folder`);
  await fs.mkdir(target, { recursive: true, mode: 0o700 });
  const lines: string[] = [];
  const manifest: Manifest = {
    format: 1,
    createdAt: nowIso(),
    database: database.dialect,
    blobs: config.s3 ? 's3' : 'filesystem',
    blobFiles: 0,
    secretKey: 'from SECRET_KEY',
  };
  // The database first: blobs copied after it hold every version it points at (or newer ones,
  // which restore re-indexes).
  if (database.backupTo) {
    await database.backupTo(path.join(target, DB_FILE));
    lines.push(`database: ${DB_FILE} (SQLite online backup)`);
  } else {
    lines.push(
      'database: PostgreSQL — back it up with its own tool, for example:',
      `  pg_dump --format=custom --file=${path.join(target, 'voltas.pgdump')} "$DATABASE_URL"`,
      `  (restore: pg_restore --clean --if-exists --dbname="$DATABASE_URL" ${path.join(target, 'voltas.pgdump')})`,
    );
  }
  if (config.s3) {
    lines.push(
      `blobs: S3 bucket ${config.s3.bucket} — copy it with the store's tools, for example:`,
      `  aws s3 sync s3://${config.s3.bucket} ${path.join(target, 'blobs')}${config.s3.endpoint ? ` --endpoint-url ${config.s3.endpoint}` : ''}`,
      '  (or turn on bucket versioning, which keeps every overwritten file)',
    );
  } else {
    const blobsDir = path.join(config.dataDir, 'blobs');
    manifest.blobFiles = existsSync(blobsDir)
      ? await copyTree(blobsDir, path.join(target, 'blobs'), (name) => name === '.tmp')
      : 0;
    lines.push(`blobs: ${manifest.blobFiles} files`);
  }
  const keyFile = path.join(config.dataDir, 'secret.key');
  if (existsSync(keyFile) && (await fs.readFile(keyFile, 'utf8')).trim() === config.secretKey) {
    await fs.copyFile(keyFile, path.join(target, 'secret.key'));
    await fs.chmod(path.join(target, 'secret.key'), 0o600);
    manifest.secretKey = 'included';
    lines.push('secret key: included (keep this backup as private as the server)');
  } else {
    lines.push(
      'secret key: SECRET_KEY comes from the environment — keep it with this backup, or Wi-Fi passwords cannot be read back',
    );
  }
  await fs.writeFile(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  await restrictToOwner(target);
  lines.unshift(`backup written to ${target}`);
  return lines;
}

/**
 * Restores a backup of the embedded setup into an empty DATA_DIR (or over one with --force), then
 * re-indexes every session whose blob is newer than the database copy (the blob copy ran after it).
 */
export async function restore(
  config: AppConfig,
  dir: string,
  force: boolean,
  open: () => Database,
  blobs: () => BlobStore,
): Promise<string[]> {
  const source = path.resolve(dir);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(source, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${source} holds no ${MANIFEST}: not a Voltas backup`);
  }
  if (manifest.format !== 1) throw new BackupError(`unknown backup format ${String(manifest.format)}`);
  if (manifest.database !== 'sqlite' || config.databaseUrl)
    throw new BackupError(
      "this command restores the embedded SQLite setup; for PostgreSQL use pg_restore (see the backup's instructions)",
    );
  if (config.s3)
    throw new BackupError(
      "S3_BUCKET is set: copy the blobs back with the store's tools, and restore the database with pg_restore or into a SQLite DATA_DIR without S3_BUCKET",
    );
  if (!existsSync(path.join(source, DB_FILE))) throw new BackupError(`${source} has no ${DB_FILE}`);
  const dbFile = path.join(config.dataDir, DB_FILE);
  if (existsSync(dbFile) && !force)
    throw new BackupError(
      `${config.dataDir} already holds a database: restore into an empty DATA_DIR, or add --force to replace it`,
    );
  await fs.mkdir(config.dataDir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) await fs.rm(dbFile + suffix, { force: true });
  await fs.copyFile(path.join(source, DB_FILE), dbFile);
  const blobsDir = path.join(config.dataDir, 'blobs');
  if (force) await fs.rm(blobsDir, { recursive: true, force: true });
  const files = existsSync(path.join(source, 'blobs'))
    ? await copyTree(path.join(source, 'blobs'), blobsDir, () => false)
    : 0;
  if (manifest.secretKey === 'included')
    await fs.copyFile(path.join(source, 'secret.key'), path.join(config.dataDir, 'secret.key'));
  await restrictToOwner(config.dataDir);
  // Sessions whose blob changed after the database copy: recorded as interrupted uploads, which
  // recovery indexes from the blob (the same path as after a crash).
  const database = open();
  const store = blobs();
  let reindexed = 0;
  try {
    await migrateToLatest(database.db); // a backup from an older version
    const services = createServices(config, { database, blobs: store }, { operator: true });
    try {
      reindexed = await services.receiver.reindexBlobsNewerThanIndex();
    } finally {
      await services.close();
    }
  } finally {
    await database.close();
  }
  return [
    `restored ${source} into ${config.dataDir}`,
    `database: ${DB_FILE}; blobs: ${files} files; secret key: ${manifest.secretKey === 'included' ? 'restored' : 'set SECRET_KEY as when the backup was made'}`,
    ...(reindexed ? [`re-indexed ${reindexed} files written after the database copy`] : []),
  ];
}
