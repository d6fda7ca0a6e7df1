// The admin's users page (/adm): give a device to a user (the device's new upload token shown once),
// and disable or re-enable an account; the table lists every user with their devices and profile.
import type { AdminUser } from '#core/contracts/admin.contract.ts';
import { useState } from 'react';
import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { DeviceTokenNotice } from '#web/components/ui/device-token-notice.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useMe } from '#web/lib/session.ts';
import { useAdminDevices, useAdminUsers, useAssignOwner, useSetDisabled } from './admin.api';
import { adminMenus } from './admin-menus';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';

/** '[adm] Add owner em hardware': links a user and a device; lists every user. */
export function AdmPage() {
  const t = useT();
  const me = useMe().data!;
  const users = useAdminUsers();
  const devices = useAdminDevices();
  const assign = useAssignOwner();
  const setDisabled = useSetDisabled();
  // The new token after a change of owner: shown once, here.
  const [issued, setIssued] = useState<{ id: string; token: string | null } | null>(null);
  const columns: Column<AdminUser>[] = [
    { key: 'id', label: t('admin.colId'), value: (u) => u.email },
    { key: 'hardware', label: t('admin.colHardware'), value: (u) => u.hardware.join(', ') },
    { key: 'adm', label: t('admin.colAdm'), value: (u) => u.adm },
    { key: 'nomePiloto', label: t('admin.colNomePiloto'), value: (u) => u.nomePiloto },
    { key: 'numeroMoto', label: t('admin.colNumeroMoto'), value: (u) => u.numeroMoto },
    { key: 'seller', label: t('admin.colSeller'), value: (u) => u.seller },
    { key: 'wifi', label: t('admin.colWifi'), value: (u) => u.wifi },
    { key: 'userSeller', label: t('admin.colUserSeller'), value: (u) => u.userSeller },
    {
      key: 'status',
      label: t('admin.colStatus'),
      value: (u) => (u.disabled ? t('admin.disabled') : t('admin.active')),
    },
    {
      key: 'actions',
      label: t('admin.colActions'),
      sortable: false,
      value: () => '',
      render: (u) =>
        u.email === me.email ? null : (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={setDisabled.isPending}
            onClick={() => setDisabled.mutate({ email: u.email, disabled: !u.disabled })}
          >
            {u.disabled ? t('admin.enable') : t('admin.disable')}
          </button>
        ),
    },
  ];
  return (
    <Page wide title={t('admin.admTitle')} menu={adminMenus(t).adm}>
      <AssignForm
        first={{
          label: t('admin.selectUser'),
          options: (users.data ?? []).map((u) => ({ value: u.email, label: u.email })),
        }}
        second={{
          label: t('admin.selectDevice'),
          options: (devices.data ?? []).map((d) => ({
            value: d.id,
            label: `${d.id}${d.owner ? ` (${d.owner})` : ''}`,
          })),
        }}
        onAssign={async (email, deviceId) => setIssued(await assign.mutateAsync({ email, deviceId }))}
      />
      {issued &&
        (issued.token ? (
          <DeviceTokenNotice id={issued.id} token={issued.token} message="admin.newOwnerToken" />
        ) : (
          <p className="notice" role="status">
            {t('admin.ownerUnchanged', { id: issued.id })}
          </p>
        ))}
      <ErrorAlert error={setDisabled.error} />
      <SortableTable
        label={t('admin.admTitle')}
        columns={columns}
        query={users}
        rowKey={(u) => u.email}
        empty={t('admin.tableEmpty')}
        rowClass={(u) => (u.disabled ? 'row-disabled' : '')}
      />
    </Page>
  );
}
