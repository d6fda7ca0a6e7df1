/**
 * /login's first screen, as web/src/features/auth/login-page.tsx draws it (the same classes and
 * words): the logo and the one red "Login with Google" button, in the visitor's language, with the
 * error of a failed attempt (`?erro=`). The offline notice and the waiting line are there, hidden:
 * web/src/features/auth/login-first-screen.ts shows them and runs the sign-in.
 */
import { isErrorCode } from '#core/errors.ts';
import type { Language } from '#core/i18n/intl.ts';
import { escapeHtml as h } from '#server/lib/html.ts';
import { translate } from '#server/lib/i18n.ts';

export function loginPageHtml(language: Language, erro: string | undefined): string {
  const t = translate(language);
  const error = isErrorCode(erro) ? t(`errors.${erro}` as const) : erro ? t('errors.auth/invalid-credential') : null;
  return (
    '<main class="login">' +
    `<img class="login-logo" src="/logo.svg" alt="${h(t('app.logoAlt'))}" width="240" height="80">` +
    `<h1 class="visually-hidden">${h(t('app.name'))}</h1>` +
    `<p class="login-subtitle">${h(t('login.subtitle'))}</p>` +
    `<p role="status" class="notice notice-warning" data-login="offline" hidden>${h(t('offline.loginOffline'))}</p>` +
    (error
      ? `<p role="alert" class="alert alert-error"><strong>${h(t('login.errorTitle'))}.</strong> ${h(error)}</p>`
      : '') +
    `<button type="button" class="btn btn-google" data-login="button">${h(t('login.button'))}</button>` +
    `<p class="muted" role="status" data-login="waiting" hidden>${h(t('login.waiting'))}</p>` +
    '</main>'
  );
}
