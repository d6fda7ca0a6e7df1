// The admin's devices page (/hardware): hand a device to a seller, register a new device by its id, and
// rotate a device's upload token; a new token is shown once, to be stored on the device. Its table is
// the fleet's health (issue 61): devices silent, short of storage or failing uploads come first.
import { useState, type FormEvent } from 'react';
import type { DeviceHealth } from '#core/contracts/device-health.contract.ts';
import { isDeviceId } from '#core/formats/dates.ts';
import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { FleetTable } from '#web/components/ui/fleet-table.tsx';
import type { Column } from '#web/components/ui/sortable-table.tsx';
import { useT } from '#web/i18n/messages.ts';
import {
  useAdminDevices,
  useAdminSellers,
  useAssignDeviceSeller,
  useRegisterDevice,
  useRotateToken,
} from './admin.api';
import { adminMenus } from './admin-menus';
import { DeviceHistory } from './device-history';
import { useAdminFleet } from './firmware.api';
import { DeviceTokenNotice } from '#web/components/ui/device-token-notice.tsx';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';

/** '[hardware] Add hardware ao vendedor', plus registering devices and rotating their tokens. */
export function HardwarePage() {
  const t = useT();
  const devices = useAdminDevices();
  const fleet = useAdminFleet();
  const sellers = useAdminSellers();
  const assign = useAssignDeviceSeller();
  const register = useRegisterDevice();
  const rotate = useRotateToken();
  const [newId, setNewId] = useState('');
  const [idError, setIdError] = useState(false);
  const [shown, setShown] = useState<{ id: string; token: string } | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  const onRegister = (e: FormEvent) => {
    e.preventDefault();
    const id = newId.trim();
    if (!isDeviceId(id)) {
      setIdError(true);
      return;
    }
    setIdError(false);
    register.mutate(
      { id },
      {
        onSuccess: (res) => {
          setShown(res);
          setNewId('');
        },
      },
    );
  };

  const actions: Column<DeviceHealth>[] = [
    {
      key: 'actions',
      label: t('admin.colActions'),
      sortable: false,
      value: () => '',
      render: (d) => (
        <span className="cell-actions">
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={t('fleet.historyOf', { id: d.id })}
            aria-pressed={historyOf === d.id}
            onClick={() => setHistoryOf(d.id)}
          >
            {t('fleet.history')}
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={rotate.isPending}
            onClick={() => {
              if (window.confirm(t('admin.rotateConfirm', { id: d.id })))
                rotate.mutate(d.id, { onSuccess: (res) => setShown(res) });
            }}
          >
            {t('admin.rotate')}
          </button>
        </span>
      ),
    },
  ];

  return (
    <Page wide title={t('admin.hardwareTitle')} menu={adminMenus(t).hardware}>
      <AssignForm
        first={{
          label: t('admin.selectDevice'),
          options: (devices.data ?? []).map((d) => ({ value: d.id, label: d.seller ? `${d.id} (${d.seller})` : d.id })),
        }}
        second={{
          label: t('admin.selectSeller'),
          options: (sellers.data ?? []).map((u) => ({ value: u.email, label: u.email })),
        }}
        onAssign={(deviceId, seller) => assign.mutateAsync({ deviceId, seller })}
      />
      <section className="panel" aria-labelledby="register-title">
        <h2 id="register-title">{t('admin.registerTitle')}</h2>
        <form className="inline-form" onSubmit={onRegister} noValidate>
          <div className="field">
            <label htmlFor="new-device-id">{t('admin.registerId')}</label>
            <input
              id="new-device-id"
              inputMode="numeric"
              autoComplete="off"
              maxLength={12}
              value={newId}
              onChange={(e) => setNewId(e.target.value)}
              aria-invalid={idError || undefined}
              aria-describedby={idError ? 'new-device-error' : undefined}
            />
            {idError && (
              <p id="new-device-error" className="field-error" role="alert">
                {t('admin.registerIdInvalid')}
              </p>
            )}
          </div>
          <button type="submit" className="btn btn-primary" disabled={register.isPending}>
            {t('admin.registerButton')}
          </button>
        </form>
        <ErrorAlert error={register.error} />
        <ErrorAlert error={rotate.error} />
        {shown && <DeviceTokenNotice id={shown.id} token={shown.token} />}
      </section>
      <FleetTable label={t('admin.hardwareTitle')} query={fleet} withRollout extra={actions} />
      {historyOf && <DeviceHistory key={historyOf} id={historyOf} onClose={() => setHistoryOf(null)} />}
    </Page>
  );
}
