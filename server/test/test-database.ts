import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The database the repository and integration tests run on. `npm test` runs them twice: on a
 * fresh SQLite file (this returns undefined) and on the PostgreSQL server scripts/test.mjs
 * starts, whose superuser URL arrives in VOLTAS_TEST_PG_URL. Each call creates an empty
 * database there, so tests never share state.
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  const admin = process.env.VOLTAS_TEST_PG_URL;
  if (!admin) return undefined;
  const name = `voltas_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

export const onPostgres = Boolean(process.env.VOLTAS_TEST_PG_URL);
