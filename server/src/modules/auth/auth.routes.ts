// Sign-in routes, open to anyone: the /login page, starting an OpenID Connect sign-in and its callback
// (in a popup or by redirect), and logout.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callbackQuerySchema, loginQuerySchema } from '#core/contracts/auth.contract.ts';
import { okSchema } from '#core/contracts/common.contract.ts';
import type { ErrorCode } from '#core/errors.ts';
import { requestLanguage } from '#server/lib/i18n.ts';
import type { Metrics } from '#server/lib/metrics.ts';
import { firstScreenPage, type BuiltPages } from '#server/lib/web-page.ts';
import { FLOW_TTL_MS, SignInError, type AuthService } from './auth.service';
import { loginPageHtml } from './login-page.html';

const FLOW_COOKIE = 'voltas_flow';

export interface AuthRoutesOptions {
  auth: AuthService;
  /** Where the provider sends the browser back (the callback's full address is rebuilt on it). */
  redirectUri: string;
  secureCookies: boolean | 'auto';
  metrics: Metrics;
  pages: BuiltPages;
}

/** Where the browser lands after the attempt settles; auth-done.html tells the opener (popup). */
function settle(reply: FastifyReply, mode: string | undefined, error?: ErrorCode) {
  if (mode === 'redirect') return reply.redirect(error ? `/login?erro=${encodeURIComponent(error)}` : '/user', 303);
  return reply.redirect(error ? `/auth-done.html?erro=${encodeURIComponent(error)}` : '/auth-done.html?status=ok', 303);
}

export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;
  const flowCookie = { path: '/api/auth', httpOnly: true, sameSite: 'lax' as const, secure: opts.secureCookies };

  // The sign-in page, written whole in the visitor's language (login-page.html.ts): it shows and
  // works before the app's code has run. Only for signed-out visitors, as the spec says.
  r.get(
    '/login',
    { config: { access: 'public' }, schema: { hide: true, querystring: z.object({ erro: z.string().optional() }) } },
    async (req, reply) => {
      if (req.identity && !req.identity.disabled) return reply.redirect('/user', 303);
      const language = requestLanguage(req);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-language')
        .send(firstScreenPage(opts.pages, { language, page: 'login', body: loginPageHtml(language, req.query.erro) }));
    },
  );

  r.get(
    '/api/auth/login',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Starts an OpenID Connect sign-in (authorization code + PKCE)',
        querystring: loginQuerySchema,
      },
    },
    async (req, reply) => {
      const { mode } = req.query;
      try {
        const { url, state } = await auth.begin(mode);
        reply.setCookie(FLOW_COOKIE, state, { ...flowCookie, maxAge: FLOW_TTL_MS / 1000 });
        return reply.redirect(url.href, 303);
      } catch (err) {
        if (!(err instanceof SignInError)) throw err;
        req.log.warn({ reason: err.message }, 'sign-in could not start');
        return settle(reply, mode, err.code);
      }
    },
  );

  r.get(
    '/api/auth/callback',
    {
      config: { access: 'public', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], summary: 'OpenID Connect redirect URI', querystring: callbackQuerySchema },
    },
    async (req, reply) => {
      const browserState = req.cookies[FLOW_COOKIE];
      reply.clearCookie(FLOW_COOKIE, flowCookie);
      const flow = await auth.takeFlow(req.query.state);
      try {
        const email = await auth.complete({
          flow,
          state: req.query.state,
          browserState,
          providerError: req.query.error,
          callbackUrl: new URL(req.url, opts.redirectUri),
        });
        await app.authSessions.start(req, reply, email);
        opts.metrics.signIns.inc({ result: 'ok', reason: '' });
        req.log.info({ user: email }, 'signed in');
        return settle(reply, flow?.mode);
      } catch (err) {
        if (!(err instanceof SignInError)) throw err;
        opts.metrics.signIns.inc({ result: 'failed', reason: err.code });
        req.log.warn({ code: err.code, reason: err.message }, 'sign-in failed');
        return settle(reply, flow?.mode, err.code);
      }
    },
  );

  r.post(
    '/api/auth/logout',
    {
      config: { access: 'public', changesSignIn: true },
      schema: { tags: ['auth'], summary: 'Ends the session', response: { 200: okSchema } },
    },
    async (req, reply) => {
      await app.authSessions.end(req, reply);
      return { ok: true as const };
    },
  );
}
