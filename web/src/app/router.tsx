import { createBrowserRouter, Link } from 'react-router';
import { RedirectIfSignedIn, RequireAuth, RootRedirect } from '../features/auth/guards';
import { LoginPage } from '../features/auth/login-page';
import { t } from '../i18n/messages';

function NotFound() {
  return (
    <main className="page page-status">
      <h1>{t.app.notFoundTitle}</h1>
      <p>{t.app.notFoundBody}</p>
      <Link className="btn" to="/">{t.app.goHome}</Link>
    </main>
  );
}

/** Routes exactly as the spec names them; every one but /login is guarded. Pages load lazily. */
export function createRouter() {
  return createBrowserRouter([
    { path: '/', element: <RootRedirect /> },
    { path: '/login', element: <RedirectIfSignedIn><LoginPage /></RedirectIfSignedIn> },
    {
      path: '/user',
      lazy: async () => {
        const { HomePage } = await import('../features/home/home-page');
        return { element: <RequireAuth><HomePage /></RequireAuth> };
      },
    },
    {
      path: '/enroll',
      lazy: async () => {
        const { EnrollPage } = await import('../features/enroll/enroll-page');
        return { element: <RequireAuth><EnrollPage /></RequireAuth> };
      },
    },
    {
      path: '/laps',
      lazy: async () => {
        const { LapsPage } = await import('../features/laps/laps-page');
        return { element: <RequireAuth><LapsPage /></RequireAuth> };
      },
    },
    { path: '*', element: <RequireAuth><NotFound /></RequireAuth> },
  ]);
}
