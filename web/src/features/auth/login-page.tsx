// The sign-in page as the app draws it (/login): "Login with Google" opens the sign-in popup, and a new
// sign-in starts with nothing kept from the device's previous user. The server's own first screen of
// /login (login-first-screen.ts) does the same before the app has loaded.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isErrorCode } from '#core/errors.ts';
import { useT } from '#web/i18n/messages.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { forgetKeptAnswers, useOnline } from '#web/lib/offline.ts';
import { signInWithPopup } from './popup-sign-in';

export function LoginPage() {
  const t = useT();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [waiting, setWaiting] = useState(false);
  const erro = params.get('erro');
  const error = isErrorCode(erro) ? t(`errors.${erro}` as const) : erro ? t('errors.auth/invalid-credential') : null;

  const online = useOnline();
  const goToUser = async () => {
    // A new sign-in starts with nothing of whoever used this device before.
    await forgetKeptAnswers();
    await qc.invalidateQueries({ queryKey: queryKeys.me });
    void navigate('/user', { replace: true });
  };

  const onClick = async () => {
    setWaiting(true);
    const result = await signInWithPopup(() => void goToUser());
    setWaiting(false);
    if (result.ok) {
      console.info('You have been successfully logged in!');
      await goToUser();
    } else {
      console.warn('login failed:', result.error);
      void navigate(`/login?erro=${encodeURIComponent(result.error)}`, { replace: true });
    }
  };

  return (
    <main className="login">
      <img className="login-logo" src="/logo.svg" alt={t('app.logoAlt')} width={240} height={80} />
      <h1 className="visually-hidden">{t('app.name')}</h1>
      <p className="login-subtitle">{t('login.subtitle')}</p>
      {!online && (
        <p role="status" className="notice notice-warning">
          {t('offline.loginOffline')}
        </p>
      )}
      {error && (
        <p role="alert" className="alert alert-error">
          <strong>{t('login.errorTitle')}.</strong> {error}
        </p>
      )}
      <button
        type="button"
        className="btn btn-google"
        onClick={() => void onClick()}
        disabled={waiting}
        aria-busy={waiting}
      >
        {t('login.button')}
      </button>
      {waiting && (
        <p className="muted" role="status">
          {t('login.waiting')}
        </p>
      )}
    </main>
  );
}
