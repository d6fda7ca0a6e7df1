import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema';
import { sqliteReadsOf } from './sqlite-reads';

/**
 * A hot query built and compiled once per database, then run with new values. Kysely builds and
 * compiles a query tree on every call (~20 µs here), several times what SQLite takes to run a
 * point lookup (~4 µs); the requests every screen makes (session cookie, device check, the
 * session row) pay that three times over. Same SQL on both dialects: only the bound values change.
 *
 * `build` declares its string arguments (its arity counts them) and gets a placeholder for each,
 * which it must pass on as a bound value (a `where` operand, not an identifier or a `limit`); it
 * may use one more than once or not at all. Cached per Kysely instance (a transaction is its own).
 *
 * On the embedded database the query must only read, and depend on nothing but the data and its
 * values (no `current_timestamp`, no `random()`): it runs on better-sqlite3 directly and its
 * rows (frozen) are remembered until the database changes (see sqlite-reads.ts).
 */
export function preparedQuery<A extends string[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>) {
  const compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<R>; slots: number[] }>();
  const prepare = (db: Kysely<DB>) => {
    const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `\u0000voltas-arg-${i}\u0000`);
    const query = build(db, ...(placeholders as A)).compile();
    // For each bound value, the argument it stands for (-1: a constant of the query).
    const slots = query.parameters.map((p) => placeholders.indexOf(p as string));
    const entry = { query, slots };
    compiled.set(db, entry);
    return entry;
  };
  return {
    async all(db: Kysely<DB>, ...args: A): Promise<readonly R[]> {
      const { query, slots } = compiled.get(db) ?? prepare(db);
      const parameters = slots.map((slot, i) => (slot === -1 ? query.parameters[i] : args[slot]));
      const direct = sqliteReadsOf(db)?.all(query.sql, parameters);
      if (direct) return direct as readonly R[];
      return (await db.executeQuery<R>({ ...query, parameters })).rows;
    },
    async first(db: Kysely<DB>, ...args: A): Promise<R | undefined> {
      return (await this.all(db, ...args))[0];
    },
  };
}
