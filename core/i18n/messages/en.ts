import type { Catalog } from '../intl.ts';
import { enPages } from './en-pages.ts';
import { enPreferences } from './en-preferences.ts';
import { enShell } from './en-shell.ts';

/** English, as a rider at a track day says it. Every id of pt-BR.ts (a missing one fails the build). */
export const en: Catalog = { ...enShell, ...enPreferences, ...enPages };
