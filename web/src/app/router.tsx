// Which page each address opens, and who may open it: signed-in riders, admins, sellers, or anyone
// (a shared link). Every page but /login loads its code on its first visit, so the first download stays small.
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router';
import { FullPageStatus } from '../components/ui/full-page-status';
import { PageSkeleton } from '../components/ui/page';
import { RedirectIfSignedIn, RequireAuth, RequireRole, RootRedirect } from '../features/auth/guards';
import { LoginPage } from '../features/auth/login-page';
import { type Translate, useT } from '../i18n/messages';
import { loadPageWords } from '../i18n/catalogs';
import { pageLanguage } from './language';
import { codeOnDemand } from '../lib/code-on-demand';
import { deviceName } from '../lib/device-name';
import { prefetchLapsPage } from '../lib/sessions-api';

function NotFound() {
  const t = useT();
  return (
    <main className="page page-status">
      <h1>{t('app.notFoundTitle')}</h1>
      <p>{t('app.notFoundBody')}</p>
      <Link className="btn" to="/">
        {t('app.goHome')}
      </Link>
    </main>
  );
}

type Guard = 'rider' | 'admin' | 'seller' | 'public';

/** A page with what the app hands it (another feature's slot: its code in the page's own file), as a component of no props. */
function withProps<P extends object>(Page: ComponentType<P>, props: P): ComponentType {
  return function PageWithProps() {
    return <Page {...props} />;
  };
}

/**
 * A page whose code loads on its first visit, behind its guard: riders need a session; admin and
 * seller pages a role. The download starts when the route first renders, beside the guard's
 * session check (not after it); `prefetch` starts the page's data with the address's query.
 * Loaded without Suspense (see code-on-demand.ts): React's fallback throttle would hold back a
 * page whose code and data are already there. A failed download (offline at the track, or an old tab after a
 * release) shows a message with a retry instead of a blank screen.
 */
function lazyPage(
  load: () => Promise<ComponentType>,
  guard: Guard = 'rider',
  prefetch?: (search: URLSearchParams) => void,
  /** The page's title, shown in its frame while its code and the rider's session arrive. */
  title?: (search: URLSearchParams, t: Translate) => ReactNode,
) {
  // The page's words come with its code (the first page's download brings every page's).
  const code = codeOnDemand(() => Promise.all([load(), loadPageWords(pageLanguage())]).then(([page]) => page));
  /** `hold`: the rider's session is still being checked (the frame shows, nothing of the page yet). */
  function PageCode({ skeleton, hold = false }: { skeleton: ReactNode; hold?: boolean }) {
    const t = useT();
    const { Component, failed } = code.useCode(!hold);
    if (Component && !hold) return <Component />;
    // Retry reloads: after a release the old file names are gone, and the new page knows the new ones.
    if (failed) return <FullPageStatus errorText={t('app.pageLoadFailed')} onRetry={() => window.location.reload()} />;
    return skeleton ?? <FullPageStatus loading />;
  }
  return function LazyPage() {
    const { search } = useLocation();
    const t = useT();
    const skeleton = title ? <PageSkeleton title={title(new URLSearchParams(search), t)} /> : undefined;
    // The data first, then the code: a browser opens six connections per host, and the page's
    // code is a dozen small files. Asked while rendering (idempotent: repeated asks share one
    // download), not in an effect, which would queue the data behind the code.
    // With a frame to show, the page's code and data are asked for once that frame has painted: on
    // a phone the frame then shows at once, not after the code's download and start-up (its data
    // was already asked for by the server's preload header, where it has one).
    const afterPaint = Boolean(title);
    useMemo(() => !afterPaint && prefetch?.(new URLSearchParams(search)), [search, afterPaint]);
    if (!afterPaint) code.start().catch(() => {}); // PageCode shows a failure
    useEffect(() => {
      if (!afterPaint) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          prefetch?.(new URLSearchParams(search));
          code.start().catch(() => {});
        });
      });
      return () => {
        cancelAnimationFrame(frame);
        clearTimeout(timer);
      };
    }, [search, afterPaint]);
    if (guard === 'public') return <PageCode skeleton={skeleton} />;
    return guard === 'rider' ? (
      // The same PageCode while the session is checked and after: its frame stays one element on the
      // screen (a frame drawn again counts as a new paint, and a phone's first paint as a late one).
      <RequireAuth loading={skeleton && <PageCode skeleton={skeleton} hold />}>
        <PageCode skeleton={skeleton} />
      </RequireAuth>
    ) : (
      <RequireRole role={guard}>
        <PageCode skeleton={skeleton} />
      </RequireRole>
    );
  };
}

