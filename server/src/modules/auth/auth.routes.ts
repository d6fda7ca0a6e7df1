import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { callbackQuerySchema, loginQuerySchema } from '../../../../core/contracts/auth.contract';
import { okSchema } from '../../../../core/contracts/common.contract';
import type { ErrorCode } from '../../../../core/errors';
import type { DB } from '../../db/schema';
import type { Metrics } from '../../lib/metrics';
import { nowIso } from '../../lib/tokens';
import { deleteFlowsBefore, insertFlow, takeFlow } from './auth-sessions.repository';
import { oidc, type IdentityProvider } from './oidc-client';
import { findUser, upsertUserAtSignIn } from '../users/users.repository';

const FLOW_COOKIE = 'voltas_flow';
const FLOW_TTL_MS = 10 * 60 * 1000;

export interface AuthRoutesOptions {
  db: Kysely<DB>;
  idp: IdentityProvider;
  adminEmails: string[];
  secureCookies: boolean | 'auto';
  metrics: Metrics;
}

class SignInError extends Error {
  constructor(readonly code: ErrorCode, detail: string) {
    super(detail);
  }
}

/** Where the browser lands after the attempt settles; auth-done.html tells the opener (popup). */
function settle(reply: FastifyReply, mode: string | undefined, error?: ErrorCode) {
  if (mode === 'redirect') return reply.redirect(error ? `/login?erro=${encodeURIComponent(error)}` : '/user', 303);
  return reply.redirect(error ? `/auth-done.html?erro=${encodeURIComponent(error)}` : '/auth-done.html?status=ok', 303);
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, idp } = opts;
  const flowCookie = { path: '/api/auth', httpOnly: true, sameSite: 'lax' as const, secure: opts.secureCookies };

  r.get('/api/auth/login', {
    config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { tags: ['auth'], summary: 'Starts an OpenID Connect sign-in (authorization code + PKCE)', querystring: loginQuerySchema },
  }, async (req, reply) => {
    const { mode } = req.query;
    let config: oidc.Configuration;
    try {
      config = await idp.configuration();
    } catch (err) {
      req.log.warn({ err }, 'identity provider discovery failed');
      return settle(reply, mode, 'auth/network-request-failed');
    }
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    const createdAt = nowIso();
    await deleteFlowsBefore(db, new Date(Date.now() - FLOW_TTL_MS).toISOString());
    await insertFlow(db, { state, codeVerifier, nonce, mode, createdAt });
    reply.setCookie(FLOW_COOKIE, state, { ...flowCookie, maxAge: FLOW_TTL_MS / 1000 });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: idp.redirectUri,
      scope: 'openid email profile',
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      state,
      nonce,
      ...idp.authParams,
    });
    return reply.redirect(url.href, 303);
  });

  r.get('/api/auth/callback', {
    config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { tags: ['auth'], summary: 'OpenID Connect redirect URI', querystring: callbackQuerySchema },
  }, async (req, reply) => {
    const state = req.query.state;
    const browserState = req.cookies[FLOW_COOKIE];
    reply.clearCookie(FLOW_COOKIE, flowCookie);
    const flow = state ? await takeFlow(db, state) : undefined;
    try {
      if (!state || !flow) throw new SignInError('auth/invalid-credential', 'unknown, expired or replayed state');
      if (browserState !== state) throw new SignInError('auth/invalid-credential', 'state not bound to this browser');
      if (Date.parse(flow.created_at) < Date.now() - FLOW_TTL_MS) throw new SignInError('auth/user-token-expired', 'sign-in took too long');
      if (req.query.error) {
        const code: ErrorCode = req.query.error === 'access_denied' ? 'auth/popup-closed-by-user' : 'auth/operation-not-allowed';
        throw new SignInError(code, `provider error ${req.query.error}`);
      }
      let config: oidc.Configuration;
      try {
        config = await idp.configuration();
      } catch (err) {
        throw new SignInError('auth/network-request-failed', String(err));
      }
      let claims: oidc.IDToken | undefined;
      try {
        const currentUrl = new URL(req.url, idp.redirectUri);
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: flow.code_verifier,
          expectedState: state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (err) {
        const network = err instanceof TypeError || (err as { code?: string }).code === 'OAUTH_TIMEOUT';
        // The provider's own words (e.g. invalid_grant and why) for the log; never the code itself.
        const said = err as { error?: unknown; error_description?: unknown };
        const detail = typeof said.error === 'string' ? `: ${said.error} ${typeof said.error_description === 'string' ? said.error_description : ''}` : '';
        throw new SignInError(network ? 'auth/network-request-failed' : 'auth/invalid-credential', `${String(err)}${detail}`);
      }
      const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email || claims?.email_verified === false) throw new SignInError('auth/invalid-credential', 'no verified e-mail in the ID token');
      const existing = await findUser(db, email);
      if (existing?.disabled) throw new SignInError('auth/user-disabled', 'user is disabled');
      const displayName = typeof claims?.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 120) : email.split('@')[0]!;
      const avatarUrl = typeof claims?.picture === 'string' && /^https:\/\//.test(claims.picture) ? claims.picture : '';
      await upsertUserAtSignIn(db, { email, displayName, avatarUrl, makeAdmin: opts.adminEmails.includes(email) });
      await app.sessions.start(req, reply, email);
      opts.metrics.signIns.inc({ result: 'ok', reason: '' });
      req.log.info({ user: email }, 'signed in');
      return settle(reply, flow.mode);
    } catch (err) {
      if (!(err instanceof SignInError)) throw err;
      opts.metrics.signIns.inc({ result: 'failed', reason: err.code });
      req.log.warn({ code: err.code, reason: err.message }, 'sign-in failed');
      return settle(reply, flow?.mode, err.code);
    }
  });

  r.post('/api/auth/logout', {
    config: { access: 'public', changesSignIn: true },
    schema: { tags: ['auth'], summary: 'Ends the session', response: { 200: okSchema } },
  }, async (req, reply) => {
    await app.sessions.end(req, reply);
    return { ok: true as const };
  });
}
