// The analytics page (/analytics): pick a session, then study it on a map, charts against distance,
// "where you lose time" and a lap table. Its choices live in the address; its parts load in turn (the
// figures first, the corners once the map and charts have painted) so a phone paints its first screen quickly.
import { SessionSelector, selectableDevices } from '#web/components/session-selector.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useMe } from '#web/lib/session.ts';
import { deviceName } from '#web/lib/device-name.ts';
import type { SessionVideoSlot } from '#web/lib/video-slot.ts';
import { useAnalyticsAddress } from './analytics-address';
import { SessionAnalytics } from './session-analytics';

/**
 * The spec's analytics screen, made whole: hardware, track and date live in the address (reload
 * and share work); what the spec only logged is shown; charts against distance with the best lap
 * as reference; a map coloured by speed or lean sharing the cursor with the charts. `Video`: the
 * rider's video beside them (the video feature's, handed in by the app), on the same cursor.
 */
export function AnalyticsPage({ Video }: { Video?: SessionVideoSlot } = {}) {
  const t = useT();
  const me = useMe().data!;
  const devices = selectableDevices(me);
  const { session, device, openSession } = useAnalyticsAddress();
  const foreign = device !== null && !devices.includes(device) && device !== me.demoDevice && !me.roles.admin;
  // The frame (header, selector) renders once: each answer that arrives re-renders the session's
  // part below it, not the whole page.
  return (
    <Page
      wide
      title={
        <>
          {t('analytics.title')} <span className="hw-id">{deviceName(t, session?.device ?? devices[0]!)}</span>
        </>
      }
      menu={[
        { to: '/user', label: t('menu.home') },
        { to: '/enroll', label: t('menu.meusDadosTitle') },
        { to: '/laps', label: t('menu.laps') },
      ]}
    >
      {foreign && (
        <p className="alert alert-error" role="alert">
          {t('analytics.foreignHardware')}
        </p>
      )}
      <SessionSelector devices={devices} initial={session ?? {}} loaded={session} onLoad={openSession} />
      {!session && <p className="muted prompt">{t('analytics.selectPrompt')}</p>}
      {session && !foreign && <SessionAnalytics session={session} Video={Video} />}
    </Page>
  );
}
