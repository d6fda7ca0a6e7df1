import type { QueryClient } from '@tanstack/react-query';
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

/** Routes exactly as the spec names them; every one but /login is guarded. Pages load lazily. */
export function createRouter(queryClient: QueryClient) {
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
    {
      path: '/analytics',
      lazy: async () => {
        // The chart library and the session's data start downloading beside the page's code.
        void import('uplot');
        void import('../lib/gps-columns').then((m) => m.prefetchGpsColumns(queryClient, new URLSearchParams(window.location.search)));
        const prefetch = import('../features/analytics/analytics.api').then((api) => api.prefetchAnalytics(queryClient, new URLSearchParams(window.location.search)));
        const { AnalyticsPage } = await import('../features/analytics/analytics-page');
        await prefetch;
        return { element: <RequireAuth><AnalyticsPage /></RequireAuth> };
      },
    },
    {
      path: '/make',
      lazy: async () => {
        const { MakePage } = await import('../features/make/make-page');
        return { element: <RequireAuth><MakePage /></RequireAuth> };
      },
    },
    {
      path: '/adm',
      lazy: async () => {
        const { AdmPage } = await import('../features/admin/adm-page');
        return { element: <RequireRole role="admin"><AdmPage /></RequireRole> };
      },
    },
    {
      path: '/seller-adm',
      lazy: async () => {
        const { SellerAdmPage } = await import('../features/admin/seller-adm-page');
        return { element: <RequireRole role="admin"><SellerAdmPage /></RequireRole> };
      },
    },
    {
      path: '/hardware',
      lazy: async () => {
        const { HardwarePage } = await import('../features/admin/hardware-page');
        return { element: <RequireRole role="admin"><HardwarePage /></RequireRole> };
      },
    },
    {
      path: '/auditoria',
      lazy: async () => {
        const { AuditPage } = await import('../features/admin/audit-page');
        return { element: <RequireRole role="admin"><AuditPage /></RequireRole> };
      },
    },
    {
      path: '/seller',
      lazy: async () => {
        const { SellerPage } = await import('../features/seller/seller-page');
        return { element: <RequireRole role="seller"><SellerPage /></RequireRole> };
      },
    },
    { path: '*', element: <RequireAuth><NotFound /></RequireAuth> },
  ]);
}
