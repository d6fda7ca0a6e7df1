// `voltas import-firebase`: an installation of the Firebase-based product moved over from a Firestore
// export (users, devices) and a copy of its storage (session files); what it cannot take is reported.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { isDdmmyyyy, isValidTrackName } from '#core/formats/dates.ts';
import {
  parseFirebaseExport,
  type ExportProblem,
  type ExportedDevice,
  type ExportedUser,
} from '#core/formats/firebase-export.ts';
import { AppError } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { findDevice, insertImportedDevice, updateImportedDevice } from '../devices/devices.repository';
import { MAX_UPLOAD_BYTES, type SixKind } from '../sessions/session-files';
import type { SessionReceiver } from '../sessions/session-receiver.service';
import { ensureUser, findUser, insertImportedUser, updateImportedUser } from '../users/users.repository';

/** An export file larger than this is refused before reading (a Firestore export of users and devices is small). */
const MAX_EXPORT_BYTES = 256 * 1024 * 1024;
const SIX_KINDS: Record<string, SixKind> = { 'lap.six': 'lap', 'gps.six': 'gps' };

interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ImportReport {
  users: ImportCounts;
  devices: ImportCounts;
  files: { stored: number; unchanged: number };
  skipped: ExportProblem[];
  /** Devices created, or given a new owner (the old token revoked), without a token: each needs `voltas device token <id>` before it uploads. */
  devicesWithoutToken: string[];
}

const counts = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0 });

/**
 * Moves an existing installation over: users (lapTime), devices (join), then the storage
 * folder's lap.six and gps.six files, each through the same upload path as a device (so every
 * line is validated and indexed). Idempotent: a second run with the same input changes nothing.
 */
