// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { renderInIntl } from '#web/test-support/render-in.tsx';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/lib/api-client.ts';
import { AssignForm } from './assign-form';

afterEach(cleanup);

const props = (onAssign: (a: string, b: string) => Promise<unknown>) => ({
  first: { label: 'Selecione um usuário', options: [{ value: 'ana@example.com', label: 'ana@example.com' }] },
  second: { label: 'Selecione um hardware', options: [{ value: '000000000042', label: '000000000042' }] },
  onAssign,
});

describe("AssignForm (the spec's two dropdowns and Cadastrar)", () => {
  it('does nothing until both are chosen, and says so', () => {
    const onAssign = vi.fn(async () => undefined);
    renderInIntl(<AssignForm {...props(onAssign)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(screen.getByRole('alert').textContent).toBe('Escolha as duas opções antes de cadastrar.');
    fireEvent.change(screen.getByLabelText('Selecione um usuário'), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(onAssign).not.toHaveBeenCalled();
  });

  it("with both chosen, assigns and reads 'Cadastrado!', then clears the choices", async () => {
    const onAssign = vi.fn(async () => undefined);
    renderInIntl(<AssignForm {...props(onAssign)} />);
    fireEvent.change(screen.getByLabelText('Selecione um usuário'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Selecione um hardware'), { target: { value: '000000000042' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    });
    expect(onAssign).toHaveBeenCalledWith('ana@example.com', '000000000042');
    expect(screen.getByRole('button', { name: 'Cadastrado!' })).toBeTruthy();
    expect((screen.getByLabelText('Selecione um usuário') as HTMLSelectElement).value).toBe('');
  });

  it('a refusal shows the Portuguese message with the request id, and keeps the choices', async () => {
    const onAssign = vi.fn(async () => {
      throw new ApiError('device/reserved-id', 400, 'x', {}, 'abc123def0');
    });
    renderInIntl(<AssignForm {...props(onAssign)} />);
    fireEvent.change(screen.getByLabelText('Selecione um usuário'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Selecione um hardware'), { target: { value: '000000000042' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'O hardware 000000000001 é o de demonstração e não pode ser entregue a ninguém. (código do erro: abc123def0)',
    );
    expect((screen.getByLabelText('Selecione um hardware') as HTMLSelectElement).value).toBe('000000000042');
  });
});
