import { AssignForm } from '../../components/ui/assign-form';
import { Page } from '../../components/ui/page';
import { t } from '../../i18n/messages';
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
          options: (users.data ?? []).map((u) => ({ value: u.email, label: u.userSeller ? `${u.email} (${u.userSeller})` : u.email })),
        }}
        second={{ label: a.selectSeller, options: (sellers.data ?? []).map((u) => ({ value: u.email, label: u.email })) }}
        onAssign={(buyer, seller) => assign.mutateAsync({ buyer, seller })}
      />
    </Page>
  );
}
