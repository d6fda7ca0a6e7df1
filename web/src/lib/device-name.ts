import { isImportCollection } from '#core/contracts/session-paths.ts';
import type { Translate } from '../i18n/messages';

/** How a session's device is named on screen: a rider's import collection is "Importados", not its id. */
export function deviceName(t: Translate, id: string): string {
  return isImportCollection(id) ? t('imports.collection') : id;
}