export async function importFirebase(
  deps: { db: Kysely<DB>; receiver: SessionReceiver; box: SecretBox; companyAccount: string },
  input: { firestore: string; storage?: string | undefined },
): Promise<ImportReport> {
  const { db, box } = deps;
  const stat = await fs.stat(input.firestore).catch(() => undefined);
  if (!stat?.isFile()) throw new ImportError(`--firestore ${input.firestore}: no such file`);
  if (stat.size > MAX_EXPORT_BYTES)
    throw new ImportError(
      `--firestore ${input.firestore}: ${stat.size} bytes, more than the ${MAX_EXPORT_BYTES} accepted`,
    );
  if (input.storage) {
    const dir = await fs.stat(input.storage).catch(() => undefined);
    if (!dir?.isDirectory()) throw new ImportError(`--storage ${input.storage}: no such directory`);
  }
  const exported = parseFirebaseExport(await fs.readFile(input.firestore, 'utf8'));
  const report: ImportReport = {
    users: counts(),
    devices: counts(),
    files: { stored: 0, unchanged: 0 },
    skipped: [...exported.skipped],
    devicesWithoutToken: [],
  };

  // Users first: devices and sessions name them.
  for (const user of exported.users) {
    report.users[await importUser(db, box, user)]++;
  }
  const byEmail = new Map(exported.users.map((u) => [u.email, u]));
  const devices = new Map(exported.devices.map((d) => [d.id, d]));
  // A device a user lists in `hardware` with no join document is theirs; one whose join document
  // names someone else keeps the join's owner (the device record is what the old app enforced).
  for (const user of exported.users) {
    for (const id of user.hardware) {
      const device = devices.get(id);
      if (!device) devices.set(id, { id, owner: user.email, seller: '', up: '', version: '', name: '' });
      else if (device.owner && device.owner !== user.email) {
        report.skipped.push({
          item: `lapTime/${user.email}`,
          reason: `hardware lists ${id}, but join/${id} names ${device.owner} as owner: kept ${device.owner}`,
        });
      } else if (!device.owner) device.owner = user.email;
    }
  }
  for (const device of [...devices.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    if (device.id === DEMO_DEVICE_ID) {
      report.skipped.push({
        item: `join/${device.id}`,
        reason: 'the demo device id; its sessions are the demonstration, not imported',
      });
      devices.delete(device.id);
      continue;
    }
    for (const email of [device.owner, device.seller]) {
      if (email && !byEmail.has(email) && !(await findUser(db, email))) {
        await ensureUser(db, email);
        report.users.created++;
      }
    }
    const { outcome, withoutToken } = await importDevice(db, device, deps.companyAccount);
    report.devices[outcome]++;
    if (withoutToken) report.devicesWithoutToken.push(device.id);
  }

  if (input.storage) await importFiles(deps, input.storage, report);
  return report;
}

export class ImportError extends Error {}

async function importUser(db: Kysely<DB>, box: SecretBox, u: ExportedUser): Promise<keyof ImportCounts> {
  return inTransaction(db, async (trx) => {
    const existing = await findUser(trx, u.email);
    const fields = {
      adm: u.adm,
      seller: u.seller,
      wifi: u.wifi,
      nome_piloto: u.nomePiloto,
      numero_moto: u.numeroMoto,
      user_seller: u.userSeller,
    };
    if (!existing) {
      await insertImportedUser(trx, { email: u.email, ...fields, senha_enc: box.seal(u.senha, u.email) });
      return 'created';
    }
    let senha: string | undefined;
    try {
      senha = box.open(existing.senha_enc, u.email);
    } catch {
      senha = undefined; // sealed with another key: replaced by the export's
    }
    const same =
      (Object.keys(fields) as (keyof typeof fields)[]).every((k) => existing[k] === fields[k]) && senha === u.senha;
    if (same) return 'unchanged';
    await updateImportedUser(trx, u.email, {
      ...fields,
      ...(senha === u.senha ? {} : { senha_enc: box.seal(u.senha, u.email) }),
    });
    return 'updated';
  });
}

/** What became of a device, and whether it is left without a token (new, or given to a new owner). */
async function importDevice(
  db: Kysely<DB>,
  d: ExportedDevice,
  companyAccount: string,
): Promise<{ outcome: keyof ImportCounts; withoutToken: boolean }> {
  // A device nobody owns is seller stock: the company account holds it, as when an admin registers one.
  const fields = {
    owner_email: d.owner || companyAccount,
    seller_email: d.seller,
    up: d.up,
    version: d.version,
    name: d.name,
  };
  const existing = await findDevice(db, d.id);
  if (!existing) {
    // No token: the old devices authenticated differently; `voltas device token <id>` issues one.
    await insertImportedDevice(db, { id: d.id, ...fields });
    return { outcome: 'created', withoutToken: true };
  }
  if ((Object.keys(fields) as (keyof typeof fields)[]).every((k) => existing[k] === fields[k]))
    return { outcome: 'unchanged', withoutToken: false };
  // A new owner never inherits the token the previous owner's device was loaded with.
  const ownerChanged = existing.owner_email !== fields.owner_email;
  await updateImportedDevice(db, d.id, fields, { revokeToken: ownerChanged });
  return { outcome: 'updated', withoutToken: ownerChanged };
}

/** Walks <storage>/<device id>/<track>/<ddmmyyyy>/{lap,gps}.six; anything else is reported, never followed. */
async function importFiles(
  deps: { db: Kysely<DB>; receiver: SessionReceiver },
  root: string,
  report: ImportReport,
): Promise<void> {
  const { receiver } = deps;
  const skip = (rel: string, reason: string) => report.skipped.push({ item: `storage/${rel}`, reason });
  const dirs = async (rel: string) => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  };
  try {
    for (const dev of await dirs('')) {
      if (!dev.isDirectory()) {
        skip(dev.name, dev.isSymbolicLink() ? 'a symbolic link: not followed' : 'not a device folder');
        continue;
      }
      if (dev.name === DEMO_DEVICE_ID) {
        skip(dev.name, 'the demo device id; its sessions are the demonstration, not imported');
        continue;
      }
      const device = /^\d{12}$/.test(dev.name) ? await findDevice(deps.db, dev.name) : undefined;
      if (!device) {
        skip(
          dev.name,
          /^\d{12}$/.test(dev.name)
            ? 'no such device in the join collection or any hardware list'
            : 'folder name is not a 12-digit device id',
        );
        continue;
      }
      for (const track of await dirs(dev.name)) {
        const trackRel = `${dev.name}/${track.name}`;
        if (!track.isDirectory()) {
          skip(trackRel, track.isSymbolicLink() ? 'a symbolic link: not followed' : 'not a track folder');
          continue;
        }
        if (!isValidTrackName(track.name)) {
          skip(trackRel, 'invalid track name (1-64 letters, digits, spaces, "-", "_" or ".")');
          continue;
        }
        for (const date of await dirs(trackRel)) {
          const dateRel = `${trackRel}/${date.name}`;
          if (!date.isDirectory() || !isDdmmyyyy(date.name)) {
            skip(dateRel, date.isSymbolicLink() ? 'a symbolic link: not followed' : 'not a ddmmyyyy date folder');
            continue;
          }
          for (const file of await dirs(dateRel)) {
            const fileRel = `${dateRel}/${file.name}`;
            const kind = SIX_KINDS[file.name];
            if (!kind || !file.isFile()) {
              skip(fileRel, file.isSymbolicLink() ? 'a symbolic link: not followed' : 'not lap.six or gps.six');
              continue;
            }
            const size = (await fs.stat(path.join(root, fileRel))).size;
            if (size > MAX_UPLOAD_BYTES[kind]) {
              skip(fileRel, `${size} bytes, more than the ${MAX_UPLOAD_BYTES[kind]} accepted for ${file.name}`);
              continue;
            }
            try {
              const body = await fs.readFile(path.join(root, fileRel));
              const res = await receiver.receive({
                deviceId: dev.name,
                owner: device.owner_email,
                track: track.name,
                date: date.name,
                kind,
                body,
              });
              if (res.unchanged) report.files.unchanged++;
              else report.files.stored++;
              if (res.warnings.length)
                skip(
                  fileRel,
                  `stored; ${res.warnings.length} line(s) not indexed, first: line ${res.warnings[0]!.line} (${res.warnings[0]!.reason})`,
                );
            } catch (err) {
              if (!(err instanceof AppError)) throw err;
              skip(fileRel, err.message);
            }
          }
        }
      }
    }
  } finally {
    await receiver.drain();
  }
}

/** The report as the CLI prints it. */
export function formatImportReport(r: ImportReport): string {
  const c = (x: ImportCounts) => `${x.created} created, ${x.updated} updated, ${x.unchanged} unchanged`;
  const lines = [
    `users: ${c(r.users)}`,
    `devices: ${c(r.devices)}`,
    `files: ${r.files.stored} stored, ${r.files.unchanged} unchanged`,
    `skipped: ${r.skipped.length}`,
    ...r.skipped.map((s) => `  ${s.item}: ${s.reason}`),
  ];
  if (r.devicesWithoutToken.length) {
    lines.push(
      `devices without an upload token yet (run "npx voltas device token <id>" for each): ${r.devicesWithoutToken.join(', ')}`,
    );
  }
  return lines.join('\n');
}
