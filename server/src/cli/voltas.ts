// The `voltas` command line: starting the server and the operator's tasks (demo data, users' roles,
// devices and their tokens, imports, backup and restore, the device simulator).
import { parseArgs } from 'node:util';
import { isDdmmyyyy, isDeviceId } from '#core/formats/dates.ts';
import { createBlobStore } from '../blobs/create-blob-store';
import type { BlobStore } from '../blobs/blob-store';
import { loadConfig, ConfigError, type AppConfig } from '../config';
import { createDatabase, type Database } from '../db/create-db';
import { migrateToLatest } from '../db/migrate';
import { AppError } from '#core/errors.ts';
import { ExportFormatError } from '#core/formats/firebase-export.ts';
import { SecretBox } from '../lib/secret-box';
import { createServices, type Infra, type Services } from '../services';
import { backup, BackupError, restore } from './backup';
import { loadDemo } from '../modules/demo/demo.service';
import { formatImportReport, importFirebase, ImportError } from '../modules/firebase-import/firebase-import.service';
import { simulate, today } from './simulate';
import { importSessionsCommand } from './import-sessions';
import { firmwareCommand, FIRMWARE_USAGE } from './firmware';
import { fleetCommand, FLEET_USAGE } from './fleet';
import { publicKeyFromRaw } from '../lib/firmware-signing';

const USAGE = `Usage: voltas <command>

  serve                                    start the server
  demo [--if-empty]                        load the demo accounts (an admin among them), devices and sessions
                                           (--if-empty: only into a data dir nobody has used yet)
  user role <email> --adm|--seller|--none  change a user's roles
  device add <id> [--owner e] [--seller e] register a device (12 digits); prints its token once, on the last line
  device token <id>                        rotate a device's token; prints the new one on the last line
  device owner <id> --owner e              give a device to another user; its token is replaced (the new one on the last line)
  import-firebase --firestore <export.json> [--storage <dir>]
                                           move an existing installation over: users (lapTime), devices (join)
                                           and the bucket's <device>/<track>/<ddmmyyyy>/{lap,gps}.six files;
                                           prints counts and every skipped item; running it twice changes nothing
  backup <dir>                             copy the database (SQLite online backup), blobs and secret key into a new folder
                                           (PostgreSQL / S3: prints the pg_dump and sync commands to use)
  restore <dir> [--force]                  restore such a backup into DATA_DIR (empty, or replaced with --force)
  import <file…> --owner <email> [--track NAME]
                                           import a rider's sessions from other loggers (GPX, RaceChrono CSV, VBO, AiM CSV,
                                           NMEA, SpeedAngle .sa, TrackAddict CSV, gps.six then lap.six, or .gz of one); a line per file
  simulate --server URL --device ID --token T [--track Interlagos] [--date ddmmyyyy] [--seed N] [--hz 10|25]
                                           upload a generated session through the device API
${FLEET_USAGE}
${FIRMWARE_USAGE}
`;

/** Entry point of `npx voltas`; returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve': {
        if (rest.length > 0) {
          // The demo admin is created only by the demo command, never as a side effect of starting.
          process.stderr.write(
            `serve takes no options${rest.includes('--demo') ? ': load demo data with "voltas demo --if-empty" first' : ''}\n`,
          );
          return 2;
        }
        const { main } = await import('../main');
        await main();
        return 0;
      }
      case 'demo': {
        const { values } = parseArgs({ args: rest, options: { 'if-empty': { type: 'boolean', default: false } } });
        const report = await withServices(({ receiver }, { database, blobs }, config) =>
          loadDemo(
            { db: database.db, blobs, receiver },
            { onlyIfEmpty: values['if-empty'], companyAccount: config.companyAccount },
          ),
        );
        process.stdout.write(`${report}\n`);
        return 0;
      }
      case 'user':
        return await userCommand(rest);
      case 'device':
        return await deviceCommand(rest);
      case 'simulate':
        return await simulateCommand(rest);
      case 'firmware':
        return await firmwareCommand(rest);
      case 'import':
        return await importSessionsCommand(rest, withServices);
      case 'import-firebase':
        return await importCommand(rest);
      case 'backup':
      case 'restore':
        return await backupCommand(command, rest);
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

async function withDb<T>(work: (database: Database, blobs: BlobStore, config: AppConfig) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(database.db);
    return await work(database, createBlobStore(config), config);
  } finally {
    await database.close();
  }
}

/** The services over the configured database and blob store, for an operator's command; closed after `work`. */
function withServices<T>(work: (services: Services, infra: Infra, config: AppConfig) => Promise<T>): Promise<T> {
  return withDb(async (database, blobs, config) => {
    const services = createServices(config, { database, blobs }, { operator: true });
    try {
      return await work(services, { database, blobs }, config);
    } finally {
      await services.close();
    }
  });
}

