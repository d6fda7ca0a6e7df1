// The admin's firmware page (/firmware, issue 61): upload an image signed off the server, roll it out
// to cohorts and a share of the fleet, watch each rollout as a funnel (offered → downloaded →
// confirmed / failed) that halts itself past its failure threshold, and the versions the fleet runs.
import type { Fleet } from '#core/contracts/device-health.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { QueryStatus } from '#web/components/ui/query-status.tsx';
import { useT } from '#web/i18n/messages.ts';
import { adminMenus } from './admin-menus';
import { useAdminFleet } from './firmware.api';
import { Cohorts } from './cohort-members';
import { Images } from './firmware-images';
import { UploadPanel } from './firmware-upload';
import { RolloutForm } from './rollout-form';
import { Rollouts } from './rollout-list';

export function FirmwarePage() {
  const t = useT();
  const fleet = useAdminFleet(true);
  return (
    <Page title={t('firmware.title')} menu={adminMenus(t).firmware}>
      <UploadPanel />
      <Images />
      <RolloutForm />
      <Rollouts />
      <Cohorts />
      <section className="panel">
        {/* Its table is the region, named as this heading. */}
        <h2>{t('firmware.spreadTitle')}</h2>
        <QueryStatus query={fleet}>{(f) => <VersionSpread versions={f.versions} />}</QueryStatus>
      </section>
    </Page>
  );
}

/** How many devices run each version, per hardware class, most first. */
function VersionSpread({ versions }: { versions: Fleet['versions'] }) {
  const t = useT();
  if (versions.length === 0) return <p className="empty-state">{t('firmware.spreadEmpty')}</p>;
  const total = versions.reduce((n, v) => n + v.devices, 0);
  const rows = [...versions].sort((a, b) => a.class.localeCompare(b.class) || b.devices - a.devices);
  return (
    <div className="table-scroll" role="region" aria-label={t('firmware.spreadTitle')} tabIndex={0}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">{t('fleet.colClass')}</th>
            <th scope="col">{t('firmware.colVersion')}</th>
            <th scope="col">{t('firmware.colDevices')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((v) => (
            <tr key={`${v.class}|${v.version}`}>
              <td>{v.class || t('firmware.spreadUnknown')}</td>
              <td>{v.version || t('firmware.spreadUnknown')}</td>
              <td>
                <span className="spread-bar" aria-hidden="true">
                  <span style={{ width: `${(v.devices / total) * 100}%` }} />
                </span>{' '}
                {t('firmware.spreadDevices', { count: v.devices })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
