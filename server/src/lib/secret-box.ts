import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Sealed values: `v2:<base64 iv|tag|ct>`, bound to their owner as associated data. */
const VERSION = 'v2';
/** Before the binding (read, never written: upgraded to v2 at start-up). */
const LEGACY_VERSION = 'v1';
const IV_BYTES = 12;
/** Always 16 bytes, on both sides: a shortened tag must never be accepted. */
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a key derived from SECRET_KEY (HKDF-SHA256). Each value is bound to what it
 * belongs to (`boundTo`, the user's e-mail): a sealed password copied onto another user's row
 * does not open there.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly purpose: string;

  /** `purpose` gives each kind of secret a key of its own (Wi-Fi passwords, share links). */
  constructor(secret: string, purpose = 'wifi-password') {
    if (secret.length < 32) throw new Error('SECRET_KEY must be at least 32 characters');
    this.purpose = purpose;
    this.key = Buffer.from(hkdfSync('sha256', secret, 'voltas', `${purpose}/v1`, 32));
  }

  seal(plain: string, boundTo: string): string {
    if (plain === '') return '';
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad(boundTo));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when the value was sealed with another key, for someone else, or tampered with. */
  open(sealed: string, boundTo: string): string {
    if (sealed === '') return '';
    const [version, payload] = sealed.split(':', 2);
    if ((version !== VERSION && version !== LEGACY_VERSION) || !payload) throw new Error('Unknown sealed value format');
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    if (version === VERSION) decipher.setAAD(this.aad(boundTo));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Whether `sealed` predates the binding to its owner (to be sealed again). */
  isLegacy(sealed: string): boolean {
    return sealed.startsWith(`${LEGACY_VERSION}:`);
  }

  private aad(boundTo: string): Buffer {
    return Buffer.from(`${this.purpose}:${boundTo}`, 'utf8');
  }
}
