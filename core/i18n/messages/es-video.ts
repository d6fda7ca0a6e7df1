import type { Catalog } from '../intl.ts';

/** Spanish messages of the rider's video; spread into es.ts. */
export const esVideo = {
  'video.title': 'Vídeo',
  'video.intro':
    'Mira tu vídeo junto con los datos. El archivo se queda en tu móvil u ordenador: no se sube nada, solo se guarda la sincronización.',
  'video.pick': 'Elegir vídeo',
  'video.pickHint':
    'o suelta el archivo aquí. Varios archivos de una grabación (partes de la GoPro) se reproducen seguidos.',
  'video.pickAnother': 'Cambiar vídeo',
  'video.dropHere': 'Suelta el vídeo para verlo con los datos',
  'video.reading': 'Leyendo la telemetría del vídeo…',
  'video.player': 'Vídeo de la sesión',
  'video.playerOf': 'Vídeo de la vuelta {lap}',
  'video.synced.gpmf': 'Sincronizado por el GPS de la cámara (±{ms} ms)',
  'video.synced.clock': 'Sincronizado por el reloj de la cámara (±{ms} ms)',
  'video.synced.manual': 'Sincronizado a mano (±{ms} ms)',
  'video.savedSync': 'Sincronización guardada reconocida: este archivo ya se sincronizó antes.',
  'video.notSynced':
    'Aún sin sincronizar: el vídeo no trae GPS ni hora que coincida con la sesión. Marca un momento abajo.',
  'video.noTelemetry': 'No se pudo leer la telemetría de este vídeo: sincronízalo a mano, marcando un momento abajo.',
  'video.notSaved': 'La sincronización vale solo en esta página: no se pudo guardar en el servidor ({reason}).',
  'video.notSavedNoPrint': 'no se pudo identificar el archivo',
  'video.saved':
    'Sincronización guardada: al elegir de nuevo este archivo, en cualquier navegador, ya viene sincronizado.',
  'video.coverage.whole': 'El vídeo cubre la sesión entera.',
  'video.coverage.part': 'El vídeo cubre solo parte de la sesión: de {from} a {to}.',
  'video.coverage.outside':
    'El vídeo no cubre esta sesión: va de {from} a {to}, y la sesión de {sessionFrom} a {sessionTo}. Revisa el archivo o la marca.',
  'video.coverage.otherDay':
    'Este vídeo parece de otro día ({date}), no del {sessionDate}. Revisa el archivo o sincronízalo a mano.',
  'video.chapters':
    '{count} partes de una misma grabación (la GoPro corta cada 4 GB): se reproducen seguidas, como un solo vídeo.',
  'video.severalFiles': '{count} archivos reproducidos seguidos, por orden de nombre.',
  'video.mixedRecordings':
    'Estos archivos son de grabaciones distintas: elige solo las partes de una misma grabación (p. ej.: GH010123, GH020123).',
  'video.notVideo': '"{name}" no es un vídeo. Elige un archivo de vídeo (MP4, MOV).',
  'video.manualTitle': 'Sincronizar a mano',
  'video.manualHelp':
    'Reproduce el vídeo hasta que la moto cruce la línea de meta, elige qué paso es y márcalo. Una marca ajusta el inicio; una segunda, cerca del final, corrige también el desfase del reloj.',
  'video.crossing': 'Qué paso por meta',
  'video.crossingOption': 'Inicio de la vuelta {lap} ({time})',
  'video.markNow': 'Marcar: cruzando la línea ahora',
  'video.marks': '{count, plural, one {1 marca} other {# marcas}}: {list}',
  'video.clearMarks': 'Borrar marcas',
  'video.nudge': 'Ajuste fino',
  'video.earlier': '−0,1 s',
  'video.later': '+0,1 s',
  'video.nudgeEarlier': 'Mover los datos 0,1 s hacia atrás respecto al vídeo',
  'video.nudgeLater': 'Mover los datos 0,1 s hacia delante respecto al vídeo',
  'video.jumpLap': 'Ir a la vuelta',
  'video.jumpCorner': 'Ir a la curva',
  'video.choose': 'Elige…',
  'video.outsideVideo': 'Ese momento no está en el vídeo (cubre de {from} a {to}).',
  'video.hevc':
    'Este vídeo está en HEVC (H.265), que este navegador no reproduce ni convierte. En la GoPro, en Preferencias › General, elige "Códec de vídeo: H.264" (o activa el "Modo de compatibilidad") y vuelve a grabar; un vídeo ya grabado se puede convertir a H.264 en el ordenador.',
  'video.cannotPlay':
    'Este navegador no puede reproducir este vídeo. Usa un MP4 en H.264 (en la GoPro: "Códec de vídeo: H.264").',
  'video.compareTitle': 'Vídeos lado a lado',
  'video.compareHelp':
    'Elige el vídeo de cada vuelta: los dos se reproducen juntos, alineados por la posición en el circuito.',
  'video.compareFriend': 'Datos del amigo en esta posición',
  'video.markLapStart': 'Marcar: inicio de esta vuelta ahora',
  'video.playBoth': 'Reproducir los dos',
  'video.playOne': 'Reproducir el vídeo',
  'video.pauseBoth': 'Pausa',
  'video.gap': 'Diferencia',
  'video.lapOffVideo':
    'El inicio de esta vuelta no está en este vídeo con la sincronización actual. Reproduce el vídeo hasta el inicio de la vuelta y márcalo.',
  'video.noGpsForLap': 'Sin el GPS de esta vuelta: no se puede alinear el vídeo.',
  'video.speed': 'Velocidad',
  'video.lean': 'Inclinación',
  'video.exportTitle': 'Exportar clip con los datos',
  'video.exportWhat': 'Tramo',
  'video.exportLap': 'Vuelta {lap}',
  'video.exportStretch': 'Tramo del vídeo (segundos)',
  'video.exportFrom': 'Desde (s)',
  'video.exportTo': 'Hasta (s)',
  'video.exportQuality': 'Resolución',
  'video.exportStart': 'Exportar MP4',
  'video.exportCancel': 'Cancelar',
  'video.exportProgress': 'Generando el clip… {pct}%',
  'video.exportDone': 'Clip listo: {seconds} s, {size}.',
  'video.exportDownload': 'Descargar clip',
  'video.exportCanceled': 'Exportación cancelada.',
  'video.exportFailed': 'No se pudo generar el clip: {reason}',
  'video.exportNoEncoder':
    'Este navegador no graba vídeo (sin WebCodecs/VideoEncoder). Usa Chrome o Edge actualizados en un ordenador, o Chrome en Android, para exportar el clip.',
  'video.exportNoH264Size':
    'Este navegador no puede grabar un vídeo de {width}×{height} en H.264 (WebCodecs), así que el clip no se puede hacer aquí. Usa un Chrome o Edge actualizado en un ordenador.',
  'video.exportNoH264': 'Este navegador no puede grabar H.264 en {res}. Prueba 720p, o un Chrome actualizado.',
  'video.exportEmpty': 'Ese tramo no está en el vídeo: elige una vuelta que el vídeo cubra.',
  'video.overlayLap': 'Vuelta {lap}',
  'video.overlayLean': 'Inclinación',
  'video.overlayDelta': 'Δ mejor vuelta',
} satisfies Partial<Catalog>;
