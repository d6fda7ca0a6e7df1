// A read that every request makes, built and compiled once: Kysely builds and compiles a query
// again on each call, which costs a small read about as much as running it.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Marks where a named value goes in the query as built; no real value starts with a NUL. */
const MARK = '\u0000';

/**
 * `build` makes the query once per database, with a marker in place of each named value (to be
 * used as a value, as is); each call runs the compiled query with the values given, in their
 * places. For the reads on every request's path: the sign-in, the device check, the session row.
 */
export function compiledOnce<DB, Name extends string, Row>(
  names: readonly Name[],
  build: (db: Kysely<DB>, values: Record<Name, string>) => Compilable<Row>,
): (db: Kysely<DB>, values: Record<Name, string>) => Promise<Row[]> {
  const markers = Object.fromEntries(names.map((n) => [n, `${MARK}${n}`])) as Record<Name, string>;
  const compiled = new WeakMap<Kysely<DB>, CompiledQuery<Row>>();
  const compile = (db: Kysely<DB>): CompiledQuery<Row> => {
    const query = build(db, markers).compile();
    const marked = Object.values<string>(markers);
    const used = query.parameters.filter((p) => typeof p === 'string' && p.includes(MARK));
    if (!used.every((p) => marked.includes(p as string)) || !marked.every((m) => used.includes(m)))
      throw new Error(`compiledOnce: each of ${names.join(', ')} must be a value of the query, as is`);
    return query;
  };
  return async (db, values) => {
    let query = compiled.get(db);
    if (!query) compiled.set(db, (query = compile(db)));
    const parameters = query.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? values[p.slice(MARK.length) as Name] : p,
    );
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
