import { describe, expect, it } from 'vitest';
import { checkNoAckedLoss, checkNoDuplicates, checkOrder, type FinalLogs, LeaderEpochWitness } from './checks';
import { generateFaultSchedule } from './FaultSchedule';

const log = (entries: [number, string][]) => new Map(entries);

describe('fault-schedule checks catch what they must', () => {
  const logs: FinalLogs = new Map([
    [
      't-0',
      log([
        [0, 'a'],
        [1, 'b'],
        [2, 'c'],
      ]),
    ],
  ]);

  it('an acknowledged record missing or replaced is a loss, unless declared lost', () => {
    expect(checkNoAckedLoss([{ value: 'b', topic: 't', partition: 0, offset: 1 }], logs)).toEqual([]);
    expect(checkNoAckedLoss([{ value: 'x', topic: 't', partition: 0, offset: 1 }], logs)).toHaveLength(1);
    expect(checkNoAckedLoss([{ value: 'd', topic: 't', partition: 0, offset: 3 }], logs)).toHaveLength(1);
    const declared = new Map([['t-0', [{ from: 3, to: 5 }]]]);
    expect(checkNoAckedLoss([{ value: 'd', topic: 't', partition: 0, offset: 3 }], logs, declared)).toEqual([]);
  });

  it('a value in two places is a duplicate', () => {
    expect(checkNoDuplicates(logs)).toEqual([]);
    const dup: FinalLogs = new Map([
      ['t-0', log([[0, 'a']])],
      ['t-1', log([[0, 'a']])],
    ]);
    expect(checkNoDuplicates(dup)).toHaveLength(1);
  });

  it('a later send at a lower offset is a reordering', () => {
    expect(
      checkOrder([
        { value: 'a', topic: 't', partition: 0, offset: 0 },
        { value: 'b', topic: 't', partition: 1, offset: 0 },
        { value: 'c', topic: 't', partition: 0, offset: 1 },
      ]),
    ).toEqual([]);
    expect(
      checkOrder([
        { value: 'a', topic: 't', partition: 0, offset: 1 },
        { value: 'c', topic: 't', partition: 0, offset: 0 },
      ]),
    ).toHaveLength(1);
  });

  it('two leaders in one epoch are caught', () => {
    const w = new LeaderEpochWitness();
    w.observe('t', 0, 1, 1);
    w.observe('t', 0, 1, 1);
    w.observe('t', 0, 2, 2);
    expect(w.violations).toEqual([]);
    w.observe('t', 0, 2, 3);
    expect(w.violations).toHaveLength(1);
  });

  it('schedules are reproducible and keep at most one broker in trouble', () => {
    const a = generateFaultSchedule(42, { brokers: [1, 2, 3], steps: 200 });
    expect(generateFaultSchedule(42, { brokers: [1, 2, 3], steps: 200 })).toEqual(a);
    let troubled: number | null = null;
    for (const s of a.steps) {
      if (s.op === 'killBroker' || s.op === 'powerFailBroker' || s.op === 'isolateBroker') {
        expect(troubled).toBeNull();
        troubled = s.broker;
      } else if (s.op === 'restartBroker' || s.op === 'healBroker') {
        expect(s.broker).toBe(troubled);
        troubled = null;
      }
    }
    expect(troubled).toBeNull();
  });
});
