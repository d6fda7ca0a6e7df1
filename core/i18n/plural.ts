/**
 * The catalog's one plural rule: Portuguese takes the singular for exactly one ("1 volta", "2
 * voltas"). Messages with a count are functions of it that call this; when the catalogs move to
 * an ICU library these become its plural messages.
 */
export function plural(n: number, one: string, other: string): string {
  return Math.abs(n) === 1 ? one : other;
}
