import { hash, randomBytes } from 'node:crypto';

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

/**
 * Secrets (session cookies, device tokens) are stored and looked up by hash only. Every signed-in
 * request hashes its cookie, with the one-shot `crypto.hash` (no Hash object made per request).
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function nowIso(): string {
  return new Date().toISOString();
}
