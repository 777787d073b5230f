import { describe, expect, it } from 'vitest';
import { byIdentity } from './byIdentity';

describe('byIdentity', () => {
  it('derives again only when the input is another object', () => {
    let runs = 0;
    const ids = byIdentity((xs: { id: number }[]) => {
      runs++;
      return xs.map((x) => x.id);
    });
    const a = [{ id: 1 }];
    const first = ids(a);
    expect(ids(a)).toBe(first);
    expect(runs).toBe(1);
    expect(ids([{ id: 1 }])).toEqual([1]);
    expect(runs).toBe(2);
  });
});
