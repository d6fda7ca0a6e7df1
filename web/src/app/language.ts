// core/preferences.ts, not core/i18n/intl.ts: the first screen of /login reads this without FormatJS.
import { firstSpoken, isLanguage, type Language } from '#core/preferences.ts';

const KEY = 'voltas.language';

/**
 * The rider's own choice of language, if they made one: kept in this browser from their profile
 * (language-follows-profile.tsx), so that the page opens in it before anything is fetched.
 */
export function chosenLanguage(): Language | undefined {
  try {
    const value = localStorage.getItem(KEY);
    return isLanguage(value) ? value : undefined;
  } catch {
    return undefined; // storage refused (private mode): the browser's languages decide
  }
}

export function chooseLanguage(language: Language): void {
  try {
    localStorage.setItem(KEY, language);
  } catch {
    // nothing kept: the browser's languages decide next time
  }
}

/** The page's language: the rider's choice, else the first of the browser's languages Voltas speaks. */
export function pageLanguage(): Language {
  if (typeof navigator === 'undefined') return firstSpoken([]).language;
  return (
    chosenLanguage() ?? firstSpoken(navigator.languages?.length ? navigator.languages : [navigator.language]).language
  );
}
