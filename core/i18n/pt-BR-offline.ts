/** pt-BR texts of the phone without a signal (kept copies, updates); part of the one catalog in pt-BR.ts. */
export const offlinePtBR = {
  cached: 'Sem conexão: estes dados foram salvos em {date} às {time}.',
  cachedOnline: 'Mostrando dados salvos em {date} às {time}: o servidor não respondeu a tempo.',
  update: 'Há uma nova versão do Voltas.',
  updateNow: 'Atualizar agora',
  loginOffline: 'Sem conexão: para entrar é preciso internet.',
  importOffline: 'Sem conexão: enviar arquivos precisa de internet. Tente de novo quando tiver sinal.',
} as const;
