import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { GENERATED_PATH, generatedFile } from '../../../scripts/i18n-types.ts';
import { requestLanguage, translate } from './i18n';

describe('the catalogs', () => {
  it('have their argument types generated and current (node scripts/i18n-types.ts)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await generatedFile(ptBR));
  });
});

describe('requestLanguage', () => {
  it('negotiates Accept-Language, pt-BR by default', () => {
    expect(requestLanguage({ headers: {} })).toBe('pt-BR');
    expect(requestLanguage({ headers: { 'accept-language': 'pt-PT' } })).toBe('pt-BR');
    expect(translate('pt-BR')('errors.storage/unauthorized')).toBe('Você não tem permissão para isso.');
  });
});
