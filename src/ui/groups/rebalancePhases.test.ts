import { describe, expect, it } from 'vitest';
import { phaseMarks } from './rebalancePhases';
import { leaveRebalance, request, state } from './rebalanceEvents.testdata';
import { toEngineMs } from '../../worker/client';

const at = (ms: number) => toEngineMs(ms);

describe('phaseMarks', () => {
  it('reads each phase of a rebalance from the event that makes it, with engine times since the scenario started', () => {
    const marks = phaseMarks(leaveRebalance);
    expect(marks.map((m) => [m.phase, m.atMs, m.generation])).toEqual([
      ['leave', 100, null],
      ['leave', 101, null],
      ['leave', 902, null],
      ['join', 902, null],
      ['compute', 903, 2],
      ['sync', 904, null],
      ['assign', 905, 2],
      ['assign', 906, 2],
    ]);
    expect(marks.every((m) => m.groupId === 'billing')).toBe(true);
  });

  it('ignores heartbeats and empty revocations; a group that empties comes to rest', () => {
    const marks = phaseMarks([
      request('Heartbeat', 'c1', 5),
      {
        type: 'consumerRebalanceCallback',
        consumerId: 'c1',
        groupId: 'billing',
        callback: 'onPartitionsRevoked',
        partitions: [],
        generationId: 1,
        atMs: at(6),
      },
      state('PreparingRebalance', 'Empty', 3, 7),
    ]);
    expect(marks.map((m) => [m.phase, m.generation])).toEqual([['stable', 3]]);
  });
});
