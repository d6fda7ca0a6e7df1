// @vitest-environment happy-dom
import type { UseQueryResult } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceHealth, Fleet } from '#core/contracts/device-health.contract.ts';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { FleetTable } from './fleet-table';

afterEach(cleanup);

const device = (over: Partial<DeviceHealth>): DeviceHealth => ({
  id: '000000000100',
  name: '',
  owner: 'ana@example.com',
  seller: 'bruno@example.com',
  version: '1.0.0',
  up: '',
  lastSeenAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  hardwareClass: 'vt1',
  slot: 'a',
  pendingVerify: false,
  battery: 80,
  freeStorageKb: 2048,
  queuedSessions: 0,
  lastUploadError: null,
  uploadErrors: 0,
  resetReason: null,
  rssi: -60,
  uptimeS: 100,
  rollout: null,
  attention: [],
  ...over,
});

const fleet: Fleet = {
  devices: [
    device({ id: '000000000101', lastSeenAt: null, attention: ['silent'] }),
    device({ id: '000000000102', lastUploadError: 'timeout', uploadErrors: 3, attention: ['upload-errors'] }),
    device({ id: '000000000103', rollout: { id: 'r', version: '2.0.0', state: 'downloading', error: null } }),
  ],
  versions: [],
  thresholds: { silentAfterHours: 48, lowStorageKb: 1024, lowBatteryPct: 15 },
};

const query = { isPending: false, isError: false, isSuccess: true, data: fleet } as UseQueryResult<Fleet>;

describe('FleetTable', () => {
  it("keeps the spec's columns, 'Up' as last seen, and marks devices needing a look in words", () => {
    renderInIntl(<FleetTable label="Frota" query={query} withRollout />);
    expect(screen.getByRole('columnheader', { name: /^Up.*visto por último/ })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('⚠ 2 hardwares precisam de atenção; eles aparecem primeiro.');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.classList.contains('row-attention'))).toEqual([true, true, false]);
    expect(within(rows[0]!).getByText('Sem contato')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('nunca');
    expect(within(rows[1]!).getByText('Envios falhando')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('último: timeout');
    expect(rows[2]!.textContent).toContain('há 2 horas');
    expect(rows[2]!.textContent).toContain('2.0.0: baixando');
    expect(rows[2]!.textContent).toContain('2,0 MB');
  });

  it('sorts by a column when asked, over the attention order', () => {
    renderInIntl(<FleetTable label="Frota" query={query} withRollout />);
    fireEvent.click(screen.getByRole('button', { name: /^Erros de envio/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Erros de envio/ }));
    expect(screen.getAllByRole('row')[1]!.textContent).toContain('000000000102');
  });
});
