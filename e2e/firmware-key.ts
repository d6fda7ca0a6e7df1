// The e2e's firmware signing key: fixed (made from a known seed), so that the server the config starts
// (FIRMWARE_PUBLIC_KEYS) and the test that signs agree in every process. For tests only.
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';

// An Ed25519 PKCS#8 key is this DER prefix followed by its 32-byte seed.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const seed = createHash('sha256').update('voltas e2e firmware key').digest();
const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });

export const E2E_FIRMWARE_PRIVATE_PEM = key.export({ format: 'pem', type: 'pkcs8' }).toString();
/** The base64 of the raw 32 public bytes (FIRMWARE_PUBLIC_KEYS' form). */
export const E2E_FIRMWARE_PUBLIC_KEY = Buffer.from(
  createPublicKey(key).export({ format: 'jwk' }).x!,
  'base64url',
).toString('base64');
