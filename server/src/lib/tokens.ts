import { createHash, randomBytes } from 'node:crypto';

/**
 * 256 random bits, URL-safe, never starting with '-': a token is typed after `--token` on a
 * command line, where a leading '-' reads as another option.
 */
export function newToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (token[0] !== '-') return token;
  }
}

/** Secrets (session cookies, device tokens) are stored and looked up by hash only. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function nowIso(): string {
  return new Date().toISOString();
}
