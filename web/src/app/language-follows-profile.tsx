import { useIsMutating } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Language } from '#core/i18n/intl.ts';
import { usePreferences } from '#web/lib/preferences.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { chooseLanguage, chosenLanguage } from './language';

/**
 * The rider's language follows their profile to any device: once their preferences are read (or
 * saved from the menu), a choice this browser does not know yet is kept here and the page opens
 * again in it. The words are set at boot, so a change of language is one reload.
 */
export function LanguageFollowsProfile({ current }: { current: Language }) {
  const preferences = usePreferences();
  const saving = useIsMutating({ mutationKey: queryKeys.preferences }) > 0;
  const chosen = preferences.data?.chosen ? preferences.data.language : undefined;
  const settled = !saving && !preferences.isFetching;
  useEffect(() => {
    if (!chosen || !settled) return;
    if (chosen !== chosenLanguage()) chooseLanguage(chosen);
    if (chosen !== current) window.location.reload();
  }, [chosen, settled, current]);
  return null;
}
