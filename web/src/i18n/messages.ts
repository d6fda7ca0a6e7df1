// The page's messages: the typed `t` of its language, and an error's or a field's message.
import { useIntl } from 'react-intl';
import { isErrorCode } from '#core/errors.ts';
import { isMessageId, translator, type MessageId, type Translate } from '#core/i18n/intl.ts';

export { isMessageId };
export type { MessageId, Translate };

/** The typed message function of the page's language (react-intl's intl, from the provider at the root). */
export function useT(): Translate {
  return translator(useIntl());
}

/** The message for an error, with the server's request id for support when there is one. */
export function errorMessage(t: Translate, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = t(isErrorCode(code) ? `errors.${code}` : 'errors.storage/unknown');
  const requestId = (error as { requestId?: unknown } | null)?.requestId;
  return typeof requestId === 'string' && requestId ? `${text} ${t('app.errorCodeHint', { id: requestId })}` : text;
}

/** A field's error from its key (the server's and the forms' field error names). */
export function fieldMessage(t: Translate, key: string | undefined): string | undefined {
  if (!key) return undefined;
  const id = `fieldErrors.${key}`;
  return t(isMessageId(id) ? (id as 'fieldErrors.invalid') : 'fieldErrors.invalid');
}
