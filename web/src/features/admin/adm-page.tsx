import type { AdminUser } from '#core/contracts/admin.contract.ts';
import { useState } from 'react';
import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { DeviceTokenNotice } from '#web/components/ui/device-token-notice.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { errorMessage, fill, t } from '#web/i18n/messages.ts';
import { useMe } from '#web/lib/session.ts';
import { useAdminDevices, useAdminUsers, useAssignOwner, useSetDisabled } from './admin.api';
import { ADMIN_MENUS } from './admin-menus';
import { QueryStatus } from '#web/components/ui/query-status.tsx';

/** '[adm] Add owner em hardware': links a user and a device; lists every user. */
export function AdmPage() {
  const me = useMe().data!;
  const users = useAdminUsers();
  const devices = useAdminDevices();
  const assign = useAssignOwner();
  const setDisabled = useSetDisabled();
  // The new token after a change of owner: shown once, here.
  const [issued, setIssued] = useState<{ id: string; token: string | null } | null>(null);
  const a = t.admin;
  const columns: Column<AdminUser>[] = [
    { key: 'id', label: a.colId, value: (u) => u.email },
    { key: 'hardware', label: a.colHardware, value: (u) => u.hardware.join(', ') },
    { key: 'adm', label: a.colAdm, value: (u) => u.adm },
    { key: 'nomePiloto', label: a.colNomePiloto, value: (u) => u.nomePiloto },
    { key: 'numeroMoto', label: a.colNumeroMoto, value: (u) => u.numeroMoto },
    { key: 'seller', label: a.colSeller, value: (u) => u.seller },
    { key: 'wifi', label: a.colWifi, value: (u) => u.wifi },
    { key: 'userSeller', label: a.colUserSeller, value: (u) => u.userSeller },
    { key: 'status', label: a.colStatus, value: (u) => (u.disabled ? a.disabled : a.active) },
    {
      key: 'actions',
      label: a.colActions,
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
            {u.disabled ? a.enable : a.disable}
          </button>
        ),
    },
  ];
  return (
    <Page title={a.admTitle} menu={ADMIN_MENUS.adm}>
      <AssignForm
        first={{ label: a.selectUser, options: (users.data ?? []).map((u) => ({ value: u.email, label: u.email })) }}
        second={{
          label: a.selectDevice,
          options: (devices.data ?? []).map((d) => ({
            value: d.id,
            label: `${d.id}${d.owner ? ` (${d.owner})` : ''}`,
          })),
        }}
        onAssign={async (email, deviceId) => setIssued(await assign.mutateAsync({ email, deviceId }))}
      />
      {issued &&
        (issued.token ? (
          <DeviceTokenNotice id={issued.id} token={issued.token} message={a.newOwnerToken} />
        ) : (
          <p className="notice" role="status">
            {fill(a.ownerUnchanged, { id: issued.id })}
          </p>
        ))}
      {setDisabled.isError && (
        <p className="alert alert-error" role="alert">
          {errorMessage(setDisabled.error)}
        </p>
      )}
      <QueryStatus query={users}>
        {(rows) => (
          <SortableTable
            label={a.admTitle}
            columns={columns}
            rows={rows}
            rowKey={(u) => u.email}
            empty={a.tableEmpty}
            rowClass={(u) => (u.disabled ? 'row-disabled' : '')}
          />
        )}
      </QueryStatus>
    </Page>
  );
}
