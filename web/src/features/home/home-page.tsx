// The first screen after sign-in: 'Minhas sessões' with the import, the latest session and the menu of
// what a rider (or seller, admin) can do; the device guide below (folded for a rider with no device).
import { useNavigate } from 'react-router';
import { isImportCollection } from '#core/contracts/session-paths.ts';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useLogout } from '#web/lib/logout.ts';
import { useMe } from '#web/lib/session.ts';
import { homeMenu } from './home-menu';
import { LatestSession } from './latest-session';
import { MySessionsBlock } from './my-sessions-block';
import { UsageGuide } from './usage-guide';

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}

/** An e-mail that wraps after its @ on a narrow card (piloto@ / voltas.local), mid-word only when a part is too long. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

export function HomePage() {
  const t = useT();
  const me = useMe().data!;
  const logout = useLogout();
  const navigate = useNavigate();
  const onLogout = () => {
    logout.mutate(undefined, {
      onSettled: () => void navigate('/login', { replace: true }),
      onError: (err) => console.warn('logout failed', err),
    });
  };
  return (
    <Page
      title={t('app.name')}
      menu={homeMenu(t, me)}
      aside={
        <section className="user-card" aria-label={me.displayName}>
          {me.avatarUrl ? (
            <img
              className="avatar"
              src={me.avatarUrl}
              alt={t('home.avatarAlt', { name: me.displayName })}
              width={56}
              height={56}
              referrerPolicy="no-referrer"
            />
          ) : (
            <span
              className="avatar avatar-initials"
              role="img"
              aria-label={t('home.avatarAlt', { name: me.displayName })}
            >
              {initials(me.displayName)}
            </span>
          )}
          <div className="user-card-text">
            <p className="user-name">{me.displayName}</p>
            <p className="muted">
              <Email address={me.email} />
            </p>
          </div>
          <button type="button" className="btn btn-secondary" onClick={onLogout} disabled={logout.isPending}>
            {logout.isPending ? t('menu.loggingOut') : t('menu.logout')}
          </button>
        </section>
      }
    >
      <MySessionsBlock />
      <LatestSession />
      {/* A rider who only imports files: their sessions and the import first, the device's guide folded below. */}
      <UsageGuide folded={!me.devices.some((d) => !isImportCollection(d))} />
    </Page>
  );
}
