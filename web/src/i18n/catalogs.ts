import { addCatalog, hasCatalog, type Language } from '#core/i18n/intl.ts';

/**
 * Another language's catalog, downloaded when a page needs it: the first load carries only
 * pt-BR's words (the default), not every language's.
 */
export async function loadCatalog(language: Language): Promise<void> {
  if (hasCatalog(language)) return;
  if (language === 'en') addCatalog('en', (await import('#core/i18n/messages/en.ts')).en);
  else if (language === 'es') addCatalog('es', (await import('#core/i18n/messages/es.ts')).es);
}
