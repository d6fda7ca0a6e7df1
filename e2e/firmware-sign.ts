// Signing an e2e firmware image as its maker would: `voltas firmware sign` with the e2e's key.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_FIRMWARE_PRIVATE_PEM } from './firmware-key';
import { expect } from './fixtures';

/** The manifest and signature `voltas firmware sign` prints for the image (the maker's machine). */
export function signImage(
  image: Buffer,
  hardwareClass: string,
  version: string,
): { manifest: string; signature: string } {
  const dir = mkdtempSync(join(tmpdir(), 'voltas-fw-'));
  const imagePath = join(dir, 'image.bin');
  const keyPath = join(dir, 'key.pem');
  writeFileSync(imagePath, image);
  writeFileSync(keyPath, E2E_FIRMWARE_PRIVATE_PEM, { mode: 0o600 });
  // The key leaves the disk again as soon as it has signed.
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [
        'bin/voltas.mjs',
        'firmware',
        'sign',
        imagePath,
        '--key',
        keyPath,
        '--version',
        version,
        '--class',
        hardwareClass,
      ],
      { encoding: 'utf8' },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const signed = JSON.parse(out) as { manifest: string; signature: string };
  expect(typeof signed.manifest).toBe('string');
  expect(typeof signed.signature).toBe('string');
  return signed;
}
