import { ptBRPages } from './pt-BR-pages.ts';
import { ptBRPreferences } from './pt-BR-preferences.ts';
import { ptBRShell } from './pt-BR-shell.ts';

/**
 * The source catalog: every user-facing text in Brazilian Portuguese, as ICU MessageFormat strings
 * under dotted ids. en.ts and es.ts have exactly these ids (typed, and tested for the same
 * arguments). The spec's labels stay exactly as the spec writes them, "Login with Google" included.
 */
export const ptBR = {
  ...ptBRShell,
  ...ptBRPreferences,
  ...ptBRPages,
} as const;

export type MessageId = keyof typeof ptBR;
