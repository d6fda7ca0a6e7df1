import { describe, expect, it } from 'vitest';
import { decimalBR, lean, oneDecimal, speedProse, speedTable } from './format';

describe('display formats', () => {
  it('speeds: no decimals in tables, one decimal with a comma in prose', () => {
    expect(speedTable(218.94)).toBe('219');
    expect(speedProse(218.94)).toBe('218,9 km/h');
  });
  it('lean in whole degrees, E (left, negative) or D (right)', () => {
    expect(lean(-52.4)).toBe('52° E');
    expect(lean(48.6)).toBe('49° D');
    expect(lean(0.2)).toBe('0°');
  });
  it('numbers the Brazilian way: thousands with a dot, decimals after a comma', () => {
    expect(oneDecimal(12345678.25)).toBe('12.345.678,3');
    expect(oneDecimal(999.95)).toBe('1.000,0');
    expect(decimalBR(1234.5, 0)).toBe('1.235');
    expect(decimalBR(0.5, 3)).toBe('0,500');
  });
  it('rounds the decimal that reads back as the number, half away from zero, as Intl does', () => {
    // 1.45 and 0.15 are stored a hair below; Intl (ICU) rounds what is written, and so do we.
    expect(oneDecimal(1.45)).toBe('1,5');
    expect(oneDecimal(0.15)).toBe('0,2');
    expect(oneDecimal(-2.25)).toBe('-2,3');
    expect(oneDecimal(-0.04)).toBe('-0,0');
    expect(oneDecimal(-0)).toBe('-0,0');
  });
  it('the numbers String() writes with an exponent, and the non-finite ones', () => {
    expect(decimalBR(2.5e22, 0)).toBe('25.000.000.000.000.000.000.000');
    expect(decimalBR(1.5e-7, 7)).toBe('0,0000002');
    expect(decimalBR(5e-324, 2)).toBe('0,00');
    expect([NaN, Infinity, -Infinity].map(oneDecimal)).toEqual(['NaN', '∞', '-∞']);
  });
  it('writes what Intl.NumberFormat("pt-BR") writes, for any number and 0–6 digits', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [0, -0, 0.05, 0.25, 9.95, 99.95, 1e21, 1.7976931348623157e308, 5e-324];
    for (let i = 0; i < 5000; i++) {
      const r = random();
      values.push((r - 0.5) * 10 ** Math.floor(random() * 30 - 12)); // every magnitude
      values.push(Math.round((r - 0.5) * 1e5) / 100 + 0.005); // near ties
      values.push(Math.floor(r * 1e6) / 20); // exact ties
    }
    for (const digits of [0, 1, 2, 3, 6]) {
      const intl = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits });
      const differing = values.filter((v) => decimalBR(v, digits) !== intl.format(v));
      expect(differing.map((v) => [v, decimalBR(v, digits), intl.format(v)])).toEqual([]);
    }
  });
});
