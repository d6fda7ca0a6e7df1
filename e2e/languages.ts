import { expect, type Page } from '@playwright/test';

// Issue 38: a page in one language shows no words of another. The lists are words of the interface
// that belong to one language only; a word two languages share ("pista", "curva" in Spanish) is left
// out of that language's check.

const words = (list: string[]) => new RegExp(`(?<!\\p{L})(${list.join('|')})(?!\\p{L})`, 'iu');

/** Portuguese words of the interface that are neither English nor Spanish. */
const PORTUGUESE_ONLY = [
  'não',
  'você',
  'sessão',
  'sessões',
  'melhor',
  'carregar',
  'carregando',
  'selecione',
  'escolha',
  'inclinação',
  'velocidade',
  'minhas',
  'meus',
  'minha',
  'meu',
  'seu',
  'sua',
  'seus',
  'suas',
  'evolução',
  'bateria',
  'distância',
  'setores',
  'setor',
  'dados',
  'olá',
  'análise',
  'compartilhar',
  'compartilhado',
  'volta',
  'voltas',
  'tempo',
  'sair',
  'saída',
  'hoje',
  'ontem',
  'ainda',
  'também',
  'nenhum',
  'nenhuma',
  'arquivo',
  'arquivos',
  'excluir',
  'revogar',
  'cadastrar',
  'cadastrado',
  'recorde',
  'vendas',
  'usuário',
  'desenho',
  'auditoria',
  'dono',
  'com',
  'sem',
  'uma',
  'pelo',
  'pela',
  'até',
  'então',
  'aqui',
];

/** Portuguese words that are Spanish too (an English page must not show them). */
const PORTUGUESE_AND_SPANISH = [
  'pista',
  'pistas',
  'curva',
  'curvas',
  'entrada',
  'entrar',
  'salvar',
  'largada',
  'trecho',
  'vendedor',
  'comprador',
  'para',
];

/** Spanish words of the interface that are neither English nor Portuguese. */
const SPANISH_ONLY = [
  'sesión',
  'sesiones',
  'vuelta',
  'vueltas',
  'mejor',
  'cargar',
  'cargando',
  'seleccione',
  'selecciona',
  'elige',
  'circuito',
  'circuitos',
  'velocidad',
  'mis',
  'datos',
  'hola',
  'análisis',
  'compartir',
  'compartido',
  'enlace',
  'enlaces',
  'tramo',
  'tiempo',
  'salida',
  'tanda',
  'guardar',
  'ningún',
  'ninguna',
  'aquí',
  'archivo',
  'archivos',
  'borrar',
  'revocar',
  'ventas',
  'usuario',
  'vértice',
  'frenada',
  'con',
  'sin',
  'una',
  'del',
  'los',
  'las',
];

/** English words of the interface that are neither Portuguese nor Spanish. */
const ENGLISH_ONLY = [
  'the',
  'lap',
  'laps',
  'session',
  'sessions',
  'track',
  'tracks',
  'best',
  'load',
  'loading',
  'select',
  'choose',
  'speed',
  'my',
  'your',
  'save',
  'share',
  'shared',
  'time',
  'corner',
  'corners',
  'sign',
  'settings',
  'delete',
  'upload',
  'device',
  'rider',
  'bike',
  'heat',
  'brake',
  'braking',
  'apex',
  'owner',
  'seller',
  'buyer',
  'true',
  'false',
  'and',
  'with',
  'from',
  'of',
  'no',
];

/** The words a page in `language` must not show. */
export const FOREIGN: Record<'en' | 'es', RegExp> = {
  en: words([...PORTUGUESE_ONLY, ...PORTUGUESE_AND_SPANISH, ...SPANISH_ONLY]),
  // "no" is Spanish too.
  es: words([...PORTUGUESE_ONLY, ...ENGLISH_ONLY.filter((w) => w !== 'no')]),
};

/** Names, not words: the product, the demo accounts, the spec's English button, and a command to type. */
const NAMES = [
  'Login with Google',
  'npx voltas firmware sign',
  'Voltas',
  'Ana Piloto',
  'Bruno Vendedor',
  'Carla Admin',
];

/** What the device's own screen shows, in English whatever the page's language (the spec's words). */
const DEVICE_SCREEN = [
  'Send',
  'Delete',
  'Update',
  'Box',
  'Info',
  'Pitlane',
  'Slow Down',
  'Ready to race',
  'Warm up the tires',
];

/** Everything a rider reads or hears on the page: its text, labels, titles, alt texts, options, and its description. */
async function wordsOf(page: Page): Promise<string> {
  const text = await page.evaluate(() => {
    const attributes = [...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')].flatMap((el) =>
      ['aria-label', 'title', 'alt', 'placeholder'].map((a) => el.getAttribute(a) ?? ''),
    );
    const options = [...document.querySelectorAll('option')].map((o) => o.textContent ?? '');
    const meta = [
      ...document.querySelectorAll('meta[name=description], meta[property$=title], meta[property$=description]'),
    ].map((m) => m.getAttribute('content') ?? '');
    return [document.title, document.body.innerText, ...attributes, ...options, ...meta].join('\n');
  });
  return withoutNames(text);
}

/** The text without names: NAMES, e-mail and web addresses, file names (lap.six), and lines that are a device screen's word. */
export function withoutNames(text: string): string {
  return NAMES.reduce((rest, name) => rest.replaceAll(name, ''), text)
    .replace(/\S+@\S+/g, '')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/[\w-]+\.(six|gpx|csv|vbo|sa|gz|nmea)\b/gi, '')
    .split('\n')
    .filter((line) => !DEVICE_SCREEN.includes(line.trim()))
    .join('\n');
}

/** The page is in `language` (its lang, and no word of another language) and fits 360 px. */
export async function speaksOnly(page: Page, language: string, pattern: RegExp) {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  // Every line with a foreign word, so that one run shows them all.
  const foreign = (await wordsOf(page)).split('\n').filter((line) => pattern.test(line));
  expect.soft([...new Set(foreign)], `${page.url()}: words of another language`).toEqual([]);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${page.url()}: page width`).toBeLessThanOrEqual(360);
}

/**
 * Numbers written with another language's decimal separator: a point in pt-BR and es, a comma in
 * en; signed ones (a gap), and ones with one, two or four+ decimals (`4.290 m` is a thousands point
 * in pt-BR, `4,290 m` in en). Lap times (the spec's mm:ss.mmm) and versions (GPX 1.0, 1.1; firmware
 * 1.2.0) apart.
 */
export function wrongDecimals(text: string, language: 'pt-BR' | 'en' | 'es'): string[] {
  const rest = text
    .replace(/\d{1,2}:\d{2}\.\d{3}(?!\d)/g, '')
    .replace(/GPX \(1\.0 (e|and|y) 1\.1\)/g, '')
    .replace(/\bv?\d+\.\d+\.\d+\b/g, '');
  const sep = language === 'en' ? ',' : '\\.';
  return rest.match(new RegExp(`[+\\-−]\\d+${sep}\\d+|\\d${sep}\\d{1,2}(?!\\d)|\\d${sep}\\d{4,}`, 'g')) ?? [];
}
