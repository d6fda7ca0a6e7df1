// Ed25519 signatures of firmware manifests (node:crypto, no dependency): the maker signs on their own
// machine (`voltas firmware sign`), the server and the devices only verify, against public keys given
// as the base64 of their raw 32 bytes.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** A public key from the base64 of its raw 32 bytes (FIRMWARE_PUBLIC_KEYS' form); throws on anything else. */
export function publicKeyFromRaw(base64: string): KeyObject {
  const raw = Buffer.from(base64.trim(), 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== base64.trim())
    throw new Error(`not an Ed25519 public key (the base64 of 32 raw bytes): ${base64.slice(0, 60)}`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** The base64 of a key's raw 32 public bytes. */
function rawPublicKey(key: KeyObject): string {
  const jwk = (key.type === 'public' ? key : createPublicKey(key)).export({ format: 'jwk' });
  return Buffer.from(jwk.x!, 'base64url').toString('base64');
}

/** A new key pair: the private key as PKCS#8 PEM (kept by the maker), the public as raw base64. */
export function generateFirmwareKey(): { privatePem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: rawPublicKey(publicKey),
  };
}

/** Base64 Ed25519 signature of the manifest's UTF-8 bytes. */
export function signManifest(manifest: string, privatePem: string): string {
  return sign(null, Buffer.from(manifest, 'utf8'), createPrivateKey(privatePem)).toString('base64');
}

/** Whether any of `keys` signed these exact manifest bytes. */
export function verifyManifest(manifest: string, signature: string, keys: readonly KeyObject[]): boolean {
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64) return false;
  const bytes = Buffer.from(manifest, 'utf8');
  return keys.some((key) => verify(null, bytes, key, sig));
}
