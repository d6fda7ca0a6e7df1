import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { useT } from '#web/i18n/messages.ts';
import { useAdminSellers, useAdminUsers, useAssignBuyerSeller } from './admin.api';
import { adminMenus } from './admin-menus';

/** '[seller-adm] add o vendedor ao comprador': sets a buyer's userSeller. */
export function SellerAdmPage() {
  const t = useT();
  const users = useAdminUsers();
  const sellers = useAdminSellers();
  const assign = useAssignBuyerSeller();
  return (
    <Page wide title={t('admin.sellerAdmTitle')} menu={adminMenus(t).sellerAdm}>
      <AssignForm
        first={{
          label: t('admin.selectBuyer'),
          options: (users.data ?? []).map((u) => ({
            value: u.email,
            label: u.userSeller ? `${u.email} (${u.userSeller})` : u.email,
          })),
        }}
        second={{
          label: t('admin.selectSeller'),
          options: (sellers.data ?? []).map((u) => ({ value: u.email, label: u.email })),
        }}
        onAssign={(buyer, seller) => assign.mutateAsync({ buyer, seller })}
      />
    </Page>
  );
}
