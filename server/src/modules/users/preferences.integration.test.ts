import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';

let server: TestServer;
let rider: Browser;
let other: Browser;

beforeAll(async () => {
  server = await startTestServer({}, { inject: true });
  rider = new Browser(server);
  await rider.signIn('prefs@example.com');
  other = new Browser(server);
  await other.signIn('prefs-other@example.com');
});
afterAll(async () => {
  await server.close();
});

const get = (b: Browser, acceptLanguage?: string) =>
  b.json('/api/me/preferences', acceptLanguage ? { headers: { 'accept-language': acceptLanguage } } : {});
const put = (b: Browser, body: unknown) => b.json('/api/me/preferences', { method: 'PUT', body: JSON.stringify(body) });
const stored = (email: string) =>
  server.database.db
    .selectFrom('users')
    .select(['language', 'units'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('GET /api/me/preferences before the rider chooses', () => {
  it.each([
    ['en-US,en;q=0.9', { language: 'en', units: 'imperial' }],
    ['en-GB,en;q=0.8', { language: 'en', units: 'metric' }],
    ['es-AR,es;q=0.9,en;q=0.5', { language: 'es', units: 'metric' }],
    ['pt-PT', { language: 'pt-BR', units: 'metric' }],
    ['de-DE,fr;q=0.9', { language: 'pt-BR', units: 'metric' }],
    // Weights, not order, decide.
    ['de;q=0.9,en-US;q=0.2,es;q=0.5', { language: 'es', units: 'metric' }],
    ['fr, en-us;q=0.7', { language: 'en', units: 'imperial' }],
  ])('negotiates %s from Accept-Language, storing nothing', async (header, want) => {
    const res = await get(rider, header);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...want, chosen: false });
    expect(await stored('prefs@example.com')).toEqual({ language: null, units: null });
  });

  it('answers Portuguese and metric without Accept-Language', async () => {
    const res = await rider.request('/api/me/preferences', { headers: { 'accept-language': '' } });
    expect(await res.json()).toEqual({ language: 'pt-BR', units: 'metric', chosen: false });
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-language');
  });
});

describe('PUT /api/me/preferences', () => {
  it("stores the choice, which then wins over Accept-Language, in the rider's profile only", async () => {
    const res = await put(rider, { language: 'es', units: 'imperial' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await stored('prefs@example.com')).toEqual({ language: 'es', units: 'imperial' });
    expect((await get(rider, 'pt-BR')).body).toEqual({ language: 'es', units: 'imperial', chosen: true });
    // Another device of the same rider: a new sign-in, the same profile.
    const phone = new Browser(server);
    await phone.signIn('prefs@example.com');
    expect((await get(phone, 'en-US')).body).toEqual({ language: 'es', units: 'imperial', chosen: true });
    // Another rider is untouched.
    expect((await get(other, 'en-US')).body).toEqual({ language: 'en', units: 'imperial', chosen: false });
    expect(await stored('prefs-other@example.com')).toEqual({ language: null, units: null });
  });

  it.each([
    [{ language: 'fr', units: 'metric' }, 'language', "Idioma inválido: use 'pt-BR', 'en' ou 'es'."],
    [{ language: 'pt-br', units: 'metric' }, 'language', "Idioma inválido: use 'pt-BR', 'en' ou 'es'."],
    [{ language: 'en', units: 'mph' }, 'units', "Unidades inválidas: use 'metric' ou 'imperial'."],
    [{ language: 'en' }, 'units', "Unidades inválidas: use 'metric' ou 'imperial'."],
  ])('refuses %j with a 400 naming what was expected, storing nothing', async (body, field, expectation) => {
    const before = await stored('prefs@example.com');
    const res = await put(rider, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('storage/invalid-argument');
    expect(Object.keys(res.body.fields)).toEqual([field]);
    expect(res.body.mensagem).toBe(`Pedido inválido: confira ${field}. ${expectation}`);
    expect(await stored('prefs@example.com')).toEqual(before);
  });

  it('names both expectations when both fields are wrong', async () => {
    const res = await put(rider, { language: 1, units: null });
    expect(res.status).toBe(400);
    expect(res.body.mensagem).toContain("use 'pt-BR', 'en' ou 'es'");
    expect(res.body.mensagem).toContain("use 'metric' ou 'imperial'");
  });

  it('refuses a signed-out caller (401) on both methods', async () => {
    const anonymous = new Browser(server);
    expect((await get(anonymous, 'en-US')).status).toBe(401);
    expect((await put(anonymous, { language: 'en', units: 'metric' })).status).toBe(401);
  });
});
