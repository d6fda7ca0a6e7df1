import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringStore } from './local-idp';

describe("the local provider's store", () => {
  afterEach(() => vi.useRealTimers());

  it('keeps every entry until it expires, however many (200 riders signing in at once)', () => {
    const store = new ExpiringStore();
    for (let i = 0; i < 5000; i++) store.set(`AuthorizationCode:${i}`, { i }, { maxAge: 60_000 });
    expect(store.get('AuthorizationCode:0')).toEqual({ i: 0 });
    expect(store.get('AuthorizationCode:4999')).toEqual({ i: 4999 });
  });

  it('forgets an entry once its time is up, and sweeps what expired', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = new ExpiringStore();
    store.set('Interaction:a', 'a', { maxAge: 1000 });
    store.set('grant:g', 'kept', undefined);
    vi.setSystemTime(1_000_999);
    expect(store.get('Interaction:a')).toBe('a');
    vi.setSystemTime(1_001_000);
    expect(store.get('Interaction:a')).toBeUndefined();
    for (let i = 0; i < 997; i++) store.set(`Session:${i}`, i, { maxAge: 1 });
    vi.setSystemTime(1_002_000);
    store.set('Session:last', 'x', { maxAge: 1 }); // the 1,000th write sweeps
    expect(store.size).toBe(2);
    expect(store.get('grant:g')).toBe('kept');
    store.delete('grant:g');
    expect(store.get('grant:g')).toBeUndefined();
  });
});
