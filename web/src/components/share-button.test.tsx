// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ShareButton } from './share-button';

afterEach(cleanup);

describe('ShareButton', () => {
  it('reads its expiries as Portuguese: "1 dia", "7 dias"', () => {
    renderInIntl(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <ShareButton session={{ device: '000000000042', track: 'Interlagos', date: '15112026' }} laps={['A1']} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Compartilhar' }));
    const expiry = screen.getByLabelText('Validade');
    expect(
      within(expiry)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Até eu revogar', '1 dia', '7 dias', '30 dias']);
  });
});
