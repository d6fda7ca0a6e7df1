import type { Catalog } from '../intl.ts';

/** Spanish messages of imports; spread into es.ts. */
export const esImports = {
  'imports.title': 'Importar sesiones',
  'imports.intro':
    'Trae las sesiones que grabaste con otro equipo: Voltas reconoce el circuito, cronometra las vueltas por GPS y lo muestra todo en las mismas pantallas que tu dispositivo.',
  'imports.formats':
    'GPX (1.0 y 1.1), CSV de RaceChrono (v3), VBO de Racelogic, CSV de AiM, NMEA 0183, .sa de SpeedAngle, CSV de TrackAddict, lap.six + gps.six, o un .gz de cualquiera de ellos.',
  'imports.drop': 'Arrastra los archivos aquí',
  'imports.or': 'o',
  'imports.pick': 'Elegir archivos',
  'imports.limit': 'Hasta {mb} MB por archivo.',
  'imports.sending': 'Enviando… {pct}%',
  'imports.processing': 'Cronometrando las vueltas…',
  'imports.done': 'Importado',
  'imports.again': 'Ya importado antes (nada cambió)',
  'imports.failed': 'No importado',
  'imports.offline': 'Sin conexión: la importación necesita internet.',
  'imports.found': '{track} · {date}',
  'imports.lapsCount': '{count, plural, one {# vuelta cronometrada por GPS} other {# vueltas cronometradas por GPS}}',
  'imports.noLaps': 'Ninguna vuelta completa (se reconoció el circuito, pero la trazada no cierra una vuelta).',
  'imports.bestLap': 'Mejor vuelta: {time}',
  'imports.loggerLaps':
    '{count, plural, one {# vuelta cronometrada por el propio equipo ({time})} other {# vueltas cronometradas por el propio equipo (mejor {time})}}',
  'imports.openLaps': 'Ver vueltas',
  'imports.openAnalytics': 'Ver análisis',
  'imports.empty': 'Aún no has elegido ningún archivo.',
  'imports.collection': 'Importados',
  'imports.deleteSession': 'Borrar sesión importada',
  'imports.confirmDelete':
    '¿Borrar la sesión importada de {track} del {date}? También se borrarán sus archivos importados.',
  'imports.deleted': 'Sesión importada borrada.',
  'imports.warnings.truncated': 'El archivo se corta a medias (línea {line}): se importó lo que estaba completo.',
  'imports.warnings.badLines':
    '{count, plural, one {# línea ilegible ignorada.} other {# líneas ilegibles ignoradas.}}',
  'imports.warnings.badChecksums':
    '{count, plural, one {# sentencia NMEA con checksum erróneo ignorada.} other {# sentencias NMEA con checksum erróneo ignoradas.}}',
  'imports.warnings.backwards':
    '{count, plural, one {# punto con la hora hacia atrás ignorado.} other {# puntos con la hora hacia atrás ignorados.}}',
  'imports.warnings.duplicates':
    '{count, plural, one {# punto repetido ignorado.} other {# puntos repetidos ignorados.}}',
  'imports.warnings.jumps':
    '{count, plural, one {# salto de posición imposible ignorado.} other {# saltos de posición imposibles ignorados.}}',
  'imports.warnings.gaps':
    '{count, plural, one {# intervalo de más de 5 s sin señal.} other {# intervalos de más de 5 s sin señal.}}',
  'imports.warnings.fileLineUnused': 'La línea de meta del archivo no cruza la trazada: se usó la línea del circuito.',
  'imports.warnings.leanCalculated': 'La inclinación de este archivo la calculó la aplicación, no la midió un sensor.',
  'imports.warnings.sameRecording':
    'Este archivo es la misma grabación que {file} (mismas horas): las vueltas no se duplicaron.',
  'imports.warnings.otherFile': 'otro archivo',
} satisfies Partial<Catalog>;
