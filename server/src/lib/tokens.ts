import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets (session cookies, device tokens) are stored and looked up by hash only. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function nowIso(): string {
  return new Date().toISOString();
}
