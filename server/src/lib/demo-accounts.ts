import { AppError } from '#core/errors.ts';

/** Accounts that `voltas demo` creates and the local sign-in page offers for one click. */
export const DEMO_ACCOUNTS = [
  { email: 'piloto@voltas.local', name: 'Ana Piloto', role: 'rider' },
  { email: 'vendedor@voltas.local', name: 'Bruno Vendedor', role: 'seller' },
  { email: 'admin@voltas.local', name: 'Carla Admin', role: 'admin' },
] as const;

/** The demo device (the spec's placeholder id, given a purpose: sample sessions). */
export const DEMO_DEVICE_ID = '000000000001';

/** The demo device belongs to nobody: it can be neither registered, given, sold, re-keyed nor imported. */
export function refuseDemoDevice(id: string): void {
  if (id === DEMO_DEVICE_ID) throw new AppError('device/reserved-id');
}
