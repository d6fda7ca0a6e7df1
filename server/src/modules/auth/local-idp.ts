// A sign-in provider inside this server (under /oidc) for when no Google client is configured, so a
// development or demo machine signs in offline through the same OpenID Connect code; refused in production.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { CustomFetch } from 'openid-client';
import { z } from 'zod';
import { negotiateLanguage, type Language } from '#core/i18n/intl.ts';
import { DEMO_ACCOUNTS } from '#server/lib/demo-accounts.ts';
import { escapeHtml } from '#server/lib/html.ts';
import { requestLanguage, translate } from '#server/lib/i18n.ts';
import { ExpiringStore } from './local-idp-adapter';

const LOCAL_IDP_PATH = '/oidc';

export interface LocalIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  register(app: FastifyInstance): Promise<void>;
  /**
   * The relying party's back-channel (discovery, code exchange) to this provider, answered in this
   * process: the provider is this very server, and a loopback connection to a busy server waits in
   * its accept queue (seconds under a burst of sign-ins). The browser's side of the flow still goes
   * over HTTP; Google's back-channel is openid-client's own fetch.
   */
  backChannel: CustomFetch;
}

const loginFormSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  name: z.string().trim().max(80).optional().default(''),
});

/**
 * The bundled OpenID Connect provider used when no Google client is configured, so `npm start`
 * works offline through the very same authorization-code + PKCE code path. Refused in production.
 */
