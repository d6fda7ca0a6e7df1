import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../config';
import { createDatabase } from '../db/create-db';
import { migrateToLatest } from '../db/migrate';
import { setRoles } from '../modules/users/users.repository';
import { loadDemo } from './demo';

const USAGE = `Usage: voltas <command>

  serve [--demo]                         start the server (--demo: load demo data into an empty data dir)
  demo                                   load the demo accounts, devices and sessions
  user role <email> --adm|--seller|--none  change a user's roles
`;

/** Entry point of `npx voltas`; returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        const { values } = parseArgs({ args: rest, options: { demo: { type: 'boolean', default: false } } });
        if (values.demo) await withDb((db) => loadDemo(db, { onlyIfEmpty: true }));
        const { main } = await import('../main');
        await main();
        return 0;
      }
      case 'demo': {
        const report = await withDb((db) => loadDemo(db, { onlyIfEmpty: false }));
        process.stdout.write(`${report}\n`);
        return 0;
      }
      case 'user':
        return await userCommand(rest);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(USAGE);
        return command === undefined ? 1 : 0;
      default:
        process.stderr.write(`Unknown command: ${command}\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

async function withDb<T>(work: (db: import('kysely').Kysely<import('../db/schema').DB>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database.db);
    return await work(database.db);
  } finally {
    await database.close();
  }
}

async function userCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { adm: { type: 'boolean' }, seller: { type: 'boolean' }, none: { type: 'boolean' } },
  });
  const [sub, emailArg] = positionals;
  const chosen = [values.adm, values.seller, values.none].filter(Boolean).length;
  if (sub !== 'role' || !emailArg || chosen === 0 || (values.none && chosen > 1)) {
    process.stderr.write('Usage: voltas user role <email> --adm|--seller|--none\n');
    return 2;
  }
  const email = emailArg.trim().toLowerCase();
  const roles = { adm: values.adm ? '1' : '', seller: values.seller ? '1' : '' };
  const ok = await withDb((db) => setRoles(db, email, roles));
  if (!ok) {
    process.stderr.write(`No user ${email}: they must sign in once first.\n`);
    return 1;
  }
  const names = [values.adm && 'admin', values.seller && 'seller'].filter(Boolean).join(' + ') || 'rider';
  process.stdout.write(`${email} is now: ${names}\n`);
  return 0;
}
