// The spec's 'Menu': a toggle that opens the page's links, the theme and the rider's preferences.
import { useId, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { useT } from '#web/i18n/messages.ts';
import { setTheme, storedTheme, subscribeTheme, THEME_CHOICES, type ThemeChoice } from '#web/lib/theme.ts';
import { PreferencesSettings } from './preferences-settings';

export interface MenuItem {
  to: string;
  label: string;
}

/** The spec's 'Menu' toggle: a button that opens and closes a list of links. */
export function Menu({ items }: { items: MenuItem[] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  // Inline below the header (no overlay hiding the page on a phone); Escape closes it.
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {t('menu.toggle')}
      </button>
      <nav
        id={id}
        hidden={!open}
        aria-label={t('menu.toggle')}
        className="menu-list"
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      >
        <ul>
          {items.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className="menu-link">
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
        <ThemeSwitch />
        <PreferencesSettings />
      </nav>
    </>
  );
}

/** Tema: automático → claro → escuro (a light theme reads in sunlight; 'automático' follows the phone). */
function ThemeSwitch() {
  const t = useT();
  const theme = useSyncExternalStore<ThemeChoice>(subscribeTheme, storedTheme, () => 'auto');
  const names = { auto: t('menu.themeAuto'), light: t('menu.themeLight'), dark: t('menu.themeDark') };
  const next = THEME_CHOICES[(THEME_CHOICES.indexOf(theme) + 1) % THEME_CHOICES.length]!;
  return (
    <button type="button" className="menu-link theme-switch" onClick={() => setTheme(next)} data-testid="theme-switch">
      {t('menu.theme', { theme: names[theme] })}
    </button>
  );
}
