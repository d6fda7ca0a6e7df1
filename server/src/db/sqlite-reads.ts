import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { DB } from './schema';

/**
 * The embedded database's hot reads, run on better-sqlite3 directly and remembered until the
 * database changes.
 *
 * Why: every signed-in request reads its session, the device check and the session row. Through
 * Kysely each read pays its connection mutex and promise chain (~10 µs), and each SQLite read
 * transaction takes and drops a lock on the WAL index with two fcntl system calls (~5–15 µs on
 * these virtual machines): together most of a small API answer's cost.
 *
 * Never stale: a remembered answer is used only while the database is provably unchanged —
 *  - by this process: every run of a statement that writes bumps a counter (the statement cache
 *    below sees every statement Kysely runs);
 *  - by any other process on the same file (the `voltas` CLI granting a role, a second server):
 *    SQLite's `PRAGMA data_version` changes when another connection commits. It is read at most
 *    once per turn of the event loop (reading it is itself a read transaction): every request
 *    answered in one turn arrived before that turn's first read, so none can have been sent
 *    after a change it does not see.
 * While a transaction is open on the connection (a Kysely transaction spans awaits), reads go
 * the usual way and wait for it, as before: no request sees another's uncommitted writes, and
 * what was remembered before it is stale after its COMMIT or ROLLBACK (its writes were counted).
 * PostgreSQL has no such cheap change marker; there every read goes to the server.
 */
export interface SqliteReads {
  /** Rows of a read-only statement, remembered per (sql, values); undefined inside a transaction. */
  all(sql: string, parameters: readonly unknown[]): readonly unknown[] | undefined;
}

const registry = new WeakMap<Kysely<DB>, SqliteReads>();

export function registerSqliteReads(db: Kysely<DB>, reads: SqliteReads): void {
  registry.set(db, reads);
}

/** The direct path for this Kysely instance: only the embedded database's root instance has one. */
export function sqliteReadsOf(db: Kysely<DB>): SqliteReads | undefined {
  return registry.get(db);
}

/** Answers remembered per statement: the most recent, for the riders active now. */
const MAX_REMEMBERED = 1000;

/** One key per list of values: length-prefixed, so no two lists share one, whatever they hold. */
function valuesKey(values: readonly unknown[]): string {
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  let key = '';
  for (const v of values) key += typeof v === 'string' ? `${v.length}:${v}|` : `${typeof v}:${String(v)}|`;
  return key;
}

/**
 * Wraps better-sqlite3 for Kysely: statements prepared once and reused (Kysely's driver prepares
 * every query anew, and preparing costs more than running our small queries), writes counted,
 * and the direct, remembered reads above.
 */
export function sqliteAccess(sqlite: SQLite.Database, maxStatements = 500) {
  const cache = new Map<string, SQLite.Statement>();
  let writes = 0;
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let sampledVersion: number | undefined;
  const forgetSample = () => (sampledVersion = undefined);
  const otherWriters = () => {
    if (sampledVersion === undefined) {
      sampledVersion = dataVersion.get() as number;
      setImmediate(forgetSample);
    }
    return sampledVersion;
  };

  const prepare = (sql: string): SQLite.Statement => {
    let stmt = cache.get(sql);
    if (stmt) {
      // Most recently used last (Map keeps insertion order).
      cache.delete(sql);
    } else {
      stmt = sqlite.prepare(sql);
      if (!stmt.readonly) stmt = counted(stmt);
      if (cache.size >= maxStatements) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, stmt);
    return stmt;
  };

  /** A writing statement: every run counts as a change (also one that throws: counting is safe). */
  function counted(stmt: SQLite.Statement): SQLite.Statement {
    return new Proxy(stmt, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (key !== 'run' && key !== 'all' && key !== 'get' && key !== 'iterate') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => {
          try {
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          } finally {
            writes++;
          }
        };
      },
    });
  }

  type Entry = { writes: number; version: number; rows: readonly unknown[] };
  // Per statement (the SQL string of a prepared query is the same object every time, its hash
  // computed once), then per list of values.
  const remembered = new Map<string, Map<string, Entry>>();
  const reads: SqliteReads = {
    all(sql, parameters) {
      if (sqlite.inTransaction) return undefined;
      const version = otherWriters();
      const key = valuesKey(parameters);
      const hit = remembered.get(sql)?.get(key);
      if (hit && hit.writes === writes && hit.version === version) return hit.rows;
      const stmt = prepare(sql);
      // A statement that writes (an INSERT … RETURNING) takes the usual way, remembered by no one.
      if (!stmt.readonly) return undefined;
      const rows = Object.freeze((stmt.all(...parameters) as object[]).map((r) => Object.freeze(r)));
      let bySql = remembered.get(sql);
      if (!bySql) remembered.set(sql, (bySql = new Map()));
      if (hit) bySql.delete(key);
      else if (bySql.size >= MAX_REMEMBERED) bySql.delete(bySql.keys().next().value!);
      bySql.set(key, { writes, version, rows });
      return rows;
    },
  };

  return {
    /** The `database` Kysely's SqliteDialect takes. */
    database: {
      close: () => {
        cache.clear();
        remembered.clear();
        sqlite.close();
      },
      prepare,
    },
    reads,
  };
}
