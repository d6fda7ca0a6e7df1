import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors';
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
    expect([ptBR.enroll.nomePiloto, ptBR.enroll.numeroMoto, ptBR.enroll.save]).toEqual(['Nome do Piloto', 'Número da Moto', 'Salvar']);
    expect([ptBR.menu.meusDados, ptBR.menu.laps, ptBR.menu.vendas, ptBR.menu.adm, ptBR.menu.admSeller, ptBR.menu.hardware]).toEqual([
      'meus dados',
      'laps',
      'Vendas',
      'adm',
      'adm-Seller',
      'hardware',
    ]);
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('Olá, {name} {x}', { name: 'Ana' })).toBe('Olá, Ana {x}');
  });
});
