import { plural } from './plural';

/** pt-BR texts of imports (the 'Importar sessões' page, its warnings, the CLI); part of the one catalog in pt-BR.ts. */
export const importsPtBR = {
  title: 'Importar sessões',
  intro:
    'Traga as sessões que você gravou com outro equipamento: o Voltas reconhece a pista, cronometra as voltas pelo GPS e mostra tudo nas mesmas telas do seu aparelho.',
  formats:
    'GPX (1.0 e 1.1), CSV do RaceChrono (v3), VBO da Racelogic, CSV do AiM, NMEA 0183, .sa do SpeedAngle, CSV do TrackAddict, lap.six + gps.six, ou .gz de qualquer um deles.',
  drop: 'Arraste os arquivos para cá',
  or: 'ou',
  pick: 'Escolher arquivos',
  limit: 'Até {mb} MB por arquivo.',
  sending: 'Enviando… {pct}%',
  processing: 'Cronometrando as voltas…',
  done: 'Importado',
  again: 'Já importado antes (nada mudou)',
  failed: 'Não importado',
  offline: 'Sem conexão: a importação precisa de internet.',
  found: '{track} · {date}',
  lapsCount: (n: number) => plural(n, `${n} volta cronometrada pelo GPS`, `${n} voltas cronometradas pelo GPS`),
  noLaps: 'Nenhuma volta completa (a pista foi reconhecida, mas o traçado não fecha uma volta).',
  bestLap: 'Melhor volta: {time}',
  loggerLaps: (n: number, time: string) =>
    plural(
      n,
      `${n} volta cronometrada pelo próprio equipamento (${time})`,
      `${n} voltas cronometradas pelo próprio equipamento (melhor ${time})`,
    ),
  openLaps: 'Ver voltas',
  openAnalytics: 'Ver análise',
  empty: 'Nenhum arquivo escolhido ainda.',
  collection: 'Importados',
  deleteSession: 'Apagar sessão importada',
  confirmDelete: 'Apagar a sessão importada de {track} em {date}? Os arquivos importados dela também serão apagados.',
  deleted: 'Sessão importada apagada.',
  /** Each warning's text; the counted ones agree with their count (1 linha, 2 linhas). */
  warnings: {
    truncated: (w: WarningValues) =>
      `O arquivo termina no meio (linha ${w.line ?? ''}): importado o que estava completo.`,
    badLines: (w: WarningValues) => counted(w, 'linha ilegível ignorada.', 'linhas ilegíveis ignoradas.'),
    badChecksums: (w: WarningValues) =>
      counted(w, 'sentença NMEA com checksum errado ignorada.', 'sentenças NMEA com checksum errado ignoradas.'),
    backwards: (w: WarningValues) =>
      counted(w, 'ponto com horário voltando para trás ignorado.', 'pontos com horário voltando para trás ignorados.'),
    duplicates: (w: WarningValues) => counted(w, 'ponto repetido ignorado.', 'pontos repetidos ignorados.'),
    jumps: (w: WarningValues) =>
      counted(w, 'salto impossível de posição ignorado.', 'saltos impossíveis de posição ignorados.'),
    gaps: (w: WarningValues) =>
      counted(w, 'intervalo de mais de 5 s sem sinal.', 'intervalos de mais de 5 s sem sinal.'),
    fileLineUnused: () => 'A linha de chegada do arquivo não cruza o traçado: usada a linha da pista.',
    leanCalculated: () => 'A inclinação deste arquivo foi calculada pelo aplicativo, não medida por um sensor.',
    sameRecording: (w: WarningValues) =>
      `Este arquivo é a mesma gravação de ${w.file ?? 'outro arquivo'} (mesmos horários): as voltas não foram duplicadas.`,
  },
} as const;

interface WarningValues {
  count?: number | undefined;
  line?: number | undefined;
  file?: string | undefined;
}

function counted(w: WarningValues, one: string, other: string): string {
  const n = w.count ?? 0;
  return `${n} ${plural(n, one, other)}`;
}

export type ImportWarningCode = keyof typeof importsPtBR.warnings;

/** A warning in Portuguese. */
export function importWarningText(w: {
  code: ImportWarningCode;
  count?: number;
  line?: number;
  file?: string;
}): string {
  return importsPtBR.warnings[w.code](w);
}
