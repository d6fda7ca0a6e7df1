/** pt-BR messages of the imports area (ICU MessageFormat); spread into the one catalog in pt-BR.ts. */
export const ptBRImports = {
  'imports.title': 'Importar sessões',
  'imports.intro':
    'Traga as sessões que você gravou com outro registrador: o Voltas reconhece a pista, cronometra as voltas pelo GPS e mostra tudo nas mesmas telas do seu hardware Voltas.',
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
    '{count, plural, one {# volta cronometrada pelo próprio registrador ({time})} other {# voltas cronometradas pelo próprio registrador (melhor {time})}}',
  'imports.openLaps': 'Ver voltas',
  'imports.openAnalytics': 'Análise',
  'imports.empty': 'Nenhum arquivo escolhido ainda.',
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
  'imports.warnings.beyondLimit':
    '{count, plural, one {# ponto além dos {max, number} que um arquivo pode ter ficou de fora.} other {# pontos além dos {max, number} que um arquivo pode ter ficaram de fora.}}',
  'imports.warnings.fileLineUnused': 'A linha de chegada do arquivo não cruza o traçado: usada a linha da pista.',
  'imports.warnings.loggerLapsUnmatched':
    '{count, plural, one {# volta do registrador não bate} other {# voltas do registrador não batem}} com nenhuma volta medida pelo GPS (terminam em outro ponto ou incluem uma parada): ali aparecem as voltas do GPS.',
  'imports.warnings.leanCalculated':
    'A inclinação deste arquivo foi calculada pelo aplicativo, não medida por um sensor.',
  'imports.warnings.sameRecording':
    'Este arquivo é a mesma gravação de {file} (mesmos horários): as voltas não foram duplicadas.',
  'imports.warnings.sameRecordingUnnamed':
    'Este arquivo é a mesma gravação de outro arquivo (mesmos horários): as voltas não foram duplicadas.',
  /** Why a file was refused, with its details. */
  'imports.refused.raceChronoHeader':
    'CSV do RaceChrono sem as linhas de nomes, unidades e fontes das colunas; nada foi gravado.',
  'imports.refused.trackAddictColumns': 'CSV do TrackAddict com mais de {max} colunas; nada foi gravado.',
  'imports.refused.trackAddictNoDate':
    'CSV do TrackAddict sem a coluna "UTC Time" e sem o nome original (Log-AAAAMMDD-HHMMSS…), então não se sabe o dia; nada foi gravado.',
  'imports.refused.trackAddictHeader':
    'CSV do TrackAddict sem a linha de nomes das colunas ("Time", …, "Latitude", "Longitude"); nada foi gravado.',
  'imports.refused.gpxLongRun':
    'O GPX passa de {max} caracteres sem abrir nem fechar uma tag (linha {line}): um texto, comentário ou tag longo demais para um GPX, que tem uma tag a cada poucas dezenas de caracteres. Nada foi gravado.',
  'imports.refused.gpxNoPoints': "O arquivo GPX não tem nenhum ponto de trajeto ('<'trkpt>); nada foi gravado.",
  'imports.refused.gpxTooFewFixes':
    "Em {mb} MB do GPX (até a linha {line}) há só {fixes} pontos de trajeto com posição e hora ('<'trkpt lat lon> com '<'time>); uma gravação tem milhares, e o Voltas espera ao menos {min} a cada {mb} MB. Nada foi gravado.",
  'imports.refused.gpxAttributes':
    'Uma tag do GPX (linha {line}) tem mais de {max} atributos; um elemento de GPX tem poucos (como lat e lon). Nada foi gravado.',
  'imports.refused.gpxLongAttribute':
    'O atributo {name} (linha {line}) passa de {max} caracteres; num GPX um valor é curto (como lat="-23.701234"). Nada foi gravado.',
  'imports.refused.nmeaNoDate': 'NMEA sem sentenças $GPRMC/$GNRMC: só elas trazem a data; nada foi gravado.',
  'imports.refused.aimHeaderLines':
    'CSV do AiM com mais de {max} linhas de cabeçalho antes da linha de nomes das colunas; nada foi gravado.',
  'imports.refused.aimNoPosition': 'CSV do AiM sem as colunas "GPS Latitude" e "GPS Longitude"; nada foi gravado.',
  'imports.refused.aimNoDate': 'CSV do AiM sem "Date" e "Time" legíveis no cabeçalho; nada foi gravado.',
  'imports.refused.aimHeader': 'CSV do AiM sem as linhas de nomes e unidades; nada foi gravado.',
  'imports.refused.speedAngleNoStart': 'Arquivo SpeedAngle sem a linha #D= com o início da gravação; nada foi gravado.',
  'imports.refused.speedAngleNoTrace': "Arquivo SpeedAngle sem a seção '<'trace>; nada foi gravado.",
  'imports.refused.vboColumns': 'VBO sem as colunas time, lat e long; nada foi gravado.',
  'imports.refused.vboNoDate':
    'O VBO não traz "File created on DD/MM/AAAA" na primeira linha, então não se sabe o dia; nada foi gravado.',
  'imports.refused.vboNoData': 'VBO sem a seção [data]; nada foi gravado.',
  'imports.refused.gpsSixNoDate':
    'Um gps.six só tem a hora de cada ponto: ponha a data no nome do arquivo como ddmmaaaa (15112026_gps.six, ou a pasta Interlagos/15112026/gps.six); nada foi gravado.',
  'imports.refused.tooManyLaps':
    'O arquivo ({format}) tem mais de {max, number} voltas próprias, o que nenhum dia de pista tem; nada foi gravado.',
  'imports.refused.encoding':
    'O GPX declara uma codificação que o Voltas não lê ({encoding}); use UTF-8 ou windows-1252.',
  'imports.refused.empty': 'O arquivo está vazio; nada foi gravado.',
  'imports.refused.noFix': 'O arquivo ({format}) não tem nenhuma posição de GPS utilizável; nada foi gravado.',
  'imports.refused.lapSixTooLarge': 'Um lap.six tem no máximo {mb} MB; nada foi gravado.',
  'imports.refused.tooComplexMemory':
    'O arquivo é complexo demais: lê-lo precisaria de mais que os {mb} MB de memória que uma importação pode usar; nada foi gravado.',
  'imports.refused.tooComplexTime':
    'O arquivo é grande ou complexo demais: lê-lo levaria mais que os {seconds} s que uma importação pode levar; nada foi gravado.',
  'imports.refused.gzipTooLarge':
    'O .gz descomprimido passa de {mb} MB: um .gz pode crescer até {ratio} vezes o seu tamanho, e no máximo até {maxMb} MB; nada foi gravado.',
  'imports.refused.tooLarge': 'A importação aceita arquivos de até {mb} MB; nada foi gravado.',
  'imports.refused.noLapSixLine': 'Nenhuma linha válida de lap.six; nada foi gravado.',
  'imports.refused.sessionFiles':
    'Uma sessão (uma pista, um dia) aceita no máximo {max, number} arquivos, e esta já os tem; nada foi gravado.',
  'imports.refused.sessionFixes':
    'Com este arquivo a sessão (uma pista, um dia) teria {fixes, number} pontos de GPS, mais que os {max, number} que uma sessão aceita; nada foi gravado.',
  'imports.refused.quota':
    'Você guarda {usedMb, number} MB de {limitMb, number} MB, e esta importação precisa de uns {neededMb, number} MB; nada foi gravado. Apague as sessões importadas de que não precisa mais (Importar sessões → Apagar sessão importada) e tente de novo.',
  'imports.storage': 'Espaço usado: {usedMb, number} MB de {limitMb, number} MB',
} as const;
