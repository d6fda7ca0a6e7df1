import type { Catalog } from '../intl.ts';

/** Spanish texts of the firmware refusals (issue 61); spread into es.ts. */
export const esFirmwareErrors = {
  'errors.firmware/bad-signature':
    'El manifiesto no está firmado por ninguna clave de FIRMWARE_PUBLIC_KEYS (o la firma no coincide); no se guardó nada.',
  'errors.firmware/bad-manifest':
    'El manifiesto no es el que genera `voltas firmware sign` (class, version, seq, sha256, size, expires, minFrom), o ya caducó; no se guardó nada.',
  'errors.firmware/seq-not-above':
    'El seq del manifiesto no es mayor que el de la última imagen de esta clase de hardware: una imagen nunca hace retroceder una clase.',
  'errors.firmware/image-mismatch':
    'Los bytes de la imagen no coinciden con su manifiesto firmado (tamaño o sha256); no se guardó nada.',
  'errors.firmware/image-missing': 'La imagen de este firmware aún no se ha subido: súbela antes de distribuirla.',
  'errors.firmware/not-offered': 'A este dispositivo no se le ofreció este firmware, o no está en esta distribución.',
  'errors.firmware/rollout-closed': 'Esta distribución está detenida, cancelada o terminada: su oferta ya no vale.',
  'errors.firmware/not-rebooted':
    'Confirma solo después de reiniciar con la imagen nueva: el último contacto no informó esa versión.',
  'errors.firmware/range-not-satisfiable': 'El rango pedido (Range) empieza después del final de la imagen.',
  'errors.firmware/busy':
    'Muchos dispositivos están descargando firmware de este servidor ahora: inténtalo de nuevo tras Retry-After segundos.',
} satisfies Partial<Catalog>;
