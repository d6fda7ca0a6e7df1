import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, Link } from 'react-router';
import { RedirectIfSignedIn, RequireAuth, RequireRole, RootRedirect } from '../features/auth/guards';
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

type Guard = 'rider' | 'admin' | 'seller';

/** A lazily loaded page behind its guard: riders need a session; admin and seller pages a role. */
function page(load: () => Promise<ComponentType>, guard: Guard = 'rider', before?: () => void) {
  return async () => {
    before?.();
    const Page = await load();
    return { element: guard === 'rider' ? <RequireAuth><Page /></RequireAuth> : <RequireRole role={guard}><Page /></RequireRole> };
  };
}

/** Routes exactly as the spec names them; every one but /login is guarded. Pages load lazily. */
export function createRouter(queryClient: QueryClient) {
  const search = () => new URLSearchParams(window.location.search);
  return createBrowserRouter([
    { path: '/', element: <RootRedirect /> },
    { path: '/login', element: <RedirectIfSignedIn><LoginPage /></RedirectIfSignedIn> },
    { path: '/user', lazy: page(() => import('../features/home/home-page').then((m) => m.HomePage)) },
    { path: '/enroll', lazy: page(() => import('../features/enroll/enroll-page').then((m) => m.EnrollPage)) },
    { path: '/laps', lazy: page(() => import('../features/laps/laps-page').then((m) => m.LapsPage)) },
    {
      path: '/analytics',
      // The chart library and the session's data start downloading beside the page's own code.
      lazy: page(
        () => import('../features/analytics/analytics-page').then((m) => m.AnalyticsPage),
        'rider',
        () => {
          void import('uplot');
          void import('../lib/gps-columns').then((m) => m.prefetchGpsColumns(queryClient, search()));
          void import('../features/analytics/analytics.api').then((m) => m.prefetchAnalytics(queryClient, search()));
        },
      ),
    },
    { path: '/make', lazy: page(() => import('../features/make/make-page').then((m) => m.MakePage)) },
    { path: '/adm', lazy: page(() => import('../features/admin/adm-page').then((m) => m.AdmPage), 'admin') },
    { path: '/seller-adm', lazy: page(() => import('../features/admin/seller-adm-page').then((m) => m.SellerAdmPage), 'admin') },
    { path: '/hardware', lazy: page(() => import('../features/admin/hardware-page').then((m) => m.HardwarePage), 'admin') },
    { path: '/auditoria', lazy: page(() => import('../features/admin/audit-page').then((m) => m.AuditPage), 'admin') },
    { path: '/seller', lazy: page(() => import('../features/seller/seller-page').then((m) => m.SellerPage), 'seller') },
    { path: '*', element: <RequireAuth><NotFound /></RequireAuth> },
  ]);
}
