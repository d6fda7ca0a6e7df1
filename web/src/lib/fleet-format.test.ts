import { describe, expect, it } from 'vitest';
import { storageSize, timeAgo } from './fleet-format';

const now = Date.parse('2026-11-20T12:00:00Z');

describe('timeAgo', () => {
  it('says the largest whole unit, in the language asked', () => {
    expect(timeAgo('2026-11-20T11:59:40Z', now, 'en')).toBe('now');
    expect(timeAgo('2026-11-20T11:55:00Z', now, 'en')).toBe('5 minutes ago');
    expect(timeAgo('2026-11-20T09:00:00Z', now, 'en')).toBe('3 hours ago');
    expect(timeAgo('2026-11-17T12:00:00Z', now, 'en')).toBe('3 days ago');
    expect(timeAgo('2026-11-19T12:00:00Z', now, 'pt-BR')).toBe('ontem');
    expect(timeAgo('2026-11-17T12:00:00Z', now, 'es')).toBe('hace 3 días');
  });
  it('a clock a little ahead of ours is "now", not the future', () => {
    expect(timeAgo('2026-11-20T12:00:30Z', now, 'en')).toBe('now');
  });
});

describe('storageSize', () => {
  it('picks a unit that keeps the number short', () => {
    expect(storageSize(512, 'en')).toBe('512 kB');
    expect(storageSize(1536, 'en')).toBe('1.5 MB');
    expect(storageSize(3 * 1024 * 1024, 'pt-BR')).toBe('3,0 GB');
  });
});
