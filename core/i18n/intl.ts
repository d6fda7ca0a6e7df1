/**
 * The one way to words, numbers and dates in the rider's language, server and web alike: FormatJS's
 * `createIntl` over the catalogs of messages/ (ICU MessageFormat). pt-BR is the source and the
 * default. The server adds every language's whole catalog at start (server/src/lib/i18n.ts); the
 * web starts with pt-BR's first-load words and adds, on demand, its language's and then the pages'
 * (web/src/i18n/catalogs.ts), so that /login carries only what it shows.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { MessageArgs } from './messages/args.generated.ts';
import type { MessageId } from './messages/pt-BR.ts';
import { ptBRPreferences } from './messages/pt-BR-preferences.ts';
import { ptBRShell } from './messages/pt-BR-shell.ts';

export type { MessageId };
import { DEFAULT_LANGUAGE, firstSpoken, LANGUAGES, parseAcceptLanguage, type Language } from '../preferences.ts';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language };

/**
 * The first of the accepted languages (an Accept-Language header, `navigator.languages`, or one
 * tag) Voltas speaks: pt-* is pt-BR, en-* en, es-* es; none of them, pt-BR.
 */
export function negotiateLanguage(accepted: readonly string[] | string | undefined): Language {
  return firstSpoken(typeof accepted === 'string' ? parseAcceptLanguage(accepted) : (accepted ?? [])).language;
}

/** A catalog of another language: every id of pt-BR (a missing one fails the build). */
export type Catalog = Record<MessageId, string>;

/** Each language's words loaded so far (an intl reads its catalog object as it is when it formats). */
const catalogs = new Map<Language, Partial<Catalog>>([['pt-BR', { ...ptBRShell, ...ptBRPreferences }]]);
const cache = createIntlCache();
const intls = new Map<Language, IntlShape>();

/** Adds words to a language: its first ones, or more (a page's) into the catalog its intl already reads. */
export function addMessages(language: Language, messages: Partial<Catalog>): void {
  const catalog = catalogs.get(language);
  if (catalog) Object.assign(catalog, messages);
  else {
    catalogs.set(language, { ...messages });
    intls.delete(language);
  }
}

export function hasCatalog(language: Language): boolean {
  return catalogs.has(language);
}

/** The language's formatters (messages, numbers, dates, lists), made once. Without its catalog yet: pt-BR's words. */
export function intlFor(language: Language): IntlShape {
  let intl = intls.get(language);
  if (!intl) {
    const messages = catalogs.get(language);
    intl = createIntl(
      {
        locale: messages ? language : DEFAULT_LANGUAGE,
        defaultLocale: DEFAULT_LANGUAGE,
        messages: messages ?? catalogs.get(DEFAULT_LANGUAGE)!,
      },
      cache,
    );
    if (messages) intls.set(language, intl);
  }
  return intl;
}

/** The arguments a message takes: none, or exactly those of its pt-BR message (scripts/i18n-types.ts). */
type ArgsOf<Id extends MessageId> = MessageArgs[Id] extends undefined ? [] : [values: MessageArgs[Id]];

/** A message in one language: `t('menu.theme', { theme })`. */
export type Translate = <Id extends MessageId>(id: Id, ...args: ArgsOf<Id>) => string;

/** What a translator needs of an intl: @formatjs/intl's and react-intl's both have it. */
interface MessageFormatter {
  formatMessage(descriptor: { id: string }, values?: Record<string, string | number | Date>): string;
}

const translators = new WeakMap<MessageFormatter, Translate>();

/** The typed message function over an intl (one per intl, so React can keep it as a stable value). */
export function translator(intl: MessageFormatter): Translate {
  let t = translators.get(intl);
  if (!t) {
    t = ((id: MessageId, values?: Record<string, string | number | Date>) =>
      intl.formatMessage({ id }, values)) as Translate;
    translators.set(intl, t);
  }
  return t;
}

/**
 * Whether a string is a message id (for ids built from data, such as an audit action's name). Every
 * language has the same ids, but the web loads the pages' words of the page's language only: any
 * catalog loaded may hold it.
 */
export function isMessageId(id: string): id is MessageId {
  return [...catalogs.values()].some((catalog) => Object.hasOwn(catalog, id));
}
