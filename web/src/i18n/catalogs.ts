import { addMessages, hasCatalog, type Language } from '#core/i18n/intl.ts';

/**
 * The words the web downloads when it needs them: a language other than pt-BR, its first-load
 * words before the first render (main.tsx); every language's page words with the first page's code
 * (app/router.tsx), so /login carries only what it shows.
 */
export async function loadCatalog(language: Language): Promise<void> {
  if (hasCatalog(language)) return;
  if (language === 'en') {
    const [shell, preferences] = await Promise.all([
      import('#core/i18n/messages/en-shell.ts'),
      import('#core/i18n/messages/en-preferences.ts'),
    ]);
    addMessages('en', { ...shell.enShell, ...preferences.enPreferences });
  } else if (language === 'es') {
    const [shell, preferences] = await Promise.all([
      import('#core/i18n/messages/es-shell.ts'),
      import('#core/i18n/messages/es-preferences.ts'),
    ]);
    addMessages('es', { ...shell.esShell, ...preferences.esPreferences });
  }
}

let pageWords: Promise<void> | undefined;

/** The pages' words in the page's language, downloaded once. */
export function loadPageWords(language: Language): Promise<void> {
  pageWords ??= (async () => {
    if (language === 'en') addMessages('en', (await import('#core/i18n/messages/en-pages.ts')).enPages);
    else if (language === 'es') addMessages('es', (await import('#core/i18n/messages/es-pages.ts')).esPages);
    else addMessages('pt-BR', (await import('#core/i18n/messages/pt-BR-pages.ts')).ptBRPages);
  })().catch((err: unknown) => {
    pageWords = undefined; // a failed download (no signal) is tried again by the next page
    throw err;
  });
  return pageWords;
}
