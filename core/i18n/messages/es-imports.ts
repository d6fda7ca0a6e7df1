import type { Catalog } from '../intl.ts';

/** Spanish messages of imports; spread into es.ts. */
export const esImports = {
  'imports.title': 'Importar sesiones',
  'imports.intro':
    'Trae las sesiones que grabaste con otro registrador: Voltas reconoce el circuito, cronometra las vueltas por GPS y lo muestra todo en las mismas pantallas que tu dispositivo.',
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
    '{count, plural, one {# vuelta cronometrada por el propio registrador ({time})} other {# vueltas cronometradas por el propio registrador (mejor {time})}}',
  'imports.openLaps': 'Ver vueltas',
  'imports.openAnalytics': 'Análisis',
  'imports.empty': 'Aún no has elegido ningún archivo.',
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
  'imports.warnings.beyondLimit':
    '{count, plural, one {Quedó fuera # punto más allá de los {max, number} que puede tener un archivo.} other {Quedaron fuera # puntos más allá de los {max, number} que puede tener un archivo.}}',
  'imports.warnings.fileLineUnused': 'La línea de meta del archivo no cruza la trazada: se usó la línea del circuito.',
  'imports.warnings.loggerLapsUnmatched':
    '{count, plural, one {# vuelta del registrador no coincide} other {# vueltas del registrador no coinciden}} con ninguna vuelta medida por el GPS (terminan en otro punto o incluyen una parada): ahí se muestran las vueltas del GPS.',
  'imports.warnings.leanCalculated': 'La inclinación de este archivo la calculó la aplicación, no la midió un sensor.',
  'imports.warnings.sameRecording':
    'Este archivo es la misma grabación que {file} (mismas horas): las vueltas no se duplicaron.',
  'imports.warnings.sameRecordingUnnamed':
    'Este archivo es la misma grabación que otro archivo (mismas horas): las vueltas no se duplicaron.',
  /** Why a file was refused, with its details. */
  'imports.refused.raceChronoHeader':
    'CSV de RaceChrono sin las filas de nombres, unidades y fuentes de las columnas; no se guardó nada.',
  'imports.refused.trackAddictColumns': 'CSV de TrackAddict con más de {max} columnas; no se guardó nada.',
  'imports.refused.trackAddictNoDate':
    'CSV de TrackAddict sin la columna "UTC Time" y sin su nombre original (Log-AAAAMMDD-HHMMSS…), así que no se sabe el día; no se guardó nada.',
  'imports.refused.trackAddictHeader':
    'CSV de TrackAddict sin la fila de nombres de las columnas ("Time", …, "Latitude", "Longitude"); no se guardó nada.',
  'imports.refused.gpxLongRun':
    'El GPX pasa de {max} caracteres sin abrir ni cerrar una etiqueta (línea {line}): un texto, comentario o etiqueta demasiado largo para un GPX, que tiene una etiqueta cada pocas decenas de caracteres. No se guardó nada.',
  'imports.refused.gpxNoPoints': "El archivo GPX no tiene ningún punto de trayecto ('<'trkpt>); no se guardó nada.",
  'imports.refused.gpxTooFewFixes':
    "En {mb} MB del GPX (hasta la línea {line}) hay solo {fixes} puntos de trayecto con posición y hora ('<'trkpt lat lon> con '<'time>); una grabación tiene miles, y Voltas espera al menos {min} en cada {mb} MB. No se guardó nada.",
  'imports.refused.gpxAttributes':
    'Una etiqueta del GPX (línea {line}) tiene más de {max} atributos; un elemento de GPX tiene pocos (como lat y lon). No se guardó nada.',
  'imports.refused.gpxLongAttribute':
    'El atributo {name} (línea {line}) pasa de {max} caracteres; en un GPX un valor es corto (como lat="-23.701234"). No se guardó nada.',
  'imports.refused.nmeaNoDate': 'NMEA sin sentencias $GPRMC/$GNRMC: solo ellas traen la fecha; no se guardó nada.',
  'imports.refused.aimHeaderLines':
    'CSV de AiM con más de {max} líneas de cabecera antes de la fila de nombres de las columnas; no se guardó nada.',
  'imports.refused.aimNoPosition': 'CSV de AiM sin las columnas "GPS Latitude" y "GPS Longitude"; no se guardó nada.',
  'imports.refused.aimNoDate': 'CSV de AiM sin "Date" y "Time" legibles en la cabecera; no se guardó nada.',
  'imports.refused.aimHeader': 'CSV de AiM sin las filas de nombres y unidades; no se guardó nada.',
  'imports.refused.speedAngleNoStart':
    'Archivo SpeedAngle sin la línea #D= con el inicio de la grabación; no se guardó nada.',
  'imports.refused.speedAngleNoTrace': "Archivo SpeedAngle sin la sección '<'trace>; no se guardó nada.",
  'imports.refused.vboColumns': 'VBO sin las columnas time, lat y long; no se guardó nada.',
  'imports.refused.vboNoDate':
    'El VBO no trae "File created on DD/MM/AAAA" en la primera línea, así que no se sabe el día; no se guardó nada.',
  'imports.refused.vboNoData': 'VBO sin la sección [data]; no se guardó nada.',
  'imports.refused.gpsSixNoDate':
    'Un gps.six solo tiene la hora de cada punto: pon la fecha en el nombre del archivo como ddmmaaaa (15112026_gps.six, o la carpeta Interlagos/15112026/gps.six); no se guardó nada.',
  'imports.refused.tooManyLaps':
    'El archivo ({format}) tiene más de {max, number} vueltas propias, algo que ningún día de circuito tiene; no se guardó nada.',
  'imports.refused.encoding':
    'El GPX declara una codificación que Voltas no lee ({encoding}); usa UTF-8 o windows-1252.',
  'imports.refused.empty': 'El archivo está vacío; no se guardó nada.',
  'imports.refused.noFix': 'El archivo ({format}) no tiene ninguna posición GPS utilizable; no se guardó nada.',
  'imports.refused.lapSixTooLarge': 'Un lap.six tiene como máximo {mb} MB; no se guardó nada.',
  'imports.refused.tooComplexMemory':
    'El archivo es demasiado complejo: leerlo necesitaría más de los {mb} MB de memoria que puede usar una importación; no se guardó nada.',
  'imports.refused.tooComplexTime':
    'El archivo es demasiado grande o complejo: leerlo llevaría más de los {seconds} s que puede durar una importación; no se guardó nada.',
  'imports.refused.gzipTooLarge':
    'El .gz descomprimido pasa de {mb} MB: un .gz puede crecer hasta {ratio} veces su tamaño, y como máximo hasta {maxMb} MB; no se guardó nada.',
  'imports.refused.tooLarge': 'La importación acepta archivos de hasta {mb} MB; no se guardó nada.',
  'imports.refused.noLapSixLine': 'Ninguna línea válida de lap.six; no se guardó nada.',
  'imports.refused.sessionFiles':
    'Una sesión (un circuito, un día) acepta como máximo {max, number} archivos, y esta ya los tiene; no se guardó nada.',
  'imports.refused.sessionFixes':
    'Con este archivo la sesión (un circuito, un día) tendría {fixes, number} puntos GPS, más que los {max, number} que acepta una sesión; no se guardó nada.',
  'imports.refused.quota':
    'Guardas {usedMb, number} MB de {limitMb, number} MB, y esta importación necesita unos {neededMb, number} MB; no se guardó nada. Borra las sesiones importadas que ya no necesites (Importar sesiones → Borrar sesión importada) y vuelve a intentarlo.',
  'imports.storage': 'Espacio usado: {usedMb, number} MB de {limitMb, number} MB',
} satisfies Partial<Catalog>;
