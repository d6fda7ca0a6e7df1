// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Fleet } from '#core/contracts/device-health.contract.ts';
import type { Firmware, Rollout } from '#core/contracts/firmware.contract.ts';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { FirmwarePage } from './firmware-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const image: Firmware = {
  id: 'fw1',
  class: 'vt1',
  version: '2.0.0',
  seq: 2,
  sha256: 'a'.repeat(64),
  size: 1024,
  minFrom: '',
  expires: '2027-01-01T00:00:00Z',
  imageStored: true,
  createdAt: '2026-11-20T10:00:00Z',
  createdBy: 'admin@voltas.local',
};

const rollout = (over: Partial<Rollout>): Rollout => ({
  id: 'r1',
  firmwareId: 'fw1',
  class: 'vt1',
  version: '2.0.0',
  cohorts: ['all'],
  percent: 10,
  failureThresholdPct: 30,
  minDevices: 5,
  minBatteryPct: 30,
  state: 'running',
  haltReason: null,
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
  createdBy: 'admin@voltas.local',
  offered: 8,
  downloaded: 6,
  confirmed: 4,
  failed: 0,
  failures: {},
  ...over,
});

const fleet: Fleet = {
  devices: [],
  versions: [
    { class: 'vt1', version: '1.0.0', devices: 3 },
    { class: 'vt1', version: '2.0.0', devices: 1 },
  ],
  thresholds: { silentAfterHours: 48, lowStorageKb: 1024, lowBatteryPct: 15 },
};

/** The firmware page with the server's answers: GETs from `reads`, the rest recorded. */
function renderPage(rollouts: Rollout[], images: Firmware[] = [image]) {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const reads: Record<string, unknown> = {
    '/api/admin/fleet': fleet,
    '/api/admin/firmware': { firmware: images },
    '/api/admin/rollouts': { rollouts },
    '/api/admin/sellers': [],
    '/api/admin/users': [
      {
        email: 'ana@example.com',
        displayName: 'Ana',
        hardware: [],
        adm: '',
        seller: '',
        nomePiloto: '',
        numeroMoto: '',
        wifi: '',
        userSeller: '',
        disabled: false,
      },
    ],
    '/api/admin/cohorts': { users: [{ email: 'bia@example.com', cohort: 'beta' }] },
  };
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    if (!init?.method || init.method === 'GET') return Promise.resolve(json(reads[url] ?? {}));
    if (url.endsWith('/cohort')) return Promise.resolve(json({ ok: true }));
    return Promise.resolve(json(rollouts[0]));
  });
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/firmware', element: <FirmwarePage /> }], {
    initialEntries: ['/firmware'],
  });
  renderInIntl(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const writes = () => fetch.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET');
  return { writes };
}

describe('FirmwarePage', () => {
  it('names each thing wrong with an upload before sending anything', async () => {
    const { writes } = renderPage([]);
    fireEvent.change(screen.getByLabelText('Manifesto (JSON)'), { target: { value: '{"class":"vt1"}' } });
    fireEvent.change(screen.getByLabelText('Assinatura (base64)'), { target: { value: 'abc' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Enviar imagem' }));
    });
    expect(screen.getByText(/O manifesto não é o JSON/)).toBeTruthy();
    expect(screen.getByText(/A assinatura deve ser o base64 de 64 bytes/)).toBeTruthy();
    expect(screen.getByText('Escolha o arquivo da imagem.')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('shows a rollout as a funnel, with one click to widen it', async () => {
    const { writes } = renderPage([rollout({})]);
    const funnel = await screen.findByRole('list', { name: 'Funil da distribuição 2.0.0' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Oferecida 8', 'Baixada 6', 'Confirmada 4', 'Falhou 0']);
    expect(screen.getByText('Nenhuma falha relatada.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Passar a 10%' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Passar a 50%' }));
    });
    await waitFor(() => expect(writes()).toHaveLength(1));
    const [url, init] = writes()[0]!;
    expect(url).toBe('/api/admin/rollouts/r1');
    expect(init?.method).toBe('PATCH');
    expect(JSON.parse(String(init?.body))).toEqual({ percent: 50 });
  });

  it('says a rollout done at its share is done, and widens it with one click', async () => {
    const { writes } = renderPage([rollout({ state: 'done', percent: 10, offered: 4, downloaded: 4 })]);
    expect((await screen.findByTestId('rollout-state')).textContent).toBe('concluída');
    expect(screen.getByText(/^Concluída: todos os hardwares da parcela terminaram/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pausar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancelar a distribuição' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Passar a 50%' }));
    });
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(JSON.parse(String(writes()[0]![1]?.body))).toEqual({ percent: 50 });
  });

  it('pauses and aborts with one click each', async () => {
    const { writes } = renderPage([rollout({})]);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Pausar' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancelar a distribuição' }));
    });
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes().map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { state: 'paused' },
      { state: 'aborted' },
    ]);
  });

  it('marks a halted rollout in words, with its failure codes and no more changes', async () => {
    renderPage([
      rollout({
        state: 'halted',
        // Reports that came after the halt move the funnel, not the reason it halted.
        failed: 7,
        failures: { 'boot-loop': 6, 'hash-mismatch': 1 },
        confirmed: 5,
        haltReason: { code: 'failure-threshold', failed: 5, judged: 9, threshold: 30 },
      }),
    ]);
    expect((await screen.findByTestId('rollout-state')).textContent).toBe('⚠ parada por falhas');
    expect(screen.getByText('Parada sozinha: 5 de 9 hardwares falharam (56%, acima de 30%).')).toBeTruthy();
    expect(screen.getAllByRole('listitem').some((li) => li.textContent === 'boot-loop: 6')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Pausar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retomar' })).toBeNull();
  });

  it('says an image must be uploaded before a rollout, and counts the versions', async () => {
    renderPage([], [{ ...image, imageStored: false }]);
    expect(await screen.findByText(/Envie uma imagem primeiro/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Versões na frota' }).textContent).toContain('3 hardwares');
  });

  it('refuses a start with no group and a share out of range', async () => {
    const { writes } = renderPage([]);
    await screen.findByRole('button', { name: 'Começar a distribuição' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Todos os hardwares' }));
    fireEvent.change(screen.getByLabelText('Parcela dos hardwares (%)'), { target: { value: '150' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Começar a distribuição' }));
    });
    expect(screen.getByText('Escolha pelo menos um grupo.')).toBeTruthy();
    expect(screen.getByText('Um número de 0 a 100.')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('puts a user in the beta group, naming the user first if none is chosen', async () => {
    const { writes } = renderPage([]);
    expect(await screen.findByText('bia@example.com: Pilotos beta')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar grupo' }));
    });
    expect(screen.getByText('Escolha o usuário.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'ana@example.com' })).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Usuário'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Grupo'), { target: { value: 'beta' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Salvar grupo' }));
    });
    await waitFor(() => expect(screen.getByText('Grupo salvo.')).toBeTruthy());
    const [url, init] = writes()[0]!;
    expect(url).toBe('/api/admin/users/ana%40example.com/cohort');
    expect(JSON.parse(String(init?.body))).toEqual({ cohort: 'beta' });
  });
});
