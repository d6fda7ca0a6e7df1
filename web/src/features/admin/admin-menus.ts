import type { MenuItem } from '#web/components/ui/menu.tsx';
import type { Translate } from '#web/i18n/messages.ts';

/** The spec's menus per admin page (plus the firmware, audit and tracks pages, beyond the spec). */
export function adminMenus(
  t: Translate,
): Record<'adm' | 'sellerAdm' | 'hardware' | 'firmware' | 'audit' | 'tracks', MenuItem[]> {
  const home = { to: '/user', label: t('menu.home') };
  const adm = { to: '/adm', label: t('menu.adm') };
  const admSeller = { to: '/seller-adm', label: t('menu.admSellerLower') };
  const hardware = { to: '/hardware', label: t('menu.hardware') };
  const firmware = { to: '/firmware', label: t('menu.firmware') };
  const audit = { to: '/auditoria', label: t('menu.auditoria') };
  const tracks = { to: '/pistas', label: t('menu.pistas') };
  return {
    adm: [home, admSeller, hardware, firmware, audit, tracks],
    sellerAdm: [home, adm, hardware, firmware, audit, tracks],
    hardware: [home, adm, admSeller, firmware, audit, tracks],
    firmware: [home, adm, admSeller, hardware, audit, tracks],
    audit: [home, adm, admSeller, hardware, firmware, tracks],
    tracks: [home, adm, admSeller, hardware, firmware, audit],
  };
}
