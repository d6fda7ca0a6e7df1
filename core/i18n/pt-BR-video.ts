/**
 * pt-BR texts of the rider's video (issue 37). Apart from the one catalog object (pt-BR.ts) on
 * purpose: only the video feature imports it, so these words travel with its code, loaded on
 * demand, and add nothing to the first load of /login or /laps.
 */
import { plural } from './plural';

export const videoPtBR = {
  title: 'Vídeo',
  intro:
    'Veja o seu vídeo junto com os dados. O arquivo fica no seu aparelho: nada é enviado, só a sincronização é guardada.',
  pick: 'Escolher vídeo',
  pickHint: 'ou solte o arquivo aqui. Vários arquivos de uma gravação (partes da GoPro) tocam em sequência.',
  pickAnother: 'Trocar vídeo',
  dropHere: 'Solte o vídeo para vê-lo com os dados',
  reading: 'Lendo a telemetria do vídeo…',
  player: 'Vídeo da sessão',
  playerOf: 'Vídeo da volta {lap}',
  synced: {
    gpmf: 'Sincronizado pelo GPS da câmera (±{ms} ms)',
    clock: 'Sincronizado pelo relógio da câmera (±{ms} ms)',
    manual: 'Sincronizado à mão (±{ms} ms)',
  },
  savedSync: 'Sincronização guardada reconhecida: este arquivo já foi sincronizado antes.',
  notSynced:
    'Ainda não sincronizado: o vídeo não traz GPS nem horário que bata com a sessão. Marque um momento abaixo.',
  noTelemetry: 'Não foi possível ler a telemetria deste vídeo: sincronize à mão, marcando um momento abaixo.',
  notSaved: 'A sincronização vale só nesta página: não foi possível guardá-la no servidor ({reason}).',
  notSavedNoPrint: 'não deu para identificar o arquivo',
  saved: 'Sincronização guardada: ao escolher este arquivo de novo, em qualquer aparelho, ele já vem sincronizado.',
  coverage: {
    whole: 'O vídeo cobre a sessão inteira.',
    part: 'O vídeo cobre só parte da sessão: das {from} às {to}.',
    outside:
      'O vídeo não cobre esta sessão: ele vai das {from} às {to}, e a sessão das {sessionFrom} às {sessionTo}. Confira o arquivo ou a marcação.',
    otherDay:
      'Este vídeo parece ser de outro dia ({date}), não de {sessionDate}. Confira o arquivo ou sincronize à mão.',
  },
  chapters: (n: number) =>
    `${n} partes de uma mesma gravação (a GoPro divide a cada 4 GB): tocadas em sequência, como um vídeo só.`,
  severalFiles: (n: number) => `${n} arquivos tocados em sequência, na ordem dos nomes.`,
  mixedRecordings:
    'Esses arquivos são de gravações diferentes: escolha só as partes de uma mesma gravação (ex.: GH010123, GH020123).',
  notVideo: '"{name}" não é um vídeo. Escolha um arquivo de vídeo (MP4, MOV).',
  manualTitle: 'Sincronizar à mão',
  manualHelp:
    'Toque o vídeo até a moto cruzar a linha de chegada, escolha qual cruzamento é e marque. Uma marca acerta o início; uma segunda, perto do fim, acerta também a diferença de relógio.',
  crossing: 'Qual cruzamento',
  crossingOption: 'Início da volta {lap} ({time})',
  markNow: 'Marcar: cruzando a linha agora',
  marks: (n: number, list: string) => `${plural(n, '1 marca', `${n} marcas`)}: ${list}`,
  clearMarks: 'Apagar marcas',
  nudge: 'Ajuste fino',
  earlier: '−0,1 s',
  later: '+0,1 s',
  nudgeEarlier: 'Mover os dados 0,1 s para trás em relação ao vídeo',
  nudgeLater: 'Mover os dados 0,1 s para a frente em relação ao vídeo',
  jumpLap: 'Ir para a volta',
  jumpCorner: 'Ir para a curva',
  choose: 'Escolha…',
  outsideVideo: 'Esse momento não está no vídeo (ele cobre das {from} às {to}).',
  hevc: 'Este vídeo está em HEVC (H.265), que este navegador não toca nem converte. Na GoPro, em Preferências › Geral, escolha "Codec de vídeo: H.264" (ou ative o "Modo de compatibilidade") e grave de novo; um vídeo já gravado pode ser convertido para H.264 no computador.',
  cannotPlay: 'Este navegador não consegue tocar este vídeo. Use um MP4 em H.264 (na GoPro: "Codec de vídeo: H.264").',
  compareTitle: 'Vídeos lado a lado',
  compareHelp: 'Escolha o vídeo de cada volta: os dois tocam juntos, alinhados pela posição na pista.',
  compareFriend: 'Dados do amigo nesta posição',
  markLapStart: 'Marcar: início desta volta agora',
  playBoth: 'Tocar os dois',
  playOne: 'Tocar o vídeo',
  pauseBoth: 'Pausar',
  gap: 'Diferença',
  position: 'Posição: {m} m',
  lapOffVideo:
    'O início desta volta não está neste vídeo com a sincronização atual. Toque o vídeo até o início da volta e marque.',
  noGpsForLap: 'Sem o GPS desta volta: não dá para alinhar o vídeo.',
  speed: 'Velocidade',
  lean: 'Inclinação',
  exportTitle: 'Exportar clipe com os dados',
  exportWhat: 'Trecho',
  exportLap: 'Volta {lap}',
  exportStretch: 'Trecho do vídeo (segundos)',
  exportFrom: 'De (s)',
  exportTo: 'Até (s)',
  exportQuality: 'Resolução',
  exportStart: 'Exportar MP4',
  exportCancel: 'Cancelar',
  exportProgress: 'Gerando o clipe… {pct}%',
  exportDone: 'Clipe pronto: {seconds} s, {size}.',
  exportDownload: 'Baixar clipe',
  exportCanceled: 'Exportação cancelada.',
  exportFailed: 'Não foi possível gerar o clipe: {reason}',
  exportNoEncoder:
    'Este navegador não grava vídeo (sem WebCodecs/VideoEncoder). Use o Chrome ou o Edge atualizados num computador, ou o Chrome no Android, para exportar o clipe.',
  exportNoH264: 'Este navegador não consegue gravar H.264 em {res}. Tente 720p, ou o Chrome atualizado.',
  exportNoH264Size:
    'Este navegador não tem como gravar um vídeo de {width}×{height} em H.264 (WebCodecs), então o clipe não pode ser feito aqui. Use o Chrome ou o Edge atualizados num computador.',
  exportEmpty: 'Esse trecho não está no vídeo: escolha uma volta que o vídeo cobre.',
  overlayLap: 'Volta {lap}',
  overlaySpeed: 'km/h',
  overlayLean: 'Inclinação',
  overlayDelta: 'Δ melhor volta',
} as const;
