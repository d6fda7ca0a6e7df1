/**
 * Numbers read from text, the one place for both kinds: the device's (lap.six, gps.six: the exact
 * form it writes, checked by pattern) and another logger's (any decimal form `Number` reads).
 */

/** An integer and a decimal as the device writes them (no sign +, no exponent, at most 15 digits a side). */
export const INT_PATTERN = String.raw`-?\d{1,15}`;
export const NUM_PATTERN = String.raw`-?(?:\d{1,15}(?:\.\d{0,15})?|\.\d{1,15})`;
const INT_RE = new RegExp(`^${INT_PATTERN}$`);
const NUM_RE = new RegExp(`^${NUM_PATTERN}$`);

/** The device's integer (INT_PATTERN, nothing around it); undefined for anything else. */
export function toInt(s: string | undefined): number | undefined {
  return s !== undefined && INT_RE.test(s) ? Number(s) : undefined;
}

/** The device's decimal (NUM_PATTERN, nothing around it); undefined for anything else. */
export function toNum(s: string | undefined): number | undefined {
  return s !== undefined && NUM_RE.test(s) ? Number(s) : undefined;
}

/**
 * A logger's number, surrounding blanks allowed; undefined for anything else (hex, "Infinity",
 * "1,5", an empty field). `Number` reads the decimal forms; what it reads besides (an empty string
 * as 0, "0x1A", "0b1", "0o7") is refused first, and what it cannot read, or reads as infinite, after.
 */
export function num(s: string | undefined): number | undefined {
  const t = s?.trim();
  if (!t || /^0[xbo]/i.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}