export function createLocalIdp(opts: {
  publicUrl: string;
  redirectUri: string;
  production: boolean;
  trustProxy: boolean;
}): LocalIdp {
  if (opts.production) {
    throw new Error('The local identity provider is refused when NODE_ENV=production.');
  }
  const issuer = `${opts.publicUrl}${LOCAL_IDP_PATH}`;
  const clientId = 'voltas-local';
  const clientSecret = randomBytes(24).toString('base64url');
  // Names typed on the sign-in page, by e-mail; the ID token carries them (dev provider only).
  const names = new Map<string, string>(DEMO_ACCOUNTS.map((a) => [a.email, a.name]));

  // A new key at every start: an elliptic-curve one is made at once (an RSA key holds up each
  // start, each test server's included) and signs each sign-in's ID token cheaply.
  const idTokenSigningAlg = 'ES256';
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    use: 'sig',
    alg: idTokenSigningAlg,
  };

  const store = new ExpiringStore();
  const configuration: Configuration = {
    adapter: (model: string) => store.adapter(model),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        id_token_signed_response_alg: idTokenSigningAlg,
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true, name: names.get(sub) || sub.split('@')[0] }),
    }),
    interactions: { url: (_ctx, interaction) => `${LOCAL_IDP_PATH}/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    // First-party client: consent is implied, as with Google for an app's own sign-in.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) {
        const found = await ctx.oidc.provider.Grant.find(existing);
        if (found) return found;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      session.grantIdFor(client.clientId, grant.jti);
      return grant;
    },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: { keys: [jwk as never] },
    // Every sign-in asks prompt=login, so the provider's session and grant serve one flow only:
    // kept 10 minutes, not an hour (a busy track day would otherwise hold an hour of them).
    ttl: {
      Session: 10 * 60,
      Interaction: 10 * 60,
      Grant: 10 * 60,
      AuthorizationCode: 60,
      IdToken: 300,
      AccessToken: 300,
    },
    renderError: (ctx, out) => {
      const language = negotiateLanguage(ctx.get('accept-language') || undefined);
      ctx.type = 'html';
      ctx.body = page(
        language,
        translate(language)('localIdp.title'),
        `<p role="alert">${escapeHtml(String(out.error_description ?? out.error))}</p>`,
      );
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = opts.trustProxy;

  let registeredOn: FastifyInstance | undefined;

  const backChannel: CustomFetch = async (url, init) => {
    if (!registeredOn) throw new TypeError('The local identity provider is not registered on the app.');
    const target = new URL(url);
    const answer = await registeredOn.inject({
      method: init.method as 'GET' | 'POST',
      url: target.pathname + target.search,
      headers: { ...init.headers, host: target.host },
      ...(init.body == null ? {} : { payload: bodyOf(init.body) }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      for (const one of [value ?? []].flat()) headers.append(name, String(one));
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };

  async function register(app: FastifyInstance): Promise<void> {
    registeredOn = app;
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_req, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );

      scope.get('/oidc/interaction/:uid', { config: { access: 'public' } }, async (req, reply) => {
        const details = await provider.interactionDetails(req.raw, reply.raw);
        return sendLoginPage(reply, requestLanguage(req), details.uid, '', false);
      });

      scope.post('/oidc/interaction/:uid/login', { config: { access: 'public' } }, async (req, reply) => {
        const details = await provider.interactionDetails(req.raw, reply.raw);
        const parsed = loginFormSchema.safeParse(req.body ?? {});
        if (!parsed.success) {
          const raw = (req.body ?? {}) as Record<string, unknown>;
          return sendLoginPage(reply.code(400), requestLanguage(req), details.uid, String(raw.email ?? ''), true);
        }
        if (parsed.data.name) names.set(parsed.data.email, parsed.data.name);
        const to = await provider.interactionResult(
          req.raw,
          reply.raw,
          { login: { accountId: parsed.data.email } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(to, 303);
      });

      scope.post('/oidc/interaction/:uid/abort', { config: { access: 'public' } }, async (req, reply) => {
        const to = await provider.interactionResult(
          req.raw,
          reply.raw,
          { error: 'access_denied', error_description: 'End-User aborted interaction' },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(to, 303);
      });

      // Everything else under /oidc belongs to oidc-provider (a Koa app): hand it the raw request.
      await scope.register(async (raw) => {
        raw.removeAllContentTypeParsers();
        raw.addContentTypeParser('*', (_req, _payload, done) => done(null));
        const handler = provider.callback();
        raw.all('/oidc/*', { config: { access: 'public' } }, (req, reply) => {
          reply.hijack();
          const incoming = req.raw as typeof req.raw & { originalUrl?: string };
          incoming.originalUrl = incoming.url;
          incoming.url = (incoming.url ?? '/').slice(LOCAL_IDP_PATH.length) || '/';
          handler(incoming, reply.raw);
        });
      });
    });
  }

  return { issuer, clientId, clientSecret, register, backChannel };
}

/** openid-client sends forms as URLSearchParams and nothing it sends here is streamed. */
function bodyOf(body: Parameters<CustomFetch>[1]['body']): string | Buffer {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer || body instanceof Uint8Array) return Buffer.from(body as Uint8Array);
  throw new TypeError('A streamed request body is not sent to the local identity provider.');
}

/** The sign-in page in the language of the browser that opened it; `invalid`: the e-mail typed was refused. */
function sendLoginPage(reply: FastifyReply, language: Language, uid: string, email: string, invalid: boolean) {
  const t = translate(language);
  const error = invalid ? t('localIdp.invalidEmail') : '';
  const action = `${LOCAL_IDP_PATH}/interaction/${encodeURIComponent(uid)}`;
  const demo = DEMO_ACCOUNTS.map(
    (a) =>
      `<form method="post" action="${action}/login"><input type="hidden" name="email" value="${escapeHtml(a.email)}">` +
      `<input type="hidden" name="name" value="${escapeHtml(a.name)}">` +
      `<button type="submit" class="demo">${escapeHtml(a.name)} <small>${escapeHtml(a.email)}</small></button></form>`,
  ).join('');
  const body = `
    <p>${escapeHtml(t('localIdp.intro'))}</p>
    ${error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="${action}/login" class="main">
      <label>${escapeHtml(t('localIdp.email'))}<input name="email" type="email" required autocomplete="email" autofocus value="${escapeHtml(email)}"></label>
      <label>${escapeHtml(t('localIdp.name'))}<input name="name" type="text" maxlength="80" autocomplete="name"></label>
      <button type="submit">${escapeHtml(t('localIdp.submit'))}</button>
    </form>
    <h2>${escapeHtml(t('localIdp.demoAccounts'))}</h2>
    <div class="demos">${demo}</div>
    <form method="post" action="${action}/abort"><button type="submit" class="link">${escapeHtml(t('localIdp.cancel'))}</button></form>`;
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page(language, t('localIdp.title'), body));
}

function page(language: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.4 system-ui,sans-serif;margin:0;padding:16px;background:#111;color:#f4f4f4;max-width:480px;margin-inline:auto}
h1{font-size:1.3rem}h2{font-size:1.05rem;margin-top:24px}label{display:block;margin:12px 0}
input{display:block;width:100%;box-sizing:border-box;min-height:44px;font-size:1rem;margin-top:4px;padding:8px;border-radius:6px;border:1px solid #666;background:#222;color:#fff}
button{min-height:44px;font-size:1rem;border-radius:6px;border:0;padding:8px 16px;background:#d32f2f;color:#fff;cursor:pointer}
.demo{display:block;width:100%;margin:8px 0;background:#333;text-align:left}.demo small{color:#bbb;display:block}
.link{background:transparent;color:#9cf;text-decoration:underline;padding:0;margin-top:16px}
.error{color:#ff8a80}
</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
