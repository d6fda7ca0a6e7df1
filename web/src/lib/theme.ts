// No React here: the pages the server writes (first-screen.ts) apply the theme before the app comes.

/** 'auto' follows the system (prefers-color-scheme); the others are the rider's choice, kept on this device. */
export type ThemeChoice = 'auto' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['auto', 'light', 'dark'];

const KEY = 'voltas-theme';
const listeners = new Set<() => void>();

export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'auto';
  } catch {
    return 'auto'; // storage blocked: follow the system
  }
}

/** Sets `data-theme` on the page (styles.css picks the palette); 'auto' leaves it to the system. */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'auto') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // storage blocked: the choice lasts this page only
  }
  applyTheme(choice);
  for (const l of listeners) l();
}

/** Calls `onChange` whenever the theme is set (for useSyncExternalStore); returns the unsubscribe. */
export function subscribeTheme(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}
