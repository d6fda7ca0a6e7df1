import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '#core/i18n/intl.ts';
import { en } from '#core/i18n/messages/en.ts';
import { es } from '#core/i18n/messages/es.ts';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { GENERATED_PATH, generatedFile, shapeOf } from '../../../scripts/i18n-types.ts';
import { Browser, startTestServer, type TestServer } from '#test/test-server.ts';
import { requestLanguage, translate } from './i18n';

describe('the catalogs', () => {
  it('have their argument types generated and current (node scripts/i18n-types.ts)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await generatedFile(ptBR));
  });

  it('give every language every id of pt-BR, with the same arguments, plurals and selects', () => {
    const differences: string[] = [];
    for (const [language, catalog] of [
      ['en', en],
      ['es', es],
    ] as const) {
      const ids = new Set(Object.keys(catalog));
      for (const [id, message] of Object.entries(ptBR)) {
        if (!ids.has(id)) differences.push(`${language} lacks ${id}`);
        else if (shapeOf(catalog[id as keyof typeof ptBR]) !== shapeOf(message))
          differences.push(`${language} ${id}: ${shapeOf(catalog[id as keyof typeof ptBR])} ≠ ${shapeOf(message)}`);
        ids.delete(id);
      }
      for (const extra of ids) differences.push(`${language} has ${extra}, which pt-BR lacks`);
    }
    expect(differences).toEqual([]);
  });

  it('keeps "Login with Google" in every language and plurals right in each', () => {
    for (const language of LANGUAGES) expect(translate(language)('login.button')).toBe('Login with Google');
    expect([1, 2].map((count) => translate('en')('history.shareDays', { count }))).toEqual(['1 day', '2 days']);
    expect([1, 2].map((count) => translate('es')('history.shareDays', { count }))).toEqual(['1 día', '2 días']);
  });
});

describe('requestLanguage', () => {
  it('negotiates Accept-Language, pt-BR by default', () => {
    expect(requestLanguage({ headers: {} })).toBe('pt-BR');
    expect(requestLanguage({ headers: { 'accept-language': 'pt-PT' } })).toBe('pt-BR');
    expect(requestLanguage({ headers: { 'accept-language': 'es-AR,es;q=0.9' } })).toBe('es');
    expect(translate('pt-BR')('errors.storage/unauthorized')).toBe('Você não tem permissão para isso.');
  });
});

describe('a refused request over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { inject: true });
  });
  afterAll(() => server.close());

  const mensagem = async (path: string, headers: Record<string, string>, init: RequestInit = {}) => {
    const res = await server.fetch(`${server.baseUrl}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    return { status: res.status, body: (await res.json()) as { code: string; mensagem: string } };
  };

  it('says its mensagem in the language of Accept-Language, pt-BR without one', async () => {
    expect((await mensagem('/api/nothing-here', {})).body.mensagem).toBe('Não encontramos o que você procurou.');
    expect((await mensagem('/api/nothing-here', { 'accept-language': 'en-US,en;q=0.9' })).body.mensagem).toBe(
      'We could not find what you were looking for.',
    );
    expect((await mensagem('/api/nothing-here', { 'accept-language': 'es-AR' })).body.mensagem).toBe(
      'No encontramos lo que buscabas.',
    );
    const signedOut = await mensagem('/api/me', { 'accept-language': 'es' });
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.mensagem).toBe('Tu sesión terminó. Vuelve a entrar.');
  });

  it('words an import refused with its details in the language of Accept-Language', async () => {
    const rider = new Browser(server);
    await rider.signIn('i18n@example.com');
    const refuse = async (language: string) => {
      const res = await rider.request('/api/imports?filename=vazio.gpx', {
        method: 'POST',
        body: '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>',
        headers: { 'content-type': 'application/octet-stream', 'accept-language': language },
      });
      return (await res.json()) as { code: string; mensagem: string };
    };
    const [pt, en, es] = [await refuse('pt-BR'), await refuse('en-GB'), await refuse('es-MX')];
    expect([pt.code, en.code, es.code]).toEqual(['import/no-fix', 'import/no-fix', 'import/no-fix']);
    expect(pt.mensagem).toBe('O arquivo GPX não tem nenhum ponto de trajeto (<trkpt>); nada foi gravado.');
    expect(en.mensagem).toBe('The GPX file has no track point (<trkpt>); nothing was saved.');
    expect(es.mensagem).toBe('El archivo GPX no tiene ningún punto de trayecto (<trkpt>); no se guardó nada.');
  });
});
