/**
 * The one place the server writes the web app's HTML: the built pages read once (index.html, the
 * app; first-screen.html, the pages the server writes whole), in the visitor's language, with a
 * page's own head and, for /login and a shared link, its first screen (web/src/first-screen.ts
 * wires it and starts the app when the page needs it).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '#core/i18n/intl.ts';
import { escapeHtml } from './html';
import { translate } from './i18n';

export interface BuiltPages {
  /** The app's page (undefined before `npm run build:web`). */
  app(): string | undefined;
  /** The page first screens are written into (undefined before the build). */
  firstScreen(): string | undefined;
}

export function builtPages(root: string): BuiltPages {
  const read = (file: string) => {
    const full = path.join(root, file);
    return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
  };
  let app: string | undefined;
  let firstScreen: string | undefined;
  return { app: () => (app ??= read('index.html')), firstScreen: () => (firstScreen ??= read('first-screen.html')) };
}

/** A built page in `language`: its `lang`, its description in that language, and `head` added. */
function inLanguage(page: string, language: Language, head = ''): string {
  return (
    page
      .replace('<html lang="pt-BR">', `<html lang="${language}">`)
      // What a reader without scripts (or a link preview) sees of the page, in the visitor's language.
      .replace(
        /<meta name="description" content="[^"]*"/,
        `<meta name="description" content="${escapeHtml(translate(language)('app.description'))}"`,
      )
      .replace('</head>', `${head}</head>`)
  );
}

interface FirstScreen {
  language: Language;
  /** Which first screen it is (web/src/first-screen.ts wires its controls by it). */
  page: 'login' | 'shared';
  /** The first screen's HTML, every text in it escaped by its writer. */
  body: string;
  head?: string;
  /** The page needs the app at once, not on the visitor's first click. */
  startApp?: boolean;
}

/** A page with its first screen written in, as first-screen.html lays it out. */
export function firstScreenPage(pages: BuiltPages, s: FirstScreen): string {
  const template =
    pages.firstScreen() ??
    '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Voltas</title></head><body><div id="root"></div></body></html>';
  // The app's entry, as its own page names it: the first screen's script starts the app from it.
  const app = pages.app()?.match(/<script type="module"[^>]* src="([^"]+)"/)?.[1] ?? '';
  const root = `<div id="root" data-page="${s.page}" data-app="${escapeHtml(app)}"${s.startApp ? ' data-start="now"' : ''}>`;
  return inLanguage(template, s.language, s.head).replace(
    '<div id="root"></div>',
    `${root}<div data-first-screen>${s.body}</div></div>`,
  );
}
