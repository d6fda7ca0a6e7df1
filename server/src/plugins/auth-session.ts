import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hash } from 'node:crypto';
import { USER_HEADER } from '#core/contracts/user-header.ts';
import { hashToken, newToken } from '../lib/tokens';

/** The cookie over plain http (local use). */
export const SESSION_COOKIE = 'voltas_session';
/** Over https: the `__Host-` prefix binds the cookie to this exact host, path / and Secure. */
const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const SESSION_DAYS = 30;
/** However active, a sign-in ends this long after it began: a stolen cookie does not live for ever. */
const SESSION_MAX_DAYS = 90;
/** Sliding sessions: renewed at most hourly, so an active rider is never signed out mid-use. */
const RENEW_AFTER_MS = 60 * 60 * 1000;

export interface AuthSessionIdentity {
  email: string;
  authSessionHash: string;
  disabled: boolean;
  /** Roles read with the session on every request: a role change applies at once. */
  admin: boolean;
  seller: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: AuthSessionIdentity | null;
  }
  interface FastifyInstance {
    authSessions: AuthSessionManager;
  }
}

interface AuthSessionManager {
  /** Starts a fresh session (rotation: any session the browser had is revoked first). */
  start(req: FastifyRequest, reply: FastifyReply, email: string): Promise<void>;
  end(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The sign-in behind `authSessionHash` as it is now; null once it ended, expired or its user was disabled. */
  check(authSessionHash: string): Promise<AuthSessionIdentity | null>;
}

/** A sign-in session row as the store answers it. */
export interface AuthSessionRow {
  email: string;
  created_at: string;
  expires_at: string;
  renewed_at: string;
  disabled: number | string;
  adm: string;
  seller: string;
}

/** Where sign-in sessions live (the database; see modules/auth/auth-sessions.service.ts). */
interface AuthSessionStore {
  find(idHash: string): Promise<AuthSessionRow | undefined>;
  insert(s: { idHash: string; email: string; createdAt: string; expiresAt: string }): Promise<void>;
  renew(idHash: string, renewedAt: string, expiresAt: string): Promise<void>;
  delete(idHash: string): Promise<void>;
}

export interface AuthSessionPluginOptions {
  store: AuthSessionStore;
  secureCookies: boolean | 'auto';
  /** Called when a sign-in ends here (logout, or replaced by a new sign-in), to tell every instance. */
  onEnded?: (authSessionHash: string) => void;
}

/** When a sign-in ends however active it is. */
const absoluteEnd = (row: AuthSessionRow) => Date.parse(row.created_at) + SESSION_MAX_DAYS * 86_400_000;

function isLive(row: AuthSessionRow, now: number): boolean {
  return Date.parse(row.expires_at) > now && absoluteEnd(row) > now;
}

function identityOf(row: AuthSessionRow, idHash: string): AuthSessionIdentity {
  return {
    email: row.email,
    authSessionHash: idHash,
    disabled: Number(row.disabled) !== 0,
    admin: row.adm === '1',
    seller: row.seller !== '',
  };
}

/**
 * A signed-in answer is its user's alone: no shared cache (a proxy, a CDN) may keep it for someone
 * else, nor the browser's disk cache (/api/me holds the Wi-Fi password). Whatever a route says; the
 * service worker's offline copies are the app's own (web/src/sw.ts), not an HTTP cache.
 */
const SIGNED_IN_CACHE_CONTROL = 'private, no-store';

/** `vary` with Cookie among its names (a route or compression may have named others already). */
function varyOnCookie(vary: unknown): string {
  const names = [vary ?? []]
    .flat()
    .flatMap((v) => String(v).split(','))
    .map((n) => n.trim())
    .filter(Boolean);
  return names.some((n) => n.toLowerCase() === 'cookie') ? names.join(', ') : [...names, 'Cookie'].join(', ');
}

/** A user's key in USER_HEADER: fixed-length, not the e-mail itself, the same on every instance. */
function userKey(email: string): string {
  return hash('sha256', email, 'base64url');
}

export const authSessionPlugin = fp(async (app: FastifyInstance, opts: AuthSessionPluginOptions) => {
  const { store } = opts;
  const cookieName = opts.secureCookies === true ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: opts.secureCookies };

  function setCookie(reply: FastifyReply, token: string, expires: Date) {
    reply.setCookie(cookieName, token, { ...cookieOptions, expires });
  }

  app.decorateRequest('identity', null);

  app.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[cookieName];
    if (!token) return;
    const idHash = hashToken(token);
    const row = await store.find(idHash);
    const now = Date.now();
    if (!row || !isLive(row, now)) {
      if (row) await store.delete(idHash);
      reply.clearCookie(cookieName, cookieOptions);
      return;
    }
    req.identity = identityOf(row, idHash);
    // Whose answer this is: the service worker keeps a copy for that user only (decision 025).
    if (req.url.startsWith('/api/')) reply.header(USER_HEADER, userKey(row.email));
    if (!req.identity.disabled && now - Date.parse(row.renewed_at) > RENEW_AFTER_MS) {
      const expires = new Date(Math.min(now + SESSION_DAYS * 86_400_000, absoluteEnd(row)));
      await store.renew(idHash, new Date(now).toISOString(), expires.toISOString());
      setCookie(reply, token, expires);
    }
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.identity && req.url.startsWith('/api/')) {
      reply.header('cache-control', SIGNED_IN_CACHE_CONTROL);
      reply.header('vary', varyOnCookie(reply.getHeader('vary')));
    }
    done(null, payload);
  });

  const ended = (idHash: string) => opts.onEnded?.(idHash);
  const manager: AuthSessionManager = {
    async start(req, reply, email) {
      const old = req.cookies[cookieName];
      if (old) {
        await store.delete(hashToken(old));
        ended(hashToken(old));
      }
      const token = newToken();
      const now = new Date();
      const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
      await store.insert({
        idHash: hashToken(token),
        email,
        createdAt: now.toISOString(),
        expiresAt: expires.toISOString(),
      });
      setCookie(reply, token, expires);
    },
    async end(req, reply) {
      const token = req.cookies[cookieName];
      if (token) {
        await store.delete(hashToken(token));
        ended(hashToken(token));
      }
      reply.clearCookie(cookieName, cookieOptions);
      req.identity = null;
    },
    async check(idHash) {
      const row = await store.find(idHash);
      if (!row || !isLive(row, Date.now())) return null;
      const identity = identityOf(row, idHash);
      return identity.disabled ? null : identity;
    },
  };
  app.decorate('authSessions', manager);
});
