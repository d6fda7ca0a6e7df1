// The seller's page (/seller): hand a device from their stock to one of their buyers (its new upload
// token shown once, to be stored on the device), the list of their buyers, and the health of their
// stock and their buyers' devices (issue 61).
import type { z } from 'zod';
import type { buyerSchema } from '#core/contracts/admin.contract.ts';
import { useState } from 'react';
import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { DeviceTokenNotice } from '#web/components/ui/device-token-notice.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { useT } from '#web/i18n/messages.ts';
import { FleetTable } from '#web/components/ui/fleet-table.tsx';
import { useBuyers, useSell, useSellerFleet, useStock } from './seller.api';

type Buyer = z.infer<typeof buyerSchema>;

/** 'Vendas': hands a device from my stock to one of my buyers; lists my buyers. */
export function SellerPage() {
  const t = useT();
  const buyers = useBuyers();
  const stock = useStock();
  const sell = useSell();
  const fleet = useSellerFleet();
  const inStock = new Set((stock.data ?? []).map((d) => d.id));
  // The sold device's new token: shown once, to load into the device before it leaves the shop.
  const [issued, setIssued] = useState<{ id: string; token: string | null } | null>(null);
  const columns: Column<Buyer>[] = [
    { key: 'email', label: t('seller.colEmail'), value: (b) => b.email },
    { key: 'hardware', label: t('seller.colHardware'), value: (b) => b.hardware.join(', ') },
    { key: 'nomePiloto', label: t('seller.colNomePiloto'), value: (b) => b.nomePiloto },
  ];
  return (
    <Page wide title={t('seller.title')} menu={[{ to: '/user', label: t('menu.home') }]}>
      <AssignForm
        first={{
          label: t('seller.selectUser'),
          options: (buyers.data ?? []).map((b) => ({
            value: b.email,
            label: b.nomePiloto ? `${b.email} (${b.nomePiloto})` : b.email,
          })),
        }}
        second={{
          label: t('seller.selectLaptime'),
          options: (stock.data ?? []).map((d) => ({ value: d.id, label: d.id })),
        }}
        onAssign={async (buyer, deviceId) => setIssued(await sell.mutateAsync({ buyer, deviceId }))}
        // Selling re-keys the device: the token stored on it stops working.
        confirm={(buyer, deviceId) => t('seller.sellConfirm', { id: deviceId, buyer })}
      />
      {/* 'Laptime' is the spec's label for the device: say so under it. */}
      <p className="muted">{t('seller.laptimeHint')}</p>
      {issued?.token && <DeviceTokenNotice id={issued.id} token={issued.token} message="admin.newOwnerToken" />}
      {stock.data?.length === 0 && <p className="muted">{t('seller.noStock')}</p>}
      <SortableTable
        label={t('seller.title')}
        columns={columns}
        query={buyers}
        rowKey={(b) => b.email}
        empty={t('seller.noBuyers')}
      />
      <section className="panel">
        <h2>{t('seller.healthTitle')}</h2>
        <p className="muted">{t('seller.healthHelp')}</p>
        <FleetTable
          label={t('seller.healthTitle')}
          query={fleet}
          empty={t('seller.healthEmpty')}
          owner={(d) => (inStock.has(d.id) ? t('seller.inStock') : d.owner)}
        />
      </section>
    </Page>
  );
}
