import type { FastifyRequest } from 'fastify';
import { addMessages, intlFor, negotiateLanguage, translator, type Language, type Translate } from '#core/i18n/intl.ts';
import { en } from '#core/i18n/messages/en.ts';
import { es } from '#core/i18n/messages/es.ts';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';

// The server speaks every language at once: all catalogs from the start.
addMessages('pt-BR', ptBR);
addMessages('en', en);
addMessages('es', es);

/** The language of a request: its Accept-Language (the web app sends the page's), else pt-BR. */
export function requestLanguage(req: Pick<FastifyRequest, 'headers'>): Language {
  return negotiateLanguage(req.headers['accept-language']);
}

/** The message function of a language. */
export function translate(language: Language): Translate {
  return translator(intlFor(language));
}
