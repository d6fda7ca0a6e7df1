// `voltas firmware keygen|sign`: the maker's side of signed firmware, run on their own machine (the
// server never holds a private key). keygen writes a private key and prints its public key for
// FIRMWARE_PUBLIC_KEYS; sign prints the manifest and signature that POST /api/admin/firmware takes.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { firmwareManifestSchema, type FirmwareManifest } from '#core/contracts/firmware.contract.ts';
import { generateFirmwareKey, signManifest } from '../lib/firmware-signing';

/** An offer of a manifest signed today stands this long unless --expires-days says otherwise. */
const DEFAULT_EXPIRES_DAYS = 90;

export const FIRMWARE_USAGE = `  firmware keygen --out FILE               write a new Ed25519 private key (mode 600); prints its public key
                                           for FIRMWARE_PUBLIC_KEYS
  firmware sign IMAGE --key KEY --version V --class C [--min-from V] [--seq N] [--expires-days D]
                                           print the signed manifest and signature (JSON) to register with
                                           POST /api/admin/firmware; --seq defaults to the time in minutes`;

/** The manifest of an image, in a fixed key order: these exact bytes are what is signed. */
async function manifestOf(
  image: string,
  m: { class: string; version: string; seq: number; minFrom: string; expiresDays: number; now?: Date },
): Promise<FirmwareManifest> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(image)) hash.update(chunk as Buffer);
  const { size } = await stat(image);
  const expires = new Date((m.now ?? new Date()).getTime() + m.expiresDays * 86_400_000).toISOString();
  return firmwareManifestSchema.parse({
    class: m.class,
    version: m.version,
    seq: m.seq,
    sha256: hash.digest('hex'),
    size,
    expires,
    minFrom: m.minFrom,
  });
}

/** Where the command writes: the public key and the signed manifest to `out`, guidance to `err`. */
interface Output {
  write(text: string): unknown;
}

export async function firmwareCommand(
  args: string[],
  out: Output = process.stdout,
  err: Output = process.stderr,
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'keygen') {
    const { values } = parseArgs({ args: rest, options: { out: { type: 'string' } } });
    if (!values.out) {
      err.write(`Usage:\n${FIRMWARE_USAGE}\n`);
      return 2;
    }
    const key = generateFirmwareKey();
    // 'wx': never overwrite a key that may already sign a fleet's images.
    await writeFile(values.out, key.privatePem, { mode: 0o600, flag: 'wx' });
    err.write(`Private key written to ${values.out}: keep it off the server. Public key (FIRMWARE_PUBLIC_KEYS):\n`);
    out.write(`${key.publicKey}\n`);
    return 0;
  }
  if (sub === 'sign') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        key: { type: 'string' },
        version: { type: 'string' },
        class: { type: 'string' },
        'min-from': { type: 'string', default: '' },
        seq: { type: 'string' },
        'expires-days': { type: 'string', default: String(DEFAULT_EXPIRES_DAYS) },
      },
    });
    const image = positionals[0];
    if (!image || positionals.length > 1 || !values.key || !values.version || !values.class) {
      err.write(`Usage:\n${FIRMWARE_USAGE}\n`);
      return 2;
    }
    const seq = values.seq ? Number(values.seq) : Math.floor(Date.now() / 60_000);
    const expiresDays = Number(values['expires-days']);
    if (!Number.isInteger(seq) || seq < 1 || !(expiresDays > 0)) {
      err.write('--seq must be a whole number above 0 and --expires-days a number of days above 0\n');
      return 2;
    }
    let manifestData: FirmwareManifest;
    try {
      manifestData = await manifestOf(image, {
        class: values.class,
        version: values.version,
        seq,
        minFrom: values['min-from'],
        expiresDays,
      });
    } catch (e) {
      const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
      if (!issues) throw e;
      err.write(`${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')}\n`);
      return 2;
    }
    const manifest = JSON.stringify(manifestData);
    const signature = signManifest(manifest, await readFile(values.key, 'utf8'));
    out.write(`${JSON.stringify({ manifest, signature })}\n`);
    return 0;
  }
  err.write(`Usage:\n${FIRMWARE_USAGE}\n`);
  return 2;
}
