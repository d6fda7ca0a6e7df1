/**
 * Build step: uPlot makes two Intl objects as its module is evaluated, a number format (its
 * default axis and legend values) and the local time zone (time axes). The first Intl object a
 * page makes loads ICU's data: 25–50 ms of the main thread in Chromium on these machines, paid by
 * every new tab, right on the analytics page's way to its first chart and map. Our charts write
 * their own numbers (web/src/lib/format.ts, no Intl) and have no time axis, so neither object is
 * ever used there; this makes both lazy, made on first use if ever, and uPlot behaves as before.
 *
 * Strict: if a new uPlot's source no longer has these lines, the build fails here rather than
 * quietly paying the cost again (lazy-intl.test.ts runs it on the installed uPlot).
 */
import type { Plugin } from 'vite';

const UPLOT = /[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/;

const REPLACEMENTS: readonly (readonly [from: string, to: string])[] = [
  [
    "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    "let numFormatter;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  ],
  [
    'const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    'let localTzName;\nconst localTz = () => (localTzName ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);',
  ],
  ['else if (tz == localTz)', 'else if (tz == localTz())'],
];

/** uPlot's ESM source with its Intl objects made on first use; throws if a line is not found. */
export function lazyUplotIntl(source: string): string {
  let code = source;
  for (const [from, to] of REPLACEMENTS) {
    if (code.split(from).length !== 2) throw new Error(`lazy-intl: uPlot's source changed, this line is no longer there once: ${from.split('\n')[0]}`);
    code = code.replace(from, to);
  }
  return code;
}

export function lazyIntl(): Plugin {
  return {
    name: 'voltas:lazy-intl',
    transform(code, id) {
      return UPLOT.test(id) ? { code: lazyUplotIntl(code), map: null } : null;
    },
  };
}
