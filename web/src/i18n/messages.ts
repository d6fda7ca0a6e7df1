import { fill, ptBR } from '../../../core/i18n/pt-BR';
import { isErrorCode } from '../../../core/errors';

/** The web's handle on the one pt-BR catalog (core/i18n/pt-BR.ts). */
export const t = ptBR;
export { fill };

/** Portuguese message for any error a user can meet. */
export function errorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (isErrorCode(code)) return ptBR.errors[code];
  return ptBR.errors['storage/unknown'];
}

export function fieldMessage(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return key in ptBR.fieldErrors ? ptBR.fieldErrors[key as keyof typeof ptBR.fieldErrors] : ptBR.fieldErrors.invalid;
}
