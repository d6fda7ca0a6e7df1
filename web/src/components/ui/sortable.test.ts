import { describe, expect, it } from 'vitest';
import { nextSort } from './sortable';

describe('sorting rule', () => {
  it('a newly chosen column starts ascending; choosing it again reverses', () => {
    let s = nextSort<'a' | 'b'>({ key: null, dir: 'asc' }, 'a');
    expect(s).toEqual({ key: 'a', dir: 'asc' });
    s = nextSort(s, 'a');
    expect(s).toEqual({ key: 'a', dir: 'desc' });
    s = nextSort(s, 'a');
    expect(s).toEqual({ key: 'a', dir: 'asc' });
    s = nextSort(nextSort(s, 'a'), 'b');
    expect(s).toEqual({ key: 'b', dir: 'asc' });
  });
});
