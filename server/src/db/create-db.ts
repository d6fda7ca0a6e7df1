// Opening the database: SQLite in DATA_DIR by default (one process), PostgreSQL when DATABASE_URL is
// set (several instances may share it), each with the matching locks and events (Coordination).
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { LruCache } from '../lib/lru';
import { inProcessCoordination, postgresCoordination, type Coordination } from './coordination';
import type { DB } from './schema';

type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Human description for start-up logs, without credentials. */
  description: string;
  /** Cross-instance locks and events (in-process on SQLite, PostgreSQL's own on PostgreSQL). */
  coordination: Coordination;
  /**
   * SQLite: a consistent copy of the live database into `file` (online backup, writers keep
   * going). PostgreSQL: undefined — pg_dump is the tool (see `voltas backup`).
   */
  backupTo?: (file: string) => Promise<void>;
  close(): Promise<void>;
}

/** Distinct statements kept prepared: every query the app makes, with room for `in (…)` lists of many lengths. */
const PREPARED_STATEMENTS = 500;

/**
 * better-sqlite3 with its statements prepared once (as its documentation advises): Kysely's SQLite
 * dialect prepares every query again, which cost the laps answer most of its throughput. Kysely runs
 * one query at a time on its one connection, so a statement is never in use twice at once.
 */
export function preparedOnce(sqlite: SQLite.Database, max = PREPARED_STATEMENTS): SqliteDatabase {
  const statements = new LruCache<string, SQLite.Statement>(max);
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)));
      return statement;
    },
  };
}

/** Chooses SQLite (embedded default, WAL) or PostgreSQL (DATABASE_URL). */
export function createDatabase(opts: {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL: connections kept at most (DATABASE_POOL_SIZE); 10 when not given. */
  poolSize?: number;
  onError?: (err: Error) => void;
  onQuery?: (seconds: number, ok: boolean) => void;
}): Database {
  const log = opts.onQuery
    ? (event: LogEvent) => opts.onQuery!(event.queryDurationMillis / 1000, event.level === 'query')
    : undefined;
  if (opts.databaseUrl) {
    // Connections that wait for a free client give up after 5 s (a 503, not a request hanging for
    // ever while PostgreSQL restarts); an idle client whose server went away is dropped, not fatal.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    pool.on('error', (err) => opts.onError?.(err));
    // The pool hears an error only from an idle client; one checked out (a transaction spanning
    // awaits) whose server went away would emit an unhandled 'error' and end the process. Its
    // query fails as well, and pg drops a client that is no longer queryable when it comes back.
    pool.on('connect', (client) => client.on('error', (err) => opts.onError?.(err)));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    const url = new URL(opts.databaseUrl);
    const coordination = postgresCoordination(opts.databaseUrl, opts.onError);
    return {
      db,
      dialect: 'postgres',
      description: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`,
      coordination,
      close: async () => {
        await coordination.close();
        await db.destroy();
      },
    };
  }
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(opts.dataDir, 'voltas.sqlite');
  const sqlite = new SQLite(file);
  // Owner only (its -wal and -shm files take the same mode from SQLite).
  chmodSync(file, 0o600);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: preparedOnce(sqlite) }),
    ...(log ? { log } : {}),
  });
  const coordination = inProcessCoordination();
  return {
    db,
    dialect: 'sqlite',
    description: `SQLite ${file}`,
    coordination,
    backupTo: async (target) => {
      await sqlite.backup(target);
    },
    close: async () => {
      await coordination.close();
      await db.destroy();
    },
  };
}
