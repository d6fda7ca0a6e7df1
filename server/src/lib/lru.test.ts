import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';

describe('LruCache', () => {
  it('keeps at most its size, forgetting the least recently used first', () => {
    const cache = new LruCache<string, number>(3);
    for (const [k, v] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(k, v);
    expect(cache.get('a')).toBe(1); // 'a' used: 'b' is now the oldest
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.has('b')).toBe(false);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
    cache.set('c', 30); // replacing counts once
    expect(cache.size).toBe(3);
    expect(cache.get('c')).toBe(30);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it('refuses a size that bounds nothing', () => {
    expect(() => new LruCache(0)).toThrow();
    expect(() => new LruCache(Infinity)).toThrow();
  });
});
