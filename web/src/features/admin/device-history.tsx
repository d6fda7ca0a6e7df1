// One device's kept check-ins on the hardware page: how its battery, storage, uploads and signal went.
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import type { healthHistorySchema } from '#core/contracts/device-health.contract.ts';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { useT } from '#web/i18n/messages.ts';
import { storageSize } from '#web/lib/fleet-format.ts';
import { useDeviceHistory } from './firmware.api';

type CheckIn = z.infer<typeof healthHistorySchema>['history'][number];

const uptime = (s: number) => `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;

export function DeviceHistory(props: { id: string; onClose: () => void }) {
  const t = useT();
  const history = useDeviceHistory(props.id);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a row's button: the keyboard and the screen reader land on it.
  useEffect(() => heading.current?.focus(), [props.id]);
  const dash = t('fleet.unknown');
  const or = <T,>(v: T | null, f: (v: T) => string | number) => (v === null ? dash : f(v));
  const columns: Column<CheckIn>[] = [
    {
      key: 'at',
      label: t('fleet.colWhen'),
      value: (c) => c.at,
      render: (c) => <time dateTime={c.at}>{new Date(c.at).toLocaleString()}</time>,
    },
    { key: 'version', label: t('admin.colVersion'), value: (c) => c.version || dash },
    { key: 'battery', label: t('fleet.colBattery'), value: (c) => or(c.battery, (b) => `${Math.round(b)}%`) },
    { key: 'storage', label: t('fleet.colStorage'), value: (c) => or(c.freeStorageKb, storageSize) },
    { key: 'queued', label: t('fleet.colQueued'), value: (c) => or(c.queuedSessions, (n) => n) },
    { key: 'error', label: t('fleet.colUploadError'), value: (c) => c.lastUploadError || dash },
    { key: 'reset', label: t('fleet.colReset'), value: (c) => c.resetReason || dash },
    { key: 'rssi', label: t('fleet.colSignal'), value: (c) => or(c.rssi, (n) => n) },
    { key: 'uptime', label: t('fleet.colUptime'), value: (c) => or(c.uptimeS, uptime) },
  ];
  return (
    <section className="panel" aria-labelledby="history-title">
      <h2 id="history-title" ref={heading} tabIndex={-1}>
        {t('fleet.historyTitle', { id: props.id })}
      </h2>
      <SortableTable
        label={t('fleet.historyOf', { id: props.id })}
        columns={columns}
        query={history}
        rowKey={(c) => c.at}
        empty={t('fleet.historyEmpty')}
      />
      <p className="actions-row">
        <button type="button" className="btn btn-secondary btn-small" onClick={props.onClose}>
          {t('fleet.historyClose')}
        </button>
      </p>
    </section>
  );
}
