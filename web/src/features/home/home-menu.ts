import type { Me } from '#core/contracts/me.contract.ts';
import type { MenuItem } from '#web/components/ui/menu.tsx';
import type { Translate } from '#web/i18n/messages.ts';

/** The spec's home menu: everyone, then sellers, then admins. Roles come from /api/me. */
export function homeMenu(t: Translate, me: Me): MenuItem[] {
  const items: MenuItem[] = [
    { to: '/enroll', label: t('menu.meusDados') },
    { to: '/laps', label: t('menu.laps') },
    { to: '/sessoes', label: t('menu.minhasSessoes') },
    { to: '/progresso', label: t('menu.evolucao') },
    { to: '/comparar', label: t('menu.comparar') },
    { to: '/links', label: t('menu.links') },
    { to: '/importar', label: t('menu.importar') },
  ];
  if (me.roles.seller) items.push({ to: '/seller', label: t('menu.vendas') });
  if (me.roles.admin) {
    items.push(
      { to: '/adm', label: t('menu.adm') },
      { to: '/seller-adm', label: t('menu.admSeller') },
      { to: '/hardware', label: t('menu.hardware') },
      { to: '/firmware', label: t('menu.firmware') },
    );
  }
  return items;
}
