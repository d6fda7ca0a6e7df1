/** pt-BR texts of a rider's history ('Minhas sessões'); part of the one catalog in pt-BR.ts. */
export const historyPtBR = {
  title: 'Minhas sessões',
  filter: 'Pista',
  allTracks: 'Todas as pistas',
  loading: 'Carregando suas sessões…',
  more: 'Mostrar mais',
  empty: 'Você ainda não tem sessões. Envie do seu aparelho (Send) ou importe de outro equipamento.',
  importLink: 'Importar sessões',
  colTrack: 'Pista',
  colDate: 'Data',
  colBest: 'Melhor volta',
  colLaps: 'Voltas',
  colHeats: 'Baterias',
  imported: 'Importada',
  openLaps: 'Voltas',
  openAnalytics: 'Análise',
  sessionLabel: '{track}, {date}',
} as const;
