import { PROFILE_LIMITS } from '../contracts/me.contract';

/**
 * The old installation's Firestore data, as exported to JSON: the `lapTime` collection (users,
 * keyed by e-mail) and the `join` collection (devices, keyed by id), each an object of documents
 * keyed by id with the spec's fields. The `__collections__` wrapper some export tools write is
 * accepted too. Pure: validates and normalizes, never touches a database; every document that
 * cannot be taken is reported with its reason.
 */
export interface ExportedUser {
  email: string;
  hardware: string[];
  adm: string;
  seller: string;
  wifi: string;
  senha: string;
  nomePiloto: string;
  numeroMoto: string;
  userSeller: string;
}

export interface ExportedDevice {
  id: string;
  owner: string;
  seller: string;
  up: string;
  version: string;
  name: string;
}

export interface ExportProblem {
  /** `lapTime/<id>` or `join/<id>`, or the file itself. */
  item: string;
  reason: string;
}

export interface FirebaseExport {
  users: ExportedUser[];
  devices: ExportedDevice[];
  skipped: ExportProblem[];
}

/** The spec's placeholder for "no device": not a real device to import. */
const PLACEHOLDER_HARDWARE = '000000000001';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DEVICE_ID = /^\d{12}$/;
const MAX_ID = 254;
const MAX_TEXT = 254;

export class ExportFormatError extends Error {}

type Doc = Record<string, unknown>;

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text fields: strings as they are, numbers and booleans as Firestore tools write them. */
function text(v: unknown, field: string, max: number): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    if (v.length > max) throw new Error(`${field} longer than ${max} characters`);
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(v)) throw new Error(`${field} holds control characters`);
    return v;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? '1' : '';
  throw new Error(`${field} is not text`);
}

function email(v: unknown, field: string): string {
  const s = text(v, field, MAX_TEXT).trim().toLowerCase();
  if (s !== '' && !EMAIL.test(s)) throw new Error(`${field} is not an e-mail address`);
  return s;
}

/** hardware: a list of ids, one id, ids separated by commas, or '' (the spec's new user). */
function hardware(v: unknown): string[] {
  const items = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  const ids = items
    .flatMap((x) => text(x, 'hardware', 4096).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of ids)
    if (!DEVICE_ID.test(id)) throw new Error(`hardware holds "${id.slice(0, 40)}", not a 12-digit device id`);
  return [...new Set(ids)].filter((id) => id !== PLACEHOLDER_HARDWARE).sort();
}

function collection(root: Doc, name: string): Doc | undefined {
  const wrapped = isObject(root.__collections__) ? root.__collections__ : undefined;
  const c = root[name] ?? wrapped?.[name];
  if (c === undefined) return undefined;
  if (!isObject(c)) throw new ExportFormatError(`"${name}" is not an object of documents keyed by id`);
  return c;
}

/** Parses the export's text. Throws ExportFormatError (nothing to import) when it is not one at all. */
export function parseFirebaseExport(json: string): FirebaseExport {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch (err) {
    throw new ExportFormatError(`not valid JSON (${(err as Error).message}); was the file cut short?`);
  }
  if (!isObject(root))
    throw new ExportFormatError('the export must be a JSON object with the "lapTime" and "join" collections');
  const lapTime = collection(root, 'lapTime');
  const join = collection(root, 'join');
  if (!lapTime && !join) throw new ExportFormatError('neither a "lapTime" nor a "join" collection is in the export');

  const skipped: ExportProblem[] = [];
  const users: ExportedUser[] = [];
  const seenUsers = new Set<string>();
  for (const [id, doc] of Object.entries(lapTime ?? {})) {
    const item = `lapTime/${id.slice(0, MAX_ID)}`;
    try {
      if (!isObject(doc)) throw new Error('not a document (object)');
      const key = id.trim().toLowerCase();
      if (!EMAIL.test(key) || key.length > MAX_ID) throw new Error('document id is not an e-mail address');
      if (seenUsers.has(key)) throw new Error('the same e-mail as another document (ids differ only in case)');
      const user: ExportedUser = {
        email: key,
        hardware: hardware(doc.hardware),
        adm: text(doc.adm, 'adm', 16).trim() === '1' ? '1' : '',
        seller: text(doc.seller, 'seller', MAX_TEXT).trim() ? '1' : '',
        wifi: text(doc.wifi, 'wifi', PROFILE_LIMITS.wifi),
        senha: text(doc.senha, 'senha', PROFILE_LIMITS.senha),
        nomePiloto: text(doc.nomePiloto, 'nomePiloto', PROFILE_LIMITS.nomePiloto).trim(),
        numeroMoto: text(doc.numeroMoto, 'numeroMoto', PROFILE_LIMITS.numeroMoto).trim(),
        userSeller: email(doc.userSeller, 'userSeller'),
      };
      seenUsers.add(key);
      users.push(user);
    } catch (err) {
      skipped.push({ item, reason: (err as Error).message });
    }
  }

  const devices: ExportedDevice[] = [];
  for (const [id, doc] of Object.entries(join ?? {})) {
    const item = `join/${id.slice(0, MAX_ID)}`;
    try {
      if (!isObject(doc)) throw new Error('not a document (object)');
      if (!DEVICE_ID.test(id)) throw new Error('document id is not a 12-digit device id');
      devices.push({
        id,
        owner: email(doc.owner, 'owner'),
        seller: email(doc.seller, 'seller'),
        up: text(doc.up, 'up', 64),
        version: text(doc.version, 'version', 64),
        name: text(doc.name, 'name', 64).trim(),
      });
    } catch (err) {
      skipped.push({ item, reason: (err as Error).message });
    }
  }
  return { users, devices, skipped };
}
