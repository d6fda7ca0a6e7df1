import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** AES-256-GCM with a key derived from SECRET_KEY (HKDF-SHA256). Output: `v1:<base64 iv|tag|ct>`. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('SECRET_KEY must be at least 32 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'voltas', 'wifi-password/v1', 32));
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when the value was sealed with another key or tampered with. */
  open(sealed: string): string {
    if (sealed === '') return '';
    const [version, payload] = sealed.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown sealed value format');
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
