// The fleet's health as a sortable table (the hardware page's, and a seller's own devices): the spec's
// columns ID, Owner, Seller, Up ("last seen" now) and Version, then battery, free storage, upload
// errors and, for admins, the rollout a device is in. The server lists devices needing attention
// first; each is marked with a ⚠ and words saying why, never by colour alone.
import type { UseQueryResult } from '@tanstack/react-query';
import type { DeviceHealth, Fleet } from '#core/contracts/device-health.contract.ts';
import type { MessageId } from '#core/i18n/messages/pt-BR.ts';
import { useT, type Translate } from '#web/i18n/messages.ts';
import { storageSize, timeAgo } from '#web/lib/fleet-format.ts';
import { QueryStatus } from './query-status';
import { SortableRows, type Column } from './sortable-table';

const STEP_IDS: Record<string, MessageId> = {
  offered: 'fleet.step.offered',
  downloading: 'fleet.step.downloading',
  downloaded: 'fleet.step.downloaded',
  installing: 'fleet.step.installing',
  rebooted: 'fleet.step.rebooted',
  confirmed: 'fleet.step.confirmed',
  'rolled-back': 'fleet.step.rolled-back',
  failed: 'fleet.step.failed',
};

/** A device's step in a rollout in the page's words (an unknown step as the server named it). */
function stepLabel(t: Translate, step: string): string {
  const id = STEP_IDS[step];
  return id ? t(id as 'fleet.step.offered') : step;
}

/** The attention marks of a device: a ⚠ and the reason's words, one badge each. */
function AttentionMarks({ device }: { device: DeviceHealth }) {
  const t = useT();
  if (device.attention.length === 0) return null;
  return (
    <span className="attention-marks">
      {device.attention.map((a) => (
        <span key={a} className="badge badge-warn" data-attention={a}>
          <span aria-hidden="true">⚠ </span>
          {t(`fleet.attention.${a}`)}
        </span>
      ))}
    </span>
  );
}

export function FleetTable(props: {
  label: string;
  query: UseQueryResult<Fleet>;
  /** The seller's page names its stock instead of the company account. */
  owner?: (d: DeviceHealth) => string;
  /** Admins see the rollout each device is in; sellers do not. */
  withRollout?: boolean;
  /** What an empty fleet says (a seller's differs). */
  empty?: string;
  /** Extra columns (the hardware page's token rotation). */
  extra?: Column<DeviceHealth>[];
}) {
  const t = useT();
  const now = Date.now();
  const dash = t('fleet.unknown');
  const owner = props.owner ?? ((d: DeviceHealth) => d.owner);
  const columns: Column<DeviceHealth>[] = [
    {
      key: 'id',
      label: t('admin.colId'),
      value: (d) => d.id,
      render: (d) => (
        <>
          {d.id}
          <AttentionMarks device={d} />
        </>
      ),
    },
    { key: 'owner', label: t('admin.colOwner'), value: owner },
    { key: 'seller', label: t('admin.colSeller'), value: (d) => d.seller },
    {
      key: 'up',
      label: t('admin.colUp'),
      subtitle: t('fleet.colUpSub'),
      value: (d) => d.lastSeenAt ?? '',
      render: (d) =>
        d.lastSeenAt ? (
          <time dateTime={d.lastSeenAt} title={new Date(d.lastSeenAt).toLocaleString()}>
            {timeAgo(d.lastSeenAt, now)}
          </time>
        ) : (
          t('fleet.never')
        ),
    },
    { key: 'version', label: t('admin.colVersion'), value: (d) => d.version, render: (d) => d.version || dash },
    {
      key: 'battery',
      label: t('fleet.colBattery'),
      value: (d) => d.battery ?? -1,
      render: (d) => (d.battery === null ? dash : `${Math.round(d.battery)}%`),
    },
    {
      key: 'storage',
      label: t('fleet.colStorage'),
      value: (d) => d.freeStorageKb ?? -1,
      render: (d) => (d.freeStorageKb === null ? dash : storageSize(d.freeStorageKb)),
    },
    {
      key: 'uploadErrors',
      label: t('fleet.colUploadErrors'),
      value: (d) => d.uploadErrors,
      render: (d) => (
        <>
          {d.uploadErrors}
          {d.lastUploadError && <span className="cell-note">{t('fleet.lastError', { error: d.lastUploadError })}</span>}
        </>
      ),
    },
  ];
  if (props.withRollout)
    columns.push({
      key: 'rollout',
      label: t('fleet.colRollout'),
      value: (d) => (d.rollout ? `${d.rollout.version} ${d.rollout.state}` : ''),
      render: (d) =>
        d.rollout ? (
          <>
            {t('fleet.rolloutCell', { version: d.rollout.version, step: stepLabel(t, d.rollout.state) })}
            {d.rollout.error && <span className="cell-note">{d.rollout.error}</span>}
          </>
        ) : (
          dash
        ),
    });
  columns.push(...(props.extra ?? []));

  return (
    <QueryStatus query={props.query}>
      {(fleet) => {
        const needing = fleet.devices.filter((d) => d.attention.length).length;
        return (
          <>
            <p role="status" className={needing ? 'attention-summary' : 'muted'}>
              {needing ? <span aria-hidden="true">⚠ </span> : null}
              {t('fleet.attentionCount', { count: needing })}
            </p>
            <p className="muted">
              {t('fleet.attentionLegend', {
                hours: fleet.thresholds.silentAfterHours,
                storage: storageSize(fleet.thresholds.lowStorageKb),
                battery: fleet.thresholds.lowBatteryPct,
              })}
            </p>
            <SortableRows
              label={props.label}
              columns={columns}
              rows={fleet.devices}
              rowKey={(d) => d.id}
              rowClass={(d) => (d.attention.length ? 'row-attention' : '')}
              empty={props.empty ?? t('fleet.empty')}
            />
          </>
        );
      }}
    </QueryStatus>
  );
}
