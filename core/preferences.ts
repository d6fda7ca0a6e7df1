/**
 * The rider's language and units (issue 38): the choices, and the defaults a request's or a
 * browser's languages give when the rider has chosen nothing. Pure: the server negotiates the
 * defaults from Accept-Language, the signed-out web from navigator.languages.
 */
import { defaultUnits, type Units } from './units';

export const LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt-BR';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export interface Preferences {
  language: Language;
  units: Units;
}

/** The language tags of an Accept-Language header, most wanted first (q=0 and `*` dropped). */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  const tags: { tag: string; q: number; at: number }[] = [];
  // A header longer than any browser sends is cut, not parsed in full.
  header
    .slice(0, 1000)
    .split(',')
    .forEach((part, at) => {
      const [rawTag, ...params] = part.trim().split(';');
      const tag = rawTag?.trim() ?? '';
      if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return;
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      if (!Number.isFinite(q) || q <= 0 || q > 1) return;
      tags.push({ tag, q, at });
    });
  // Stable: equal weights keep the order sent.
  return tags.sort((a, b) => b.q - a.q || a.at - b.at).map((t) => t.tag);
}

/** The first of `tags` Voltas speaks, with the tag it came from; Portuguese when none. */
export function firstSpoken(tags: readonly string[]): { language: Language; tag: string } {
  for (const tag of tags) {
    const primary = tag.split('-')[0]!.toLowerCase();
    if (primary === 'pt') return { language: 'pt-BR', tag };
    if (primary === 'en') return { language: 'en', tag };
    if (primary === 'es') return { language: 'es', tag };
  }
  return { language: DEFAULT_LANGUAGE, tag: DEFAULT_LANGUAGE };
}

/** What a rider who chose nothing gets from their languages (most wanted first). */
export function negotiatePreferences(tags: readonly string[]): Preferences {
  const { language, tag } = firstSpoken(tags);
  return { language, units: defaultUnits(tag) };
}
