import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors';
import { importWarningText } from './import-warnings';
import { intlFor, negotiateLanguage, translator } from './intl';
import { ptBR } from './messages/pt-BR';

const t = translator(intlFor('pt-BR'));

describe('the pt-BR catalog', () => {
  it('has a message for every error code', () => {
    for (const code of Object.keys(ERROR_STATUS))
      expect(ptBR[`errors.${code}` as keyof typeof ptBR], code).toBeTruthy();
  });

  it('keeps the spec labels exactly', () => {
    expect(t('login.button')).toBe('Login with Google');
    expect(t('enroll.senhaHint')).toBe('Clique para mostrar a senha');
    expect([t('enroll.nomePiloto'), t('enroll.numeroMoto'), t('enroll.save')]).toEqual([
      'Nome do Piloto',
      'Número da Moto',
      'Salvar',
    ]);
    expect([
      t('menu.meusDados'),
      t('menu.laps'),
      t('menu.vendas'),
      t('menu.adm'),
      t('menu.admSeller'),
      t('menu.hardware'),
    ]).toEqual(['meus dados', 'laps', 'Vendas', 'adm', 'adm-Seller', 'hardware']);
  });

  it('agrees every counted message with its count: 1 volta, 2 voltas', () => {
    expect([1, 2].map((count) => t('imports.lapsCount', { count }))).toEqual([
      '1 volta cronometrada pelo GPS',
      '2 voltas cronometradas pelo GPS',
    ]);
    expect([1, 3].map((count) => t('laps.warningsTitle', { count }))).toEqual([
      '1 linha do arquivo não pôde ser lida e ficou de fora:',
      '3 linhas do arquivo não puderam ser lidas e ficaram de fora:',
    ]);
    expect([1, 7].map((count) => t('history.shareDays', { count }))).toEqual(['1 dia', '7 dias']);
    expect(t('imports.loggerLaps', { count: 1, time: '01:40.000' })).toBe(
      '1 volta cronometrada pelo próprio registrador (01:40.000)',
    );
    expect(t('imports.loggerLaps', { count: 4, time: '01:38.500' })).toBe(
      '4 voltas cronometradas pelo próprio registrador (melhor 01:38.500)',
    );
    const counted = ['badLines', 'badChecksums', 'backwards', 'duplicates', 'jumps', 'gaps', 'beyondLimit'] as const;
    expect(counted.map((code) => importWarningText(t, { code, count: 1 }))).toEqual([
      '1 linha ilegível ignorada.',
      '1 sentença NMEA com checksum errado ignorada.',
      '1 ponto com horário voltando para trás ignorado.',
      '1 ponto repetido ignorado.',
      '1 salto impossível de posição ignorado.',
      '1 intervalo de mais de 5 s sem sinal.',
      '1 ponto além dos 1.080.000 que um arquivo pode ter ficou de fora.',
    ]);
    expect(counted.map((code) => importWarningText(t, { code, count: 12 }))).toEqual([
      '12 linhas ilegíveis ignoradas.',
      '12 sentenças NMEA com checksum errado ignoradas.',
      '12 pontos com horário voltando para trás ignorados.',
      '12 pontos repetidos ignorados.',
      '12 saltos impossíveis de posição ignorados.',
      '12 intervalos de mais de 5 s sem sinal.',
      '12 pontos além dos 1.080.000 que um arquivo pode ter ficaram de fora.',
    ]);
    expect(importWarningText(t, { code: 'truncated', line: 40 })).toBe(
      'O arquivo termina no meio (linha 40): importado o que estava completo.',
    );
    expect(importWarningText(t, { code: 'sameRecording' })).toContain('mesma gravação de outro arquivo');
  });

  it('keeps literal apostrophes', () => {
    expect(t('fieldErrors.trackNameChars')).toBe("Use letras, números, espaços e . , ' ( ) & / -");
  });
});

describe('negotiateLanguage', () => {
  it('takes the first language Voltas speaks, by quality, else pt-BR', () => {
    expect(negotiateLanguage(undefined)).toBe('pt-BR');
    expect(negotiateLanguage('')).toBe('pt-BR');
    expect(negotiateLanguage('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(negotiateLanguage('en-US,en;q=0.9,pt-BR;q=0.8')).toBe('en');
    expect(negotiateLanguage('de-DE, es-AR;q=0.7, en;q=0.5')).toBe('es');
    expect(negotiateLanguage('fr;q=0.9, en;q=0.95')).toBe('en');
    expect(negotiateLanguage('en;q=0, es')).toBe('es');
    expect(negotiateLanguage(['de-DE', 'en-GB', 'pt-BR'])).toBe('en');
    expect(negotiateLanguage(['fr', 'de'])).toBe('pt-BR');
  });
});

describe('the typed message function', () => {
  it('takes exactly the arguments of the pt-BR message (args.generated.ts): checked by the typecheck', () => {
    expect(t('video.overlayLap', { lap: 3 })).toContain('3');
    expect(t('app.name')).toBe('Voltas');
    // Never run: each line must fail the typecheck, or its @ts-expect-error fails it instead.
    const wrong = () => {
      // @ts-expect-error a message with arguments called without them
      t('video.overlayLap');
      // @ts-expect-error arguments given to a message that takes none
      t('app.name', { lap: 3 });
      // @ts-expect-error an argument under the wrong name
      t('video.overlayLap', { volta: 3 });
    };
    expect(typeof wrong).toBe('function');
  });
});
