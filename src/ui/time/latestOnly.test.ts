import { describe, expect, it } from 'vitest';
import { latestOnly } from './latestOnly';

describe('latestOnly', () => {
  it('runs the first value at once, then only the newest of those asked meanwhile', async () => {
    const ran: number[] = [];
    const waiting: (() => void)[] = [];
    const ask = latestOnly((v: number) => {
      ran.push(v);
      return new Promise<void>((resolve) => waiting.push(resolve));
    });
    ask(1);
    ask(2);
    ask(3);
    expect(ran).toEqual([1]);
    waiting.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toEqual([1, 3]);
    waiting.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toEqual([1, 3]);
  });
});
