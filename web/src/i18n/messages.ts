import { fill, ptBR } from '#core/i18n/pt-BR.ts';
import { isErrorCode } from '#core/errors.ts';

/** The web's handle on the one pt-BR catalog (core/i18n/pt-BR.ts). */
export const t = ptBR;
export { fill };

/** Portuguese message for any error a user can meet. */
/** The Portuguese message for an error, with the server's request id for support when there is one. */
export function errorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = isErrorCode(code) ? ptBR.errors[code] : ptBR.errors['storage/unknown'];
  const requestId = (error as { requestId?: unknown } | null)?.requestId;
  return typeof requestId === 'string' && requestId ? `${text} ${fill(ptBR.errorCodeHint, { id: requestId })}` : text;
}

export function fieldMessage(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key in ptBR.fieldErrors ? ptBR.fieldErrors[key as keyof typeof ptBR.fieldErrors] : ptBR.fieldErrors.invalid;
}
