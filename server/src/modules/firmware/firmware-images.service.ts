// Signed firmware images: the admin registers a manifest signed off the server, then uploads the
// image it names, checked against it before it is stored.
import { createHash, randomBytes, type KeyObject } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { receiveToFile } from '#server/lib/body-to-file.ts';
import { publicKeyFromRaw, verifyManifest } from '#server/lib/firmware-signing.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository';
import {
  findFirmware,
  insertFirmware,
  lastSeqOfClass,
  listFirmware,
  markImageStored,
  type FirmwareRow,
} from './firmware.repository';
import { firmwareBlobKey, parseManifest } from './firmware-rules';

export function createFirmwareImages(deps: { db: Kysely<DB>; blobs: BlobStore; publicKeys: string[] }) {
  const { db, blobs } = deps;
  const keys: KeyObject[] = deps.publicKeys.map(publicKeyFromRaw);

  const toFirmware = (f: FirmwareRow) => ({
    id: f.id,
    class: f.class,
    version: f.version,
    seq: f.seq,
    sha256: f.sha256,
    size: f.size,
    minFrom: f.min_from,
    expires: f.expires,
    imageStored: f.image_stored === 1,
    createdAt: f.created_at,
    createdBy: f.created_by,
  });

  return {
    listFirmware: async () => ({ firmware: (await listFirmware(db)).map(toFirmware) }),

    /** Verifies the manifest's signature and rules; the image is uploaded next. */
    async register(actor: string, input: { manifest: string; signature: string }): Promise<{ id: string }> {
      if (!verifyManifest(input.manifest, input.signature, keys))
        throw new AppError(
          'firmware/bad-signature',
          keys.length
            ? undefined
            : 'No firmware key is configured (FIRMWARE_PUBLIC_KEYS is empty): no image can be accepted.',
        );
      const m = parseManifest(input.manifest);
      if (Date.parse(m.expires) <= Date.now())
        throw new AppError('firmware/bad-manifest', `The manifest expired at ${m.expires}; sign it again.`);
      return inTransaction(db, async (trx) => {
        const last = await lastSeqOfClass(trx, m.class);
        if (m.seq <= last)
          throw new AppError(
            'firmware/seq-not-above',
            `seq ${m.seq} is not above ${last}, the last of class ${m.class}: sign with a higher seq.`,
          );
        const id = randomBytes(8).toString('hex');
        await insertFirmware(trx, {
          id,
          class: m.class,
          version: m.version,
          seq: m.seq,
          sha256: m.sha256,
          size: m.size,
          min_from: m.minFrom,
          expires: m.expires,
          manifest: input.manifest,
          signature: input.signature,
          created_at: nowIso(),
          created_by: actor,
        });
        await recordAudit(trx, {
          actor,
          action: 'register-firmware',
          target: id,
          before: {},
          after: { class: m.class, version: m.version, seq: m.seq, sha256: m.sha256, size: m.size },
        });
        return { id };
      });
    },

    /**
     * Streams the image to a temp file, checking its size on the way and its sha256 at the end,
     * before it reaches the blob store: a cut or a wrong upload stores nothing.
     */
    async storeImage(actor: string, id: string, body: AsyncIterable<Uint8Array>, declared: number) {
      const f = await findFirmware(db, id);
      if (!f) throw new AppError('storage/object-not-found', `No firmware ${id}.`);
      const mismatch = (what: string) =>
        new AppError(
          'firmware/image-mismatch',
          `The image's ${what} does not match the signed manifest (${f.size} bytes, sha256 ${f.sha256}); nothing was stored.`,
        );
      if (Number.isFinite(declared) && declared !== f.size) throw mismatch('size');
      const temp = await blobs.tempPath();
      const sha = createHash('sha256');
      try {
        const { size, md5 } = await receiveToFile(
          body,
          temp,
          { maxBytes: f.size, tooLarge: () => mismatch('size') },
          (c) => sha.update(c),
        );
        if (size !== f.size) throw mismatch('size');
        if (sha.digest('hex') !== f.sha256) throw mismatch('sha256');
        await blobs.putFile(firmwareBlobKey(f), temp, 'application/octet-stream', { md5: md5.toString('base64') });
      } finally {
        await rm(temp, { force: true });
      }
      await inTransaction(db, async (trx) => {
        await markImageStored(trx, id);
        await recordAudit(trx, {
          actor,
          action: 'upload-firmware-image',
          target: id,
          before: { imageStored: f.image_stored === 1 },
          after: { imageStored: true, size: f.size, sha256: f.sha256 },
        });
      });
      return toFirmware({ ...f, image_stored: 1 });
    },
  };
}
