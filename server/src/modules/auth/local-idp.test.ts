import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExpiringStore } from './local-idp-adapter';

describe("the local provider's store", () => {
  afterEach(() => vi.useRealTimers());

  it('keeps every entry until it expires, however many (200 riders signing in at once)', async () => {
    const codes = new ExpiringStore().adapter('AuthorizationCode');
    for (let i = 0; i < 5000; i++) await codes.upsert(String(i), { jti: String(i) }, 60);
    expect(await codes.find('0')).toEqual({ jti: '0' });
    expect(await codes.find('4999')).toEqual({ jti: '4999' });
  });

  it('forgets an entry once its time is up, and sweeps what expired', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = new ExpiringStore();
    store.set('Interaction:a', { jti: 'a' }, 1);
    store.set('Grant:g', { jti: 'g' }, undefined);
    vi.setSystemTime(1_000_999);
    expect(store.get('Interaction:a')).toEqual({ jti: 'a' });
    vi.setSystemTime(1_001_000);
    expect(store.get('Interaction:a')).toBeUndefined();
    for (let i = 0; i < 997; i++) store.set(`Session:${i}`, { jti: String(i) }, 0.001);
    vi.setSystemTime(1_002_000);
    store.set('Session:last', { jti: 'last' }, 0.001); // the 1,000th write sweeps
    expect(store.size).toBe(2);
    expect(store.get('Grant:g')).toEqual({ jti: 'g' });
    store.delete('Grant:g');
    expect(store.get('Grant:g')).toBeUndefined();
  });

  it('finds a session by its uid, marks a code consumed, and revokes what a grant issued', async () => {
    const store = new ExpiringStore();
    const sessions = store.adapter('Session');
    const codes = store.adapter('AuthorizationCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a@example.com' }, 600);
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'a@example.com' });
    await sessions.destroy('s1');
    expect(await sessions.findByUid('u1')).toBeUndefined();

    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.upsert('c2', { grantId: 'g2' }, 60);
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
    // An interaction that names the grant is not something the grant issued: it stays.
    await store.adapter('Interaction').upsert('i1', { grantId: 'g1' }, 600);
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await store.adapter('Interaction').find('i1')).toMatchObject({ grantId: 'g1' });
    expect(await codes.find('c2')).toMatchObject({ grantId: 'g2' });
  });
});
