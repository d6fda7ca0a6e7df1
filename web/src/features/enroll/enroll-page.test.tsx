// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '#core/contracts/me.contract.ts';
import { queryKeys } from '#web/lib/query-keys.ts';
import { EnrollPage } from './enroll-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me: Me = {
  email: 'ana@example.com',
  displayName: 'Ana',
  avatarUrl: '',
  roles: { admin: false, seller: false },
  devices: ['000000000042'],
  ownedDevices: [
    {
      id: '000000000042',
      hasToken: true,
      version: '1.4.0',
      lastSeenAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    },
    { id: '000000000043', hasToken: false, version: '', lastSeenAt: null },
  ],
  demoDevice: '000000000001',
  profile: { wifi: '', senha: '', nomePiloto: '', numeroMoto: '' },
};

/** The requests that write (the page's reads, such as the rider's preferences, are not its business). */
const writes = (fetch: ReturnType<typeof vi.fn>) =>
  fetch.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET') as [
    string,
    RequestInit & { body: string },
  ][];

/** The enroll page in a router, signed in as `me`; the server's answers come from `fetch`. */
function renderPage(fetch: (url: string, init?: RequestInit) => Promise<Response>) {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => (url === '/api/me' ? Promise.resolve(json(me)) : fetch(url, init))),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(queryKeys.me, me);
  const router = createMemoryRouter(
    [
      { path: '/enroll', element: <EnrollPage /> },
      { path: '/user', element: <p>home</p> },
    ],
    { initialEntries: ['/enroll'] },
  );
  renderInIntl(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, fetch: globalThis.fetch as ReturnType<typeof vi.fn> };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('EnrollPage (Meus Dados)', () => {
  it("keeps the Wi-Fi password hidden until asked, with the spec's hint", () => {
    renderPage(async () => new Response('{}'));
    expect(field('Senha do Wi-Fi').type).toBe('password');
    expect(field('Senha do Wi-Fi').placeholder).toBe('Clique para mostrar a senha');
    fireEvent.click(screen.getByRole('button', { name: 'Clique para mostrar a senha' }));
    expect(field('Senha do Wi-Fi').type).toBe('text');
  });

  it("shows each device's firmware and last contact, or that it never called", () => {
    renderPage(async () => new Response('{}'));
    const [talked, silent] = screen.getAllByTestId('device-contact');
    expect(talked!.textContent).toBe('firmware 1.4.0 · último contato há 3 horas');
    expect(silent!.textContent).toBe('firmware ainda não relatado · ainda não falou com o servidor');
  });

  it('requires every field: nothing is sent until all four are filled', async () => {
    const { fetch } = renderPage(async () => new Response('{}'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    expect(screen.getAllByText('Campo obrigatório.')).toHaveLength(4);
    expect(field('Wi-Fi').getAttribute('aria-invalid')).toBe('true');
    expect(writes(fetch)).toEqual([]);
  });

  it('saves the four fields and goes home', async () => {
    const { router, fetch } = renderPage(
      async () => new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } }),
    );
    for (const [label, value] of [
      ['Wi-Fi', 'Box 12'],
      ['Senha do Wi-Fi', ' s3nha '],
      ['Nome do Piloto', 'Ana'],
      ['Número da Moto', '27'],
    ]) {
      fireEvent.change(field(label!), { target: { value } });
    }
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    });
    const [url, init] = writes(fetch)[0]!;
    expect(url).toBe('/api/me/profile');
    expect(init.method).toBe('PUT');
    // The password is kept exactly as typed, spaces included.
    expect(JSON.parse(init.body)).toEqual({ wifi: 'Box 12', senha: ' s3nha ', nomePiloto: 'Ana', numeroMoto: '27' });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/user'));
  });

  it('lists my devices with a way to revoke a token', () => {
    renderPage(async () => new Response('{}'));
    expect(screen.getByRole('heading', { name: 'Meus hardwares' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revogar token' })).toBeTruthy();
  });
});
