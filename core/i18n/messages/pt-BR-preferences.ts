/**
 * pt-BR messages of the rider's language and units (ICU MessageFormat); spread into the one catalog
 * in pt-BR.ts. {speed} and {distance} arrive formatted with their unit (web/src/lib/units-format.ts),
 * {unit} is a unit's short name (km/h, mph, m, ft).
 */
export const ptBRPreferences = {
  'preferences.title': 'Idioma e unidades',
  'preferences.language': 'Idioma',
  'preferences.units': 'Unidades',
  // Each language's name in that language: a rider finds theirs whatever the page speaks.
  'preferences.languageNames.pt-BR': 'Português (Brasil)',
  'preferences.languageNames.en': 'English',
  'preferences.languageNames.es': 'Español',
  'preferences.unitNames.metric': 'km/h, m',
  'preferences.unitNames.imperial': 'mph, ft',
  'preferences.saving': 'Salvando…',
  'preferences.saved': 'Preferências salvas.',
  'preferences.notSaved': 'Não foi possível salvar as preferências: {reason}',
  // Texts that carry a unit.
  'preferences.colTop': 'Vel. máx. ({unit})',
  'preferences.colMin': 'Vel. mín. ({unit})',
  'preferences.axisDistance': 'Distância ({unit})',
  'preferences.axisPosition': 'Posição na pista ({unit})',
  'preferences.position': 'Posição: {distance}',
  'preferences.brakedEarlier': 'freou {distance} antes da referência',
  'preferences.brakedLater': 'freou {distance} depois da referência',
  'preferences.apexSlower': 'passou {speed} mais lento no ápice',
  'preferences.apexFaster': 'passou {speed} mais rápido no ápice',
  'preferences.exitSlower': 'saiu {speed} mais lento',
  'preferences.topSlower': 'velocidade máxima {speed} menor',
  'preferences.brakeBefore': '{distance} antes do ápice',
} as const;
