import type { ReactNode } from 'react';
import { Menu, type MenuItem } from './menu';
import { useT } from '#web/i18n/messages.ts';
import { useOnline, useStoredAt, useUpdate } from '#web/lib/offline.ts';

/**
 * Page frame: a header with the title and the Menu toggle, then the content. `wide`: a page of
 * wide tables uses a desk's whole width (a reading column suits the others).
 */
export function Page(props: {
  title: ReactNode;
  menu: MenuItem[];
  aside?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={props.wide ? 'page page-wide' : 'page'}>
      <header className="page-header">
        <img src="/logo.svg" alt="" width={72} height={24} className="page-logo" />
        <h1 className="page-title">{props.title}</h1>
        <Menu items={props.menu} />
      </header>
      <OfflineBanners />
      {props.aside}
      <main className="page-body">{props.children}</main>
    </div>
  );
}

/**
 * The page's frame while its code and data arrive: its header as the page will have it (the
 * Menu's place kept), so a phone on a slow link shows where it is at once and nothing moves when
 * the page comes.
 */
export function PageSkeleton(props: { title: ReactNode }) {
  const t = useT();
  return (
    <div className="page">
      <header className="page-header">
        <img src="/logo.svg" alt="" width={72} height={24} className="page-logo" />
        <h1 className="page-title">{props.title}</h1>
        <span className="btn btn-secondary skeleton-menu" aria-hidden="true">
          {t('menu.toggle')}
        </span>
      </header>
      <main className="page-body page-status">
        <div className="spinner" aria-hidden="true" />
        <p role="status">{t('app.loading')}</p>
      </main>
    </div>
  );
}

/** Data from the offline copy (and how old it is), and a new version of the app waiting to be taken. */
function OfflineBanners() {
  const t = useT();
  const storedAt = useStoredAt();
  const online = useOnline();
  const update = useUpdate();
  const when = storedAt && {
    date: storedAt.toLocaleDateString('pt-BR'),
    time: storedAt.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' }),
  };
  return (
    <>
      {when && (
        <p className="notice notice-warning offline-banner" role="status" data-testid="offline-banner">
          {t(online ? 'offline.cachedOnline' : 'offline.cached', when)}
        </p>
      )}
      {update && (
        <p className="notice update-banner" role="status">
          {t('offline.update')}{' '}
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void update()}>
            {t('offline.updateNow')}
          </button>
        </p>
      )}
    </>
  );
}
