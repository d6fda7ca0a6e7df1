import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { createAuthService } from './auth.service';
import { createIdentityProvider } from './oidc-client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: 'boss@example.com' });
});
afterAll(async () => {
  await server.close();
});

describe('sign-in through OpenID Connect (code + PKCE) with the local provider', () => {
  it('GET /api/me is 401 signed out, with the spec error code', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'storage/unauthenticated' });
  });

  it('first sign-in creates the user (no devices, empty wifi) with the name from the provider', async () => {
    const b = new Browser(server.baseUrl);
    const res = await b.signIn('First.Rider@Example.com', 'Primeira Piloto');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user');
    const cookie = b.lastSetCookies.find((c) => c.startsWith('voltas_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // plain http on loopback
    const me = await b.json('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'first.rider@example.com',
      displayName: 'Primeira Piloto',
      roles: { admin: false, seller: false },
      devices: [],
      profile: { wifi: '', senha: '', nomePiloto: '', numeroMoto: '' },
    });
  });

  it('ADMIN_EMAILS marks admins at sign-in', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('boss@example.com');
    expect((await b.json('/api/me')).body.roles).toEqual({ admin: true, seller: false });
  });

  it('rejects a callback whose state is not the one this browser started', async () => {
    const b = new Browser(server.baseUrl);
    const callback = await b.authorizeUntilCallback('state@example.com');
    callback.searchParams.set('state', 'forged-state');
    const res = await b.request(callback.pathname + callback.search);
    // An unknown state has no flow to say popup or redirect: auth-done.html routes either way.
    expect(res.headers.get('location')).toBe('/auth-done.html?erro=auth%2Finvalid-credential');
    expect(b.cookies.has('voltas_session')).toBe(false);
  });

  it('rejects a callback from another browser (state not bound to its cookie)', async () => {
    const victim = new Browser(server.baseUrl);
    const callback = await victim.authorizeUntilCallback('victim@example.com');
    const attacker = new Browser(server.baseUrl);
    const res = await attacker.request(callback.pathname + callback.search);
    expect(res.headers.get('location')).toMatch(/erro=auth%2Finvalid-credential/);
    expect(attacker.cookies.has('voltas_session')).toBe(false);
  });

  it('rejects a code redeemed without the right PKCE verifier', async () => {
    const b = new Browser(server.baseUrl);
    const callback = await b.authorizeUntilCallback('pkce@example.com');
    await server.database.db
      .updateTable('auth_flows')
      .set({ code_verifier: 'x'.repeat(64) })
      .execute();
    const res = await b.request(callback.pathname + callback.search);
    expect(res.headers.get('location')).toBe('/login?erro=auth%2Finvalid-credential');
    expect(b.cookies.has('voltas_session')).toBe(false);
  });

  it('the provider refuses an authorization request without a PKCE challenge', async () => {
    const b = new Browser(server.baseUrl);
    const start = await b.request('/api/auth/login?mode=redirect');
    const auth = new URL(start.headers.get('location')!);
    auth.searchParams.delete('code_challenge');
    auth.searchParams.delete('code_challenge_method');
    const res = await b.request(auth.pathname + auth.search);
    const loc = new URL(res.headers.get('location')!, server.baseUrl);
    expect(loc.pathname).toBe('/api/auth/callback');
    expect(loc.searchParams.get('error')).toBe('invalid_request');
  });

  it('rejects a replayed code', async () => {
    const b = new Browser(server.baseUrl);
    const callback = await b.authorizeUntilCallback('replay@example.com');
    const flowCookie = b.cookies.get('voltas_flow')!;
    const first = await b.request(callback.pathname + callback.search);
    expect(first.headers.get('location')).toBe('/user');
    const attacker = new Browser(server.baseUrl);
    attacker.cookies.set('voltas_flow', flowCookie);
    const replay = await attacker.request(callback.pathname + callback.search);
    expect(replay.headers.get('location')).toBe('/auth-done.html?erro=auth%2Finvalid-credential');
    expect(attacker.cookies.has('voltas_session')).toBe(false);
  });

  it('a cancelled sign-in reports auth/popup-closed-by-user to the popup page', async () => {
    const b = new Browser(server.baseUrl);
    const { url: interaction } = await b.follow('/api/auth/login?mode=popup');
    const aborted = await b.request(`${interaction.pathname}/abort`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    const { url } = await b.follow(aborted.headers.get('location')!, (u) => u.pathname === '/auth-done.html');
    expect(url.searchParams.get('erro')).toBe('auth/popup-closed-by-user');
  });

  it('the sign-in page lists the demo accounts and asks for e-mail and name', async () => {
    const b = new Browser(server.baseUrl);
    const { res } = await b.follow('/api/auth/login?mode=popup');
    const html = await res.text();
    expect(html).toContain('<input name="email"');
    expect(html).toContain('<input name="name"');
    expect(html).toContain('piloto@voltas.local');
    expect(html).toContain('Contas de demonstração');
  });

  it('the provider page rejects an invalid e-mail with a Portuguese message', async () => {
    const b = new Browser(server.baseUrl);
    const { url: interaction } = await b.follow('/api/auth/login?mode=popup');
    const res = await b.request(`${interaction.pathname}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=%3Cscript%3E&name=x',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Digite um e-mail válido.');
    expect(html).not.toContain('<script>');
  });
});

describe('/login, written by the server', () => {
  it('shows the logo and "Login with Google" in the visitor’s language, with a failed attempt’s error', async () => {
    const res = await fetch(`${server.baseUrl}/login?erro=auth/popup-closed-by-user`, {
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<div id="root" data-page="login"');
    expect(html).toContain(
      '<button type="button" class="btn btn-google" data-login="button">Login with Google</button>',
    );
    expect(html).toContain('<img class="login-logo" src="/logo.svg" alt="Voltas — cronometraje de vueltas"');
    expect(html).toMatch(/<p role="alert" class="alert alert-error"><strong>No se pudo entrar\.<\/strong> [^<]+<\/p>/);
    // Text someone puts in the address is never markup.
    const odd = await (await fetch(`${server.baseUrl}/login?erro=%3Cscript%3E`)).text();
    expect(odd).not.toContain('<script>');
    expect(odd).toContain('Não foi possível confirmar o login. Tente de novo.');
  });

  it('sends a signed-in visitor to /user', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('login-page@example.com');
    const res = await b.request('/login');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user');
  });
});

describe('server-side sessions', () => {
  it('rotates the session at sign-in and revokes it at logout', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('rotate@example.com');
    const first = b.cookies.get('voltas_session')!;
    await b.signIn('rotate@example.com');
    const second = b.cookies.get('voltas_session')!;
    expect(second).not.toBe(first);
    const stale = new Browser(server.baseUrl);
    stale.cookies.set('voltas_session', first);
    expect((await stale.json('/api/me')).status).toBe(401);

    expect((await b.json('/api/me')).status).toBe(200);
    const out = await b.json('/api/auth/logout', { method: 'POST', body: '{}' });
    expect(out.status).toBe(200);
    const reuse = new Browser(server.baseUrl);
    reuse.cookies.set('voltas_session', second);
    expect((await reuse.json('/api/me')).status).toBe(401);
  });

  it('stores only a hash of the session cookie', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('hash@example.com');
    const token = b.cookies.get('voltas_session')!;
    const rows = await server.database.db.selectFrom('auth_sessions').select('id_hash').execute();
    expect(rows.some((r) => r.id_hash === token)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('signs a disabled user out on their next request, and refuses their next sign-in', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('disabled@example.com');
    expect((await b.json('/api/me')).status).toBe(200);
    await server.database.db
      .updateTable('users')
      .set({ disabled: 1 })
      .where('email', '=', 'disabled@example.com')
      .execute();
    const res = await b.json('/api/me');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('auth/user-disabled');
    expect(b.cookies.has('voltas_session')).toBe(false);
    const again = await b.signIn('disabled@example.com');
    expect(again.headers.get('location')).toBe('/login?erro=auth%2Fuser-disabled');
  });

  it('refuses a cookie-authenticated change from another origin', async () => {
    const b = new Browser(server.baseUrl);
    await b.signIn('csrf@example.com');
    const res = await b.json('/api/me/profile', {
      method: 'PUT',
      headers: { origin: 'https://evil.example' },
      body: JSON.stringify({ wifi: 'a', senha: 'b', nomePiloto: 'c', numeroMoto: '1' }),
    });
    expect(res.status).toBe(403);
  });
});

describe("the relying party's back-channel (discovery, code exchange)", () => {
  it('reaches the local provider in process: a sign-in completes while the server accepts no connection', async () => {
    const own = await startTestServer();
    try {
      const b = new Browser(own.baseUrl);
      const callback = await b.authorizeUntilCallback('inprocess@example.com');
      // No new connection is accepted from here on (as under a burst, when they wait in the
      // accept queue): a code exchange over loopback would fail, one in process does not.
      await new Promise<void>((resolve) => own.app.server.close(() => resolve()));
      const res = await own.app.inject({
        method: 'GET',
        url: callback.pathname + callback.search,
        headers: { cookie: b.cookieHeader() },
      });
      expect(res.headers.location).toBe('/user');
      expect(res.cookies.some((c) => c.name === 'voltas_session' && c.value)).toBe(true);
    } finally {
      await own.close();
    }
  });

  it("goes over HTTP with openid-client's own fetch when none is given (Google's way): a whole code flow", async () => {
    // The local provider's client, reached as Google is: discovery and token request over loopback.
    const local = await server.idp.configuration();
    const overHttp = createIdentityProvider({
      issuer: local.serverMetadata().issuer,
      clientId: local.clientMetadata().client_id,
      clientSecret: String(local.clientMetadata().client_secret),
      redirectUri: `${server.baseUrl}/api/auth/callback`,
      description: 'the local provider over HTTP',
    });
    const auth = createAuthService({ db: server.database.db, idp: overHttp, adminEmails: [] });
    const { url, state } = await auth.begin('redirect');
    const b = new Browser(server.baseUrl);
    const { url: interaction } = await b.follow(url.href);
    expect(interaction.pathname).toContain('/interaction/');
    const posted = await b.request(`${interaction.pathname}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'Over.Http@example.com', name: '' }).toString(),
    });
    const { url: callbackUrl } = await b.follow(
      posted.headers.get('location')!,
      (u) => u.pathname === '/api/auth/callback',
    );
    const flow = await auth.takeFlow(state);
    const email = await auth.complete({ flow, state, browserState: state, providerError: undefined, callbackUrl });
    expect(email).toBe('over.http@example.com');
  });
});
