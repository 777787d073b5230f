import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { Scheduler } from './Scheduler';

describe('Scheduler', () => {
  it('runs tasks in (time, insertion) order, skipping cancelled ones, also after cancelled tasks are swept out', () => {
    const s = new Scheduler(new ManualClock(0));
    const ran: number[] = [];
    const ids: number[] = [];
    // 2000 tasks at 100 distinct times; cancel three of every four (enough to trigger sweeps).
    for (let i = 0; i < 2000; i++) ids.push(s.scheduleAt((i * 37) % 100, () => ran.push(i)));
    for (let i = 0; i < 2000; i++) if (i % 4 !== 0) s.cancel(ids[i] as number);
    expect(s.pending).toBe(500);
    s.scheduleAt(50, () => ran.push(-1)); // scheduled after the sweeps: runs after the others at 50
    s.runUntil(1000);
    const expected = Array.from({ length: 2000 }, (_, i) => i)
      .filter((i) => i % 4 === 0)
      .map((i) => ({ i, at: (i * 37) % 100 }));
    expected.push({ i: -1, at: 50 });
    expected.sort((a, b) => a.at - b.at || (a.i === -1 ? 1 : b.i === -1 ? -1 : a.i - b.i));
    expect(ran).toEqual(expected.map((e) => e.i));
    expect(s.pending).toBe(0);
  });
});
