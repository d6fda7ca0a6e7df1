/** pt-BR texts of the firmware refusals (issue 61); spread into the one catalog in pt-BR.ts. */
export const ptBRFirmwareErrors = {
  'errors.firmware/bad-signature':
    'O manifesto não está assinado por nenhuma chave de FIRMWARE_PUBLIC_KEYS (ou a assinatura não confere); nada foi guardado.',
  'errors.firmware/bad-manifest':
    'O manifesto não é o que `voltas firmware sign` gera (class, version, seq, sha256, size, expires, minFrom), ou já expirou; nada foi guardado.',
  'errors.firmware/seq-not-above':
    'O seq do manifesto não é maior que o da última imagem desta classe de hardware: uma imagem nunca faz uma classe voltar atrás.',
  'errors.firmware/image-mismatch':
    'Os bytes da imagem não conferem com o manifesto assinado (tamanho ou sha256); nada foi guardado.',
  'errors.firmware/image-missing': 'A imagem deste firmware ainda não foi enviada: envie-a antes de distribuí-la.',
  'errors.firmware/not-offered': 'Este hardware não recebeu a oferta deste firmware, ou não está nesta distribuição.',
  'errors.firmware/rollout-closed': 'Esta distribuição foi parada, cancelada ou concluída: a oferta não vale mais.',
  'errors.firmware/not-rebooted':
    'Confirme só depois de reiniciar com a imagem nova: o último contato não informou essa versão.',
  'errors.firmware/range-not-satisfiable': 'O trecho pedido (Range) começa depois do fim da imagem.',
  'errors.firmware/busy':
    'Muitos hardwares estão baixando firmware deste servidor agora: tente de novo após Retry-After segundos.',
} as const;
