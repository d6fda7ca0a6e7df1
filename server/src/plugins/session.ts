import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { deleteSession, findSession, insertSession, renewSession } from '../modules/auth/auth-sessions.repository';
import { hashToken, newToken } from '../lib/tokens';

export const SESSION_COOKIE = 'voltas_session';
const SESSION_DAYS = 30;
/** Sliding sessions: renewed at most hourly, so an active rider is never signed out mid-use. */
const RENEW_AFTER_MS = 60 * 60 * 1000;

export interface SessionIdentity {
  email: string;
  sessionHash: string;
  disabled: boolean;
  /** Roles read with the session on every request: a role change applies at once. */
  admin: boolean;
  seller: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: SessionIdentity | null;
  }
  interface FastifyInstance {
    sessions: SessionManager;
  }
}

export interface SessionManager {
  /** Starts a fresh session (rotation: any session the browser had is revoked first). */
  start(req: FastifyRequest, reply: FastifyReply, email: string): Promise<void>;
  end(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { db: Kysely<DB>; secureCookies: boolean | 'auto' }) => {
  const { db } = opts;
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: opts.secureCookies };

  function setCookie(reply: FastifyReply, token: string, expires: Date) {
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, expires });
  }

  app.decorateRequest('identity', null);

  app.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token) return;
    const idHash = hashToken(token);
    const row = await findSession(db, idHash);
    const now = Date.now();
    if (!row || Date.parse(row.expires_at) <= now) {
      if (row) await deleteSession(db, idHash);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return;
    }
    req.identity = { email: row.email, sessionHash: idHash, disabled: Number(row.disabled) !== 0, admin: row.adm === '1', seller: row.seller !== '' };
    if (!req.identity.disabled && now - Date.parse(row.renewed_at) > RENEW_AFTER_MS) {
      const expires = new Date(now + SESSION_DAYS * 86_400_000);
      await renewSession(db, idHash, new Date(now).toISOString(), expires.toISOString());
      setCookie(reply, token, expires);
    }
  });

  const manager: SessionManager = {
    async start(req, reply, email) {
      const old = req.cookies[SESSION_COOKIE];
      if (old) await deleteSession(db, hashToken(old));
      const token = newToken();
      const now = new Date();
      const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
      await insertSession(db, { idHash: hashToken(token), email, createdAt: now.toISOString(), expiresAt: expires.toISOString() });
      setCookie(reply, token, expires);
    },
    async end(req, reply) {
      const token = req.cookies[SESSION_COOKIE];
      if (token) await deleteSession(db, hashToken(token));
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      req.identity = null;
    },
  };
  app.decorate('sessions', manager);
});
