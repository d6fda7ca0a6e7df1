import { addCatalog, hasCatalog, type Language } from '#core/i18n/intl.ts';

/**
 * Another language's catalog, downloaded when a page needs it: the first load carries only
 * pt-BR's words (the default), not every language's.
 */
export async function loadCatalog(language: Language): Promise<void> {
  if (hasCatalog(language)) return;
  void addCatalog; // the en and es catalogs come next
}
