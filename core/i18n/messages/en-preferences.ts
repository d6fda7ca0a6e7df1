import type { Catalog } from '../intl.ts';

/** English messages of the rider's language and units (the ids of pt-BR-preferences.ts). */
export const enPreferences = {
  'preferences.title': 'Language and units',
  'preferences.language': 'Language',
  'preferences.units': 'Units',
  'preferences.languageNames.pt-BR': 'Português (Brasil)',
  'preferences.languageNames.en': 'English',
  'preferences.languageNames.es': 'Español',
  'preferences.unitNames.metric': 'km/h, m',
  'preferences.unitNames.imperial': 'mph, ft',
  'preferences.saving': 'Saving…',
  'preferences.saved': 'Preferences saved.',
  'preferences.notSaved': 'Your preferences could not be saved: {reason}',
  'preferences.colTop': 'Top ({unit})',
  'preferences.colMin': 'Min ({unit})',
  'preferences.axisDistance': 'Distance ({unit})',
  'preferences.axisPosition': 'Position on track ({unit})',
  'preferences.position': 'Position: {distance}',
  'preferences.brakedEarlier': 'braked {distance} before the reference',
  'preferences.brakedLater': 'braked {distance} after the reference',
  'preferences.apexSlower': '{speed} slower at the apex',
  'preferences.apexFaster': '{speed} faster at the apex',
  'preferences.exitSlower': '{speed} slower on the exit',
  'preferences.topSlower': 'top speed {speed} lower',
  'preferences.brakeBefore': '{distance} before the apex',
} satisfies Partial<Catalog>;
