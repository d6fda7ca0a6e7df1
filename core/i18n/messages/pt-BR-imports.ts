/** pt-BR messages of the imports area (ICU MessageFormat); spread into the one catalog in pt-BR.ts. */
export const ptBRImports = {
  'imports.title': 'Importar sessões',
  'imports.intro':
    'Traga as sessões que você gravou com outro equipamento: o Voltas reconhece a pista, cronometra as voltas pelo GPS e mostra tudo nas mesmas telas do seu aparelho.',
  'imports.formats':
    'GPX (1.0 e 1.1), CSV do RaceChrono (v3), VBO da Racelogic, CSV do AiM, NMEA 0183, .sa do SpeedAngle, CSV do TrackAddict, lap.six + gps.six, ou .gz de qualquer um deles.',
  'imports.drop': 'Arraste os arquivos para cá',
  'imports.or': 'ou',
  'imports.pick': 'Escolher arquivos',
  'imports.limit': 'Até {mb} MB por arquivo.',
  'imports.sending': 'Enviando… {pct}%',
  'imports.processing': 'Cronometrando as voltas…',
  'imports.done': 'Importado',
  'imports.again': 'Já importado antes (nada mudou)',
  'imports.failed': 'Não importado',
  'imports.offline': 'Sem conexão: a importação precisa de internet.',
  'imports.found': '{track} · {date}',
  'imports.lapsCount': '{count, plural, one {# volta cronometrada pelo GPS} other {# voltas cronometradas pelo GPS}}',
  'imports.noLaps': 'Nenhuma volta completa (a pista foi reconhecida, mas o traçado não fecha uma volta).',
  'imports.bestLap': 'Melhor volta: {time}',
  'imports.loggerLaps':
    '{count, plural, one {# volta cronometrada pelo próprio equipamento ({time})} other {# voltas cronometradas pelo próprio equipamento (melhor {time})}}',
  'imports.openLaps': 'Ver voltas',
  'imports.openAnalytics': 'Ver análise',
  'imports.empty': 'Nenhum arquivo escolhido ainda.',
  'imports.collection': 'Importados',
  'imports.deleteSession': 'Apagar sessão importada',
  'imports.confirmDelete':
    'Apagar a sessão importada de {track} em {date}? Os arquivos importados dela também serão apagados.',
  'imports.deleted': 'Sessão importada apagada.',
  'imports.warnings.truncated': 'O arquivo termina no meio (linha {line}): importado o que estava completo.',
  'imports.warnings.badLines':
    '{count, plural, one {# linha ilegível ignorada.} other {# linhas ilegíveis ignoradas.}}',
  'imports.warnings.badChecksums':
    '{count, plural, one {# sentença NMEA com checksum errado ignorada.} other {# sentenças NMEA com checksum errado ignoradas.}}',
  'imports.warnings.backwards':
    '{count, plural, one {# ponto com horário voltando para trás ignorado.} other {# pontos com horário voltando para trás ignorados.}}',
  'imports.warnings.duplicates':
    '{count, plural, one {# ponto repetido ignorado.} other {# pontos repetidos ignorados.}}',
  'imports.warnings.jumps':
    '{count, plural, one {# salto impossível de posição ignorado.} other {# saltos impossíveis de posição ignorados.}}',
  'imports.warnings.gaps':
    '{count, plural, one {# intervalo de mais de 5 s sem sinal.} other {# intervalos de mais de 5 s sem sinal.}}',
  'imports.warnings.fileLineUnused': 'A linha de chegada do arquivo não cruza o traçado: usada a linha da pista.',
  'imports.warnings.leanCalculated':
    'A inclinação deste arquivo foi calculada pelo aplicativo, não medida por um sensor.',
  'imports.warnings.sameRecording':
    'Este arquivo é a mesma gravação de {file} (mesmos horários): as voltas não foram duplicadas.',
  'imports.warnings.otherFile': 'outro arquivo',
} as const;
