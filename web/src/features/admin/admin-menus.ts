import type { MenuItem } from '#web/components/ui/menu.tsx';
import { t } from '#web/i18n/messages.ts';

const home = { to: '/user', label: t.menu.home };
const adm = { to: '/adm', label: t.menu.adm };
const admSeller = { to: '/seller-adm', label: t.menu.admSellerLower };
const hardware = { to: '/hardware', label: t.menu.hardware };
const audit = { to: '/auditoria', label: t.menu.auditoria };
const tracks = { to: '/pistas', label: t.menu.pistas };

/** The spec's menus per admin page (plus the audit page, beyond the spec). */
export const ADMIN_MENUS: Record<'adm' | 'sellerAdm' | 'hardware' | 'audit' | 'tracks', MenuItem[]> = {
  adm: [home, admSeller, hardware, audit, tracks],
  sellerAdm: [home, adm, hardware, audit, tracks],
  hardware: [home, adm, admSeller, audit, tracks],
  audit: [home, adm, admSeller, hardware, tracks],
  tracks: [home, adm, admSeller, hardware, audit],
};
