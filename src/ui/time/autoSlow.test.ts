import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../engine/apps/types';
import { ELECTION_TAIL_MS, ELECTION_WAIT_MS, electionUntil, slowedSpeed } from './autoSlow';
import { toEngineMs } from '../../worker/client';

const at = (ms: number) => toEngineMs(ms);

function leaderChange(topic: string, from: number, to: number, ms: number): EngineEvent {
  return {
    type: 'partitionStateChanged',
    topic,
    partition: 0,
    old: { leader: from, leaderEpoch: 0, isr: [1, 2, 3], partitionEpoch: 0 },
    new: { leader: to, leaderEpoch: 1, isr: [2, 3], partitionEpoch: 1 },
    reason: 'offlinePartition',
    controllerEpoch: 1,
    atMs: at(ms),
  };
}

describe('the auto slow-down', () => {
  it('caps the clock at 1x while something plays, keeps a slower choice, and does nothing when switched off', () => {
    expect(slowedSpeed(16, true, true)).toBe(1);
    expect(slowedSpeed(0.25, true, true)).toBe(0.25);
    expect(slowedSpeed(16, false, true)).toBe(16);
    expect(slowedSpeed(16, true, false)).toBe(16);
  });

  it('plays an election from the broker killed until a little after the controller moved the leaders', () => {
    const killed: EngineEvent = { type: 'brokerDown', broker: 1, how: 'killed', lostUnflushedBytes: 0, atMs: at(1000) };
    let until = electionUntil(-1, [killed]);
    expect(until).toBe(1000 + ELECTION_WAIT_MS);
    until = electionUntil(until, [leaderChange('orders', 1, 2, 7000)]);
    expect(until).toBe(7000 + ELECTION_TAIL_MS);
    // The internal offsets topic's leaders move too, but the learner watches the user topics.
    expect(electionUntil(until, [leaderChange('__consumer_offsets', 1, 2, 7100)])).toBe(until);
    // A clean stop moves leaders at once (controlled shutdown): nothing to wait for.
    const stopped: EngineEvent = {
      type: 'brokerDown',
      broker: 2,
      how: 'stopped',
      lostUnflushedBytes: 0,
      atMs: at(9000),
    };
    expect(electionUntil(-1, [stopped])).toBe(-1);
  });
});