/**
 * Routes exactly as the spec names them; every one but /login is guarded. Pages load lazily.
 * Declarative routes, not a data router: nothing here uses loaders or actions, and the data
 * router's code would weigh on the first page load.
 */
export function createRoutes(queryClient: QueryClient) {
  const pages: [path: string, Page: ComponentType][] = [
    ['/user', lazyPage(() => import('../features/home/home-page').then((m) => m.HomePage))],
    ['/enroll', lazyPage(() => import('../features/enroll/enroll-page').then((m) => m.EnrollPage))],
    [
      '/laps',
      // The selector's lists (and the address's laps) are asked for beside the page's code.
      lazyPage(
        () => import('../features/laps/laps-page').then((m) => m.LapsPage),
        'rider',
        (search) => prefetchLapsPage(queryClient, search),
        (_search, t) => t('laps.title'),
      ),
    ],
    [
      '/analytics',
      // The session's figures and laps start downloading beside the page's own code (chart library
      // included); opened directly, the server's `Link: rel=preload` header has already started them.
      // The GPS file is asked for by the page once its frame has painted (analytics-page.tsx).
      lazyPage(
        () =>
          Promise.all([import('../features/analytics/analytics-page'), import('./video-slots')]).then(([m, video]) =>
            withProps(m.AnalyticsPage, { Video: video.SessionVideoOnDemand }),
          ),
        'rider',
        (search) => {
          void import('../features/analytics/analytics.api').then((m) => m.prefetchAnalytics(queryClient, search));
        },
        // As the page titles itself (analytics-page.tsx): the same words, so nothing moves when it comes.
        (search, t) => (
          <>
            {t('analytics.title')} <span className="hw-id">{deviceName(t, search.get('hw') ?? '')}</span>
          </>
        ),
      ),
    ],
    ['/make', lazyPage(() => import('../features/make/make-page').then((m) => m.MakePage))],
    ['/importar', lazyPage(() => import('../features/imports/import-page').then((m) => m.ImportPage))],
    ['/sessoes', lazyPage(() => import('../features/sessions/my-sessions-page').then((m) => m.MySessionsPage))],
    ['/progresso', lazyPage(() => import('../features/progress/progress-page').then((m) => m.ProgressPage))],
    [
      '/comparar',
      lazyPage(() =>
        Promise.all([import('../features/compare/compare-page'), import('./video-slots')]).then(([m, video]) =>
          withProps(m.ComparePage, { Video: video.LapVideosOnDemand }),
        ),
      ),
    ],
    ['/links', lazyPage(() => import('../features/sessions/shares-page').then((m) => m.SharesPage))],
    // A shared link: no sign-in.
    ['/v/:token', lazyPage(() => import('../features/shared/shared-page').then((m) => m.SharedPage), 'public')],
    ['/adm', lazyPage(() => import('../features/admin/adm-page').then((m) => m.AdmPage), 'admin')],
    ['/seller-adm', lazyPage(() => import('../features/admin/seller-adm-page').then((m) => m.SellerAdmPage), 'admin')],
    ['/hardware', lazyPage(() => import('../features/admin/hardware-page').then((m) => m.HardwarePage), 'admin')],
    ['/firmware', lazyPage(() => import('../features/admin/firmware-page').then((m) => m.FirmwarePage), 'admin')],
    ['/auditoria', lazyPage(() => import('../features/admin/audit-page').then((m) => m.AuditPage), 'admin')],
    ['/pistas', lazyPage(() => import('../features/admin/tracks-page').then((m) => m.TracksPage), 'admin')],
    ['/seller', lazyPage(() => import('../features/seller/seller-page').then((m) => m.SellerPage), 'seller')],
  ];

  return function AppRoutes() {
    return (
      <BrowserRouter>
        <Routes>
          <Route path="/" element={<RootRedirect />} />
          <Route
            path="/login"
            element={
              <RedirectIfSignedIn>
                <LoginPage />
              </RedirectIfSignedIn>
            }
          />
          {pages.map(([path, Page]) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
          <Route
            path="*"
            element={
              <RequireAuth>
                <NotFound />
              </RequireAuth>
            }
          />
        </Routes>
      </BrowserRouter>
    );
  };
}
