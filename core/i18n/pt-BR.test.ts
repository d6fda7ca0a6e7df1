import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors';
import { importWarningText } from './pt-BR-imports';
import { fill, ptBR } from './pt-BR';

describe('pt-BR catalog', () => {
  it('has a Portuguese message for every error code', () => {
    for (const code of Object.keys(ERROR_STATUS)) {
      expect(ptBR.errors[code as keyof typeof ptBR.errors], code).toBeTruthy();
    }
  });

  it('keeps the spec labels exactly', () => {
    expect(ptBR.login.button).toBe('Login with Google');
    expect(ptBR.enroll.senhaHint).toBe('Clique para mostrar a senha');
    expect([ptBR.enroll.nomePiloto, ptBR.enroll.numeroMoto, ptBR.enroll.save]).toEqual([
      'Nome do Piloto',
      'Número da Moto',
      'Salvar',
    ]);
    expect([
      ptBR.menu.meusDados,
      ptBR.menu.laps,
      ptBR.menu.vendas,
      ptBR.menu.adm,
      ptBR.menu.admSeller,
      ptBR.menu.hardware,
    ]).toEqual(['meus dados', 'laps', 'Vendas', 'adm', 'adm-Seller', 'hardware']);
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('Olá, {name} {x}', { name: 'Ana' })).toBe('Olá, Ana {x}');
  });

  it('agrees every counted message with its count: 1 volta, 2 voltas', () => {
    expect([1, 2].map((n) => ptBR.imports.lapsCount(n))).toEqual([
      '1 volta cronometrada pelo GPS',
      '2 voltas cronometradas pelo GPS',
    ]);
    expect([1, 3].map((n) => ptBR.laps.warningsTitle(n))).toEqual([
      '1 linha do arquivo não pôde ser lida e ficou de fora:',
      '3 linhas do arquivo não puderam ser lidas e ficaram de fora:',
    ]);
    expect([1, 7].map((n) => ptBR.history.shareDays(n))).toEqual(['1 dia', '7 dias']);
    expect(ptBR.imports.loggerLaps(1, '01:40.000')).toBe('1 volta cronometrada pelo próprio equipamento (01:40.000)');
    expect(ptBR.imports.loggerLaps(4, '01:38.500')).toBe(
      '4 voltas cronometradas pelo próprio equipamento (melhor 01:38.500)',
    );
    const counted = ['badLines', 'badChecksums', 'backwards', 'duplicates', 'jumps', 'gaps'] as const;
    expect(counted.map((code) => importWarningText({ code, count: 1 }))).toEqual([
      '1 linha ilegível ignorada.',
      '1 sentença NMEA com checksum errado ignorada.',
      '1 ponto com horário voltando para trás ignorado.',
      '1 ponto repetido ignorado.',
      '1 salto impossível de posição ignorado.',
      '1 intervalo de mais de 5 s sem sinal.',
    ]);
    expect(counted.map((code) => importWarningText({ code, count: 12 }))).toEqual([
      '12 linhas ilegíveis ignoradas.',
      '12 sentenças NMEA com checksum errado ignoradas.',
      '12 pontos com horário voltando para trás ignorados.',
      '12 pontos repetidos ignorados.',
      '12 saltos impossíveis de posição ignorados.',
      '12 intervalos de mais de 5 s sem sinal.',
    ]);
    expect(importWarningText({ code: 'truncated', line: 40 })).toBe(
      'O arquivo termina no meio (linha 40): importado o que estava completo.',
    );
  });

  it('leaves no count message as a "{n}" template to fill (each is a function of its count)', () => {
    const templates: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (typeof v === 'string' && /\{(n|count)\}/.test(v) && !/T\{n\}|S\{n\}|Setor \{n\}|\(mín\. \{n\}\)/.test(v))
        templates.push(path);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    walk(ptBR, 'ptBR');
    expect(templates).toEqual([]);
  });
});
