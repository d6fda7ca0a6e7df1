import { AssignForm } from '#web/components/ui/assign-form.tsx';
import { Page } from '#web/components/ui/page.tsx';
import { t } from '#web/i18n/messages.ts';
import { useAdminSellers, useAdminUsers, useAssignBuyerSeller } from './admin.api';
import { ADMIN_MENUS } from './admin-menus';

/** '[seller-adm] add o vendedor ao comprador': sets a buyer's userSeller. */
export function SellerAdmPage() {
  const users = useAdminUsers();
  const sellers = useAdminSellers();
  const assign = useAssignBuyerSeller();
  const a = t.admin;
  return (
    <Page title={a.sellerAdmTitle} menu={ADMIN_MENUS.sellerAdm}>
      <AssignForm
        first={{
          label: a.selectBuyer,
          options: (users.data ?? []).map((u) => ({
            value: u.email,
            label: u.userSeller ? `${u.email} (${u.userSeller})` : u.email,
          })),
        }}
        second={{
          label: a.selectSeller,
          options: (sellers.data ?? []).map((u) => ({ value: u.email, label: u.email })),
        }}
        onAssign={(buyer, seller) => assign.mutateAsync({ buyer, seller })}
      />
    </Page>
  );
}