async function deviceCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { owner: { type: 'string' }, seller: { type: 'string' } },
  });
  const [sub, id] = positionals;
  if ((sub !== 'add' && sub !== 'token' && sub !== 'owner') || !id || (sub === 'owner' && !values.owner)) {
    process.stderr.write(
      'Usage: voltas device add <id> [--owner e] [--seller e] | voltas device token <id> | voltas device owner <id> --owner e\n',
    );
    return 2;
  }
  if (!isDeviceId(id)) {
    process.stderr.write(`Invalid device id "${id}": 12 digits, e.g. 000000000042\n`);
    return 2;
  }
  return withServices(async ({ admin }, _infra, config) => {
    try {
      if (sub === 'add') {
        const owner = values.owner?.trim().toLowerCase();
        const seller = values.seller?.trim().toLowerCase();
        for (const email of [owner, seller]) {
          if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
            process.stderr.write(`Invalid e-mail "${email}"\n`);
            return 2;
          }
        }
        const token = await admin.registerDevice('cli', { id, owner, seller });
        process.stdout.write(
          `Device ${id} registered (owner ${owner ?? config.companyAccount}${seller ? `, seller ${seller}` : ''}). Its upload token, shown only now:\n${token}\n`,
        );
        return 0;
      }
      if (sub === 'owner') {
        const owner = values.owner!.trim().toLowerCase();
        const token = await admin.assignOwner('cli', owner, id, { createUser: true });
        process.stdout.write(
          token
            ? `Device ${id} now belongs to ${owner}; the previous owner's token no longer works. Its new upload token, shown only now:\n${token}\n`
            : `Device ${id} already belongs to ${owner}; its token is unchanged.\n`,
        );
        return 0;
      }
      const token = await admin.rotateToken('cli', id);
      process.stdout.write(`New token for device ${id} (the old one no longer works), shown only now:\n${token}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      process.stderr.write(
        `${err.message}${sub === 'add' && err.code === 'storage/invalid-argument' ? ` Use "voltas device token ${id}" to rotate its token.` : ''}\n`,
      );
      return 1;
    }
  });
}

async function backupCommand(command: 'backup' | 'restore', args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
  } catch {
    parsed = undefined;
  }
  const dir = parsed?.positionals[0];
  if (!parsed || !dir || parsed.positionals.length > 1 || (command === 'backup' && parsed.values.force)) {
    process.stderr.write(`Usage: voltas backup <dir> | voltas restore <dir> [--force]\n`);
    return 2;
  }
  try {
    let lines: string[];
    if (command === 'backup') {
      lines = await withDb((database, _blobs, config) => backup(config, database, dir));
    } else {
      const config = loadConfig();
      lines = await restore(
        config,
        dir,
        Boolean(parsed.values.force),
        () => createDatabase({ dataDir: config.dataDir }),
        () => createBlobStore(config),
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    process.stderr.write(`${command}: ${err.message}\n`);
    return 1;
  }
}

async function importCommand(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { firestore: { type: 'string' }, storage: { type: 'string' } } }));
  } catch {
    values = {};
  }
  if (!values.firestore) {
    process.stderr.write('Usage: voltas import-firebase --firestore <export.json> [--storage <dir>]\n');
    return 2;
  }
  const input = { firestore: values.firestore, storage: values.storage };
  return withServices(async ({ receiver }, { database }, config) => {
    try {
      const report = await importFirebase(
        {
          db: database.db,
          receiver,
          box: new SecretBox(config.secretKey),
          companyAccount: config.companyAccount,
        },
        input,
      );
      process.stdout.write(`${formatImportReport(report)}\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof ImportError || err instanceof ExportFormatError)) throw err;
      process.stderr.write(`import-firebase: ${err.message}; nothing was imported.\n`);
      return 1;
    }
  });
}

