import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// One name per thing (docs/i18n.md, "Glossary"): a retired synonym coming back into any catalog
// fails here. The spec's own labels keep their words and are the only ids allowed to.
const languages = ['pt-BR', 'en', 'es'] as const;
type Language = (typeof languages)[number];

const retired: Record<Language, RegExp[]> = {
  'pt-BR': [/\baparelhos?\b/i, /\bdispositivos?\b/i, /\blaptime\b/i, /\banalisar\b/i, /\bver análise\b/i],
  en: [/\bhardware\b/i, /\blaptime\b/i, /\banaly[sz]e\b/i, /\b(see|view) analysis\b/i],
  es: [/\bhardware\b/i, /\blaptime\b/i, /\baparatos?\b/i, /\banalizar\b/i, /\bver análisis\b/i],
};

// The spec's labels ('Selecione um Laptime', the menu entry and page tag 'hardware') and the
// firmware's "hardware class" (a board revision, not the rider's device) keep their words.
const allowed: Record<string, RegExp> = {
  'seller.selectLaptime': /\blaptime\b/i,
  'seller.laptimeHint': /^laptime\b/i,
  'menu.hardware': /.*/,
  'admin.hardwareTitle': /^\[hardware\]/,
  'errors.firmware/seq-not-above': /hardware class|clase de hardware/,
};

async function catalogOf(language: Language): Promise<Record<string, string>> {
  const dir = new URL('./messages/', import.meta.url);
  const files = readdirSync(dir).filter((name) => name.startsWith(`${language}-`) || name === `${language}.ts`);
  const catalog: Record<string, string> = {};
  for (const file of files) {
    const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const part of Object.values(mod))
      if (part && typeof part === 'object') Object.assign(catalog, part as Record<string, string>);
  }
  return catalog;
}

describe('one name per thing in every catalog', () => {
  for (const language of languages) {
    it(`${language} uses no retired synonym outside the spec's labels`, async () => {
      const catalog = await catalogOf(language);
      expect(Object.keys(catalog).length).toBeGreaterThan(500);
      const found: string[] = [];
      for (const [id, text] of Object.entries(catalog)) {
        const rest = allowed[id] ? text.replace(allowed[id], '') : text;
        for (const word of retired[language]) if (word.test(rest)) found.push(`${id}: ${text}`);
      }
      expect(found).toEqual([]);
    });
  }

  it('fails on a retired word (the check itself can fail)', () => {
    expect(retired['pt-BR'].some((word) => word.test('Ligue o dispositivo'))).toBe(true);
    expect(retired.en.some((word) => word.test('See analysis'))).toBe(true);
  });
});
