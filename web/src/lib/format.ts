/** Display formats from UX.md: km/h without decimals in tables, one decimal (comma) in prose; lean in whole degrees with E/D. */
const decimal1 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function speedTable(kmh: number): string {
  return String(Math.round(kmh));
}

export function speedProse(kmh: number): string {
  return `${decimal1.format(kmh)} km/h`;
}

/** Negative roll is to the left (esquerda, E); positive to the right (direita, D). */
export function lean(deg: number): string {
  const whole = Math.round(Math.abs(deg));
  if (whole === 0) return '0°';
  return `${whole}° ${deg < 0 ? 'E' : 'D'}`;
}

/** One decimal with the Brazilian comma (Hz, rotation, zoom). */
export function oneDecimal(n: number): string {
  return decimal1.format(n);
}
