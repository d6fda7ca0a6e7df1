import type { Catalog } from '../intl.ts';

/** Spanish messages of the rider's language and units (the ids of pt-BR-preferences.ts). */
export const esPreferences = {
  'preferences.title': 'Idioma y unidades',
  'preferences.language': 'Idioma',
  'preferences.units': 'Unidades',
  'preferences.languageNames.pt-BR': 'Português (Brasil)',
  'preferences.languageNames.en': 'English',
  'preferences.languageNames.es': 'Español',
  'preferences.unitNames.metric': 'km/h, m',
  'preferences.unitNames.imperial': 'mph, ft',
  'preferences.saving': 'Guardando…',
  'preferences.saved': 'Preferencias guardadas.',
  'preferences.notSaved': 'No se pudieron guardar las preferencias: {reason}',
  'preferences.colTop': 'Vel. máx. ({unit})',
  'preferences.colMin': 'Vel. mín. ({unit})',
  'preferences.axisDistance': 'Distancia ({unit})',
  'preferences.axisPosition': 'Posición en el circuito ({unit})',
  'preferences.position': 'Posición: {distance}',
  'preferences.brakedEarlier': 'frenó {distance} antes que la referencia',
  'preferences.brakedLater': 'frenó {distance} después que la referencia',
  'preferences.apexSlower': 'pasó {speed} más lento por el vértice',
  'preferences.apexFaster': 'pasó {speed} más rápido por el vértice',
  'preferences.exitSlower': 'salió {speed} más lento',
  'preferences.topSlower': 'velocidad máxima {speed} menor',
  'preferences.brakeBefore': '{distance} antes del vértice',
} satisfies Partial<Catalog>;
