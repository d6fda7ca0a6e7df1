import type { ErrorCode } from '../errors';

/**
 * The one catalog of user-facing text, in Brazilian Portuguese. The only English text in the
 * product is the "Login with Google" button, as the spec asks. Server-rendered pages (the local
 * sign-in page) read it too.
 */
export const ptBR = {
  app: {
    name: 'Voltas',
    logoAlt: 'Voltas — cronometragem de voltas',
    loading: 'Carregando…',
    retry: 'Tentar de novo',
    notFoundTitle: 'Página não encontrada',
    notFoundBody: 'O endereço não existe. Volte para o início.',
    goHome: 'Ir para o início',
  },
  login: {
    button: 'Login with Google',
    subtitle: 'Seus tempos de volta, setores e trajetos de GPS depois de cada sessão na pista.',
    waiting: 'Aguardando o login na janela aberta…',
    errorTitle: 'Não foi possível entrar',
  },
  menu: {
    toggle: 'Menu',
    home: 'Home',
    meusDados: 'meus dados',
    meusDadosTitle: 'Meus Dados',
    laps: 'laps',
    analytics: 'analytics',
    vendas: 'Vendas',
    adm: 'adm',
    admSeller: 'adm-Seller',
    hardware: 'hardware',
    logout: 'Logout',
    loggingOut: 'Saindo…',
  },
  home: {
    greeting: 'Olá, {name}',
    avatarAlt: 'Foto de {name}',
    guideTitle: 'Guia de uso',
    installTitle: 'Instalação',
    installBody:
      'Fixe o dispositivo na moto em um lugar onde o piloto consiga vê-lo com facilidade durante a pilotagem, firme e longe de vibrações excessivas.',
    deviceMenuTitle: 'Menu do dispositivo',
    deviceMenu: [
      ['Send', 'envia os dados gravados para o servidor.'],
      ['Delete', 'apaga todos os dados salvos no dispositivo.'],
      ['Update', 'atualiza o dispositivo.'],
      ['Box', 'identifica a saída dos boxes.'],
      ['Wi-Fi', 'volta à rede Wi-Fi padrão.'],
      ['Bateria', 'escolhe a bateria (A, B, C ou D).'],
      ['Info', 'mostra as informações do dispositivo.'],
    ],
    timingTitle: 'Cronometragem',
    timingBody:
      'Ligue o dispositivo e aguarde o sinal de GPS. Os tempos de cada setor aparecem ao vivo na tela enquanto você pilota.',
    messagesTitle: 'Mensagens na tela',
    messages: [
      ['Pitlane', 'você entrou na área dos boxes.'],
      ['Slow Down', 'você está acima do limite de velocidade dos boxes.'],
      ['Ready to race', 'o sinal de GPS está pronto.'],
      ['Warm up the tires', 'você está na volta de aquecimento.'],
    ],
    maintenanceTitle: 'Manutenção',
    maintenance: [
      'Carregue o dispositivo antes de usar.',
      'Evite chuva prolongada e calor extremo.',
      'Atualize o firmware regularmente.',
    ],
    supportTitle: 'Suporte',
    supportBody: 'Dúvidas ou problemas? Escreva para',
    supportEmail: 'suporte@voltas.app',
  },
  enroll: {
    title: 'Meus Dados',
    intro: 'Estes dados vão para o seu dispositivo: a rede Wi-Fi que ele usa para enviar as voltas e como você aparece nos tempos.',
    wifi: 'Wi-Fi',
    senha: 'Senha do Wi-Fi',
    senhaHint: 'Clique para mostrar a senha',
    senhaHidden: 'Senha oculta',
    nomePiloto: 'Nome do Piloto',
    numeroMoto: 'Número da Moto',
    save: 'Salvar',
    saving: 'Salvando…',
    saveFailed: 'Não foi possível salvar. Confira os campos e tente de novo.',
  },
  fieldErrors: {
    required: 'Campo obrigatório.',
    tooLong: 'Texto longo demais.',
    invalidBikeNumber: 'Use apenas letras, números e hífen.',
    invalid: 'Valor inválido.',
  },
  localIdp: {
    title: 'Entrar no Voltas (provedor local)',
    intro: 'Provedor de identidade local, para uso sem conta Google. Digite um e-mail ou escolha uma conta de demonstração.',
    email: 'E-mail',
    name: 'Nome (opcional)',
    submit: 'Entrar',
    demoAccounts: 'Contas de demonstração',
    invalidEmail: 'Digite um e-mail válido.',
    cancel: 'Cancelar',
  },
  authDone: {
    finishing: 'Concluindo o login…',
  },
  errors: {
    'storage/unknown': 'Ocorreu um erro inesperado. Tente de novo.',
    'storage/object-not-found': 'Não encontramos o que você procurou.',
    'storage/bucket-not-found': 'O armazenamento de arquivos não foi encontrado.',
    'storage/quota-exceeded': 'O limite de armazenamento foi atingido.',
    'storage/unauthenticated': 'Sua sessão terminou. Entre de novo.',
    'storage/unauthorized': 'Você não tem permissão para isso.',
    'storage/retry-limit-exceeded': 'O servidor não respondeu a tempo. Tente de novo em instantes.',
    'storage/invalid-checksum': 'O arquivo chegou corrompido. Envie de novo.',
    'storage/canceled': 'Operação cancelada.',
    'storage/invalid-argument': 'Algum dado enviado é inválido.',
    'storage/invalid-format': 'O arquivo não está no formato esperado.',
    'storage/server-file-wrong-size': 'O arquivo é grande demais.',
    'storage/internal-error': 'Erro no servidor. Tente de novo em instantes.',
    'auth/too-many-requests': 'Muitas tentativas. Aguarde um pouco e tente de novo.',
    'auth/user-disabled': 'Esta conta está desativada. Fale com o suporte.',
    'auth/invalid-credential': 'Não foi possível confirmar o login. Tente de novo.',
    'auth/network-request-failed': 'Sem conexão com o provedor de login. Verifique a internet e tente de novo.',
    'auth/operation-not-allowed': 'O login foi recusado pelo provedor.',
    'auth/popup-closed-by-user': 'A janela de login foi fechada antes de terminar.',
    'auth/popup-blocked': 'O navegador bloqueou a janela de login. Continuando na mesma página…',
    'auth/unauthorized-domain': 'Este endereço não está autorizado a fazer login.',
    'auth/user-token-expired': 'Sua sessão expirou. Entre de novo.',
  } satisfies Record<ErrorCode, string>,
} as const;

export type Catalog = typeof ptBR;

/** Replaces `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
