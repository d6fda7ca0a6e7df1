// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readAnalyticsView, useAnalyticsAddress } from './analytics-address';

const at = (query: string) => readAnalyticsView(new URLSearchParams(query));

describe("the analytics page's address", () => {
  it('reads the session, the laps drawn, the colour and the study', () => {
    const view = at(
      'hw=000000000042&pista=Interlagos&data=2026-11-15&voltas=A3,,B1&cor=inclinacao&estudada=4&referencia=ideal',
    );
    expect(view).toEqual({
      session: { device: '000000000042', track: 'Interlagos', date: '2026-11-15' },
      device: '000000000042',
      laps: ['A3', 'B1'],
      lean: true,
      studiedLap: 4,
      studyReference: 'ideal',
    });
  });

  it('leaves what it cannot read to the page: no laps, speed, no study', () => {
    expect(at('voltas=&cor=velocidade&estudada=x&referencia=1.5')).toEqual({
      session: null,
      device: null,
      laps: undefined,
      lean: false,
      studiedLap: undefined,
      studyReference: undefined,
    });
    expect(at('referencia=3').studyReference).toBe(3);
    expect(at('referencia=recorde').studyReference).toBe('record');
  });

  it('writes each change into the address, keeping the rest', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={['/analytics?hw=D1&pista=Interlagos&data=2026-11-15&cor=inclinacao']}>
        {children}
      </MemoryRouter>
    );
    const { result } = renderHook(() => ({ address: useAnalyticsAddress(), location: useLocation() }), { wrapper });
    act(() => result.current.address.setLaps(['A2', 'A3']));
    act(() => result.current.address.chooseStudy({ lap: 5, reference: 'ideal' }));
    act(() => result.current.address.setLean(false));
    expect(result.current.address.laps).toEqual(['A2', 'A3']);
    expect(result.current.address.studiedLap).toBe(5);
    expect(result.current.address.lean).toBe(false);
    expect(result.current.address.session?.track).toBe('Interlagos');
    // Another session: its address, the colour kept, the rest of the old view gone.
    act(() => result.current.address.setLean(true));
    act(() => result.current.address.openSession({ device: 'D2', track: 'Velocitta', date: '2026-11-20' }));
    const params = new URLSearchParams(result.current.location.search);
    expect(Object.fromEntries(params)).toEqual({ hw: 'D2', pista: 'Velocitta', data: '2026-11-20', cor: 'inclinacao' });
  });
});
