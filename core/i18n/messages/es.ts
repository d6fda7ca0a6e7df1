import type { Catalog } from '../intl.ts';
import { esPages } from './es-pages.ts';
import { esPreferences } from './es-preferences.ts';
import { esShell } from './es-shell.ts';

/** Spanish, as a rider at a track day says it. Every id of pt-BR.ts (a missing one fails the build). */
export const es: Catalog = { ...esShell, ...esPreferences, ...esPages };