/** `simulate --fleet N`: registers the fleet's devices here (a new token each), then runs them against --server. */
function simulateFleet(args: string[]): Promise<number> {
  const config = loadConfig();
  return fleetCommand(args, {
    keys: config.firmwarePublicKeys.map(publicKeyFromRaw),
    today: today(),
    register: (ids, owner) =>
      withServices(async ({ admin }) => {
        const devices = [];
        for (const id of ids) {
          let token: string;
          try {
            token = await admin.registerDevice('cli', { id, owner: owner?.toLowerCase() });
          } catch (err) {
            // Registered by an earlier run: a new token, as the simulator holds none.
            if (!(err instanceof AppError)) throw err;
            token = await admin.rotateToken('cli', id);
          }
          devices.push({ id, token });
        }
        return devices;
      }),
  });
}

async function simulateCommand(args: string[]): Promise<number> {
  if (args.includes('--fleet')) return simulateFleet(args);
  const { values } = parseArgs({
    args,
    options: {
      server: { type: 'string' },
      device: { type: 'string' },
      token: { type: 'string' },
      track: { type: 'string', default: 'Interlagos' },
      date: { type: 'string' },
      seed: { type: 'string', default: '1' },
      hz: { type: 'string', default: '10' },
    },
  });
  const date = values.date ?? today();
  if (
    !values.server ||
    !values.device ||
    !values.token ||
    !isDdmmyyyy(date) ||
    (values.hz !== '10' && values.hz !== '25')
  ) {
    process.stderr.write(
      'Usage: voltas simulate --server URL --device ID --token T [--track Interlagos] [--date ddmmyyyy] [--seed N] [--hz 10|25]\n',
    );
    return 2;
  }
  const result = await simulate({
    server: values.server,
    device: values.device,
    token: values.token,
    track: values.track,
    date,
    seed: Number(values.seed) || 1,
    hz: values.hz === '25' ? 25 : 10,
  });
  const ok = result.lap.status === 200 && result.gps.status === 200;
  const unchanged = ok && [result.lap, result.gps].every((r) => /"unchanged":true/.test(r.body));
  process.stdout.write(
    `${ok ? (unchanged ? 'unchanged (the server already had these bytes)' : 'uploaded') : 'failed'}: ${result.laps} laps, ${result.samples} GPS samples (lap.six HTTP ${result.lap.status}, gps.six HTTP ${result.gps.status})\n`,
  );
  if (!ok) process.stderr.write(`${result.lap.status !== 200 ? result.lap.body : result.gps.body}\n`);
  return ok ? 0 : 1;
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
  const ok = await withServices(async ({ admin }) => {
    try {
      await admin.setRoles('cli', email, {
        adm: Boolean(values.adm),
        seller: Boolean(values.seller),
      });
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'storage/object-not-found') return false;
      throw err;
    }
  });
  if (!ok) {
    process.stderr.write(`No user ${email}: they must sign in once first.\n`);
    return 1;
  }
  const names = [values.adm && 'admin', values.seller && 'seller'].filter(Boolean).join(' + ') || 'rider';
  process.stdout.write(`${email} is now: ${names}\n`);
  return 0;
}
