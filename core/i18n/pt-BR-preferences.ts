/**
 * pt-BR texts of the rider's language and units (issue 38); part of the one catalog in pt-BR.ts.
 * Plain strings with {placeholders}: {speed} and {distance} arrive already formatted with their
 * unit (web/src/lib/units-format.ts), {unit} is a unit's short name (km/h, mph, m, ft).
 */
export const preferencesPtBR = {
  title: 'Idioma e unidades',
  language: 'Idioma',
  units: 'Unidades',
  /** Each language's name in that language: a rider finds theirs whatever the page speaks. */
  languageNames: {
    'pt-BR': 'Português (Brasil)',
    en: 'English',
    es: 'Español',
  },
  unitNames: {
    metric: 'km/h, m',
    imperial: 'mph, ft',
  },
  saving: 'Salvando…',
  saved: 'Preferências salvas.',
  notSaved: 'Não foi possível salvar as preferências: {reason}',
  /** What a refused PUT /api/me/preferences expected (the `mensagem` names it). */
  fieldErrors: {
    expectedLanguage: "Idioma inválido: use 'pt-BR', 'en' ou 'es'.",
    expectedUnits: "Unidades inválidas: use 'metric' ou 'imperial'.",
  },
  /** Texts that carry a unit, replacing those that wrote km/h or m themselves. */
  colTop: 'Vel. máx. ({unit})',
  colMin: 'Vel. mín. ({unit})',
  axisDistance: 'Distância ({unit})',
  axisPosition: 'Posição na pista ({unit})',
  position: 'Posição: {distance}',
  brakedEarlier: 'freou {distance} antes',
  brakedLater: 'freou {distance} depois',
  apexSlower: 'passou {speed} mais lento no ápice',
  apexFaster: 'passou {speed} mais rápido no ápice',
  exitSlower: 'saiu {speed} mais lento',
  topSlower: 'velocidade máxima {speed} menor',
  brakeBefore: '{distance} antes',
} as const;
