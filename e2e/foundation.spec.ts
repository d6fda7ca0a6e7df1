import { E2E_ADMIN_EMAIL } from '../playwright.config';
import { expect, signIn, test, uniqueEmail } from './fixtures';

test('signed out: /user and the empty path land on /login, which shows the logo and one red button', async ({
  page,
}) => {
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('img', { name: /Voltas/ })).toBeVisible();
  const buttons = page.getByRole('button');
  await expect(buttons).toHaveCount(1);
  const button = page.getByRole('button', { name: 'Login with Google' });
  const color = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(color).toBe('rgb(211, 47, 47)');
  const [bw, pw] = await Promise.all([
    button.evaluate((el) => el.getBoundingClientRect().width),
    button.evaluate((el) => el.parentElement!.getBoundingClientRect().width),
  ]);
  expect(bw).toBeGreaterThan(pw - 40);
});

test('a new rider signs in: home shows name, guide and a rider menu; enroll saves and is prefilled; logout', async ({
  page,
}) => {
  const email = uniqueEmail('novo');
  await signIn(page, { email, name: 'Rita Pista' });

  await expect(page.getByText('Rita Pista', { exact: true })).toBeVisible();
  // A rider with no device yet: the guide is folded under its title, below their sessions; it opens.
  await page.getByTestId('usage-guide').locator('summary').click();
  for (const section of [
    'Instalação',
    'Menu do hardware',
    'Cronometragem',
    'Mensagens na tela',
    'Manutenção',
    'Suporte',
  ]) {
    await expect(page.getByRole('heading', { name: section })).toBeVisible();
  }
  for (const term of [
    'Send',
    'Delete',
    'Update',
    'Box',
    'Wi-Fi',
    'Bateria',
    'Info',
    'Pitlane',
    'Slow Down',
    'Ready to race',
    'Warm up the tires',
  ]) {
    await expect(page.getByText(term, { exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Menu' });
  await expect(nav.getByRole('link')).toHaveText([
    'meus dados',
    'laps',
    'Minhas sessões',
    'Evolução',
    'Comparar voltas',
    'Links compartilhados',
    'Importar sessões',
  ]);

  // A signed-in visit to /login lands on /user.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/user$/);

  await page.getByRole('button', { name: 'Menu' }).click();
  await nav.getByRole('link', { name: 'meus dados' }).click();
  await expect(page).toHaveURL(/\/enroll$/);

  // All four fields are required, with a Portuguese message per field.
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Campo obrigatório.')).toHaveCount(4);

  const senha = page.locator('#f-senha');
  await expect(senha).toHaveAttribute('type', 'password');
  await expect(page.getByText('Clique para mostrar a senha')).toBeVisible();
  await page.getByLabel('Wi-Fi', { exact: true }).fill('Box-Equipe');
  await senha.fill('s3gred0!');
  await expect(senha).toHaveAttribute('type', 'password');
  await page.getByLabel('Nome do Piloto').fill('Rita Pista');
  await page.getByLabel('Número da Moto').fill('27');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page).toHaveURL(/\/user$/);

  await page.goto('/enroll');
  await expect(page.getByLabel('Wi-Fi', { exact: true })).toHaveValue('Box-Equipe');
  await expect(page.getByLabel('Nome do Piloto')).toHaveValue('Rita Pista');
  await expect(page.getByLabel('Número da Moto')).toHaveValue('27');
  await expect(senha).toHaveValue('s3gred0!');
  await expect(senha).toHaveAttribute('type', 'password');
  await senha.click();
  await expect(senha).toHaveAttribute('type', 'text');

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Home' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login$/);
});

test('an ADMIN_EMAILS account sees the admin entries', async ({ page }) => {
  await signIn(page, { email: E2E_ADMIN_EMAIL, name: 'Chefe' });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link')).toHaveText([
    'meus dados',
    'laps',
    'Minhas sessões',
    'Evolução',
    'Comparar voltas',
    'Links compartilhados',
    'Importar sessões',
    'adm',
    'adm-Seller',
    'hardware',
    'firmware',
  ]);
});

test('the demo seller sees Vendas; a cancelled sign-in shows a Portuguese message on /login', async ({ page }) => {
  await signIn(page, { email: 'vendedor@voltas.local' });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link')).toHaveText([
    'meus dados',
    'laps',
    'Minhas sessões',
    'Evolução',
    'Comparar voltas',
    'Links compartilhados',
    'Importar sessões',
    'Vendas',
  ]);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  const popup = await popupPromise;
  await popup.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('alert')).toContainText('A janela de login foi fechada antes de terminar.');
  await expect(page).toHaveURL(/\/login\?erro=/);
});

test('a blocked popup falls back to a full-page sign-in', async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login with Google' }).click();
  await page.locator('form.main input[name="email"]').fill(uniqueEmail('semjanela'));
  await page.locator('form.main button[type="submit"]').click();
  await expect(page).toHaveURL(/\/user$/);
});

test('a page whose code cannot be downloaded says so in Portuguese and loads on retry', async ({ page }) => {
  await signIn(page, { email: uniqueEmail('offline') });
  await page.goto('/user');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  // The laps page's own code fails to arrive (offline at the track, or a release replaced it).
  await page.route(/\/assets\/laps-page-[^/]+\.js$/, (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'laps' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Não foi possível carregar esta página. Verifique a conexão e tente de novo.',
  );
  await page.unroute(/\/assets\/laps-page-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Tentar de novo' }).click(); // reloads the page
  await expect(page).toHaveURL(/\/laps$/);
  await expect(page.getByRole('heading', { name: 'Seleção da Pista' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('no page breaks the Content-Security-Policy, not even a caught probe (zod runs without its eval check)', async ({
  page,
}) => {
  const violations: string[] = [];
  await page.exposeFunction('voltasCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { voltasCspViolation: (v: string) => void }).voltasCspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    }),
  );
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login with Google' })).toBeVisible();
  await signIn(page, { email: uniqueEmail('csp') });
  for (const path of ['/user', '/enroll', '/laps', '/analytics']) {
    await page.goto(path);
    await expect(page.locator('h1.page-title')).toBeVisible();
  }
  expect(violations).toEqual([]);
});
