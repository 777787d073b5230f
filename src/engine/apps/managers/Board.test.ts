import { describe, expect, it } from 'vitest';
import { Engine, isKafkaError, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import { Board } from './Board';
import { SCENARIO_EPOCH_MS } from '../scenarioTime';

function board(): { engine: Engine; board: Board } {
  const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
  for (let i = 0; i < 3; i++) engine.addBroker();
  engine.tick(100);
  engine.createTopic({ name: 'orders', partitions: 3, replicationFactor: 3 });
  engine.tick(200);
  return { engine, board: new Board(engine, () => ['orders']) };
}

/** The board with group billing (range assignor) and no consumers yet. */
function billingBoard(): Board {
  const { board: b } = board();
  b.addGroup('billing', 'range');
  return b;
}

function refusal(f: () => void): string {
  try {
    f();
  } catch (e) {
    if (isKafkaError(e)) return e.code;
    throw e;
  }
  return 'none';
}

describe('Board', () => {
  it('starts a consumer application in its group, named c1, c2, ... when unnamed', () => {
    const b = billingBoard();
    b.addConsumer('billing', undefined);
    b.addConsumer('billing', undefined);
    expect([...b.consumers.values()]).toEqual([
      { name: 'c1', group: 'billing' },
      { name: 'c2', group: 'billing' },
    ]);
    expect(b.running('c1')).toBe(true);
    expect(b.groups.get('billing')).toEqual({
      assignor: 'range',
      protocol: 'coordinator',
      commitMode: 'auto',
      staticMembership: false,
    });
  });

  it("refuses with Kafka's error names and changes nothing", () => {
    const b = billingBoard();
    expect(refusal(() => b.addGroup('billing', 'range'))).toBe('INVALID_REQUEST');
    expect(refusal(() => b.addGroup('no spaces', 'range'))).toBe('INVALID_GROUP_ID');
    expect(refusal(() => b.addConsumer('nope', 'c1'))).toBe('GROUP_ID_NOT_FOUND');
    expect(refusal(() => b.addConsumer('billing', 'broker-1'))).toBe('INVALID_REQUEST');
    expect(refusal(() => b.crashConsumer('c9'))).toBe('INVALID_REQUEST');
    expect([...b.groups.keys()]).toEqual(['billing']);
    expect(b.consumers.size).toBe(0);
  });

  it('stops a consumer moved out of every group, and the consumers of a removed group', () => {
    const b = billingBoard();
    b.addConsumer('billing', 'a');
    b.addConsumer('billing', 'b');
    b.moveConsumer('a', null);
    expect(b.consumers.get('a')).toEqual({ name: 'a', group: null });
    expect(b.running('a')).toBe(false);
    b.removeGroup('billing');
    expect(b.consumers.get('b')).toEqual({ name: 'b', group: null });
    expect(b.running('b')).toBe(false);
    expect(b.groups.size).toBe(0);
  });

  it("changes a group's setting once: the same value again does nothing", () => {
    const b = billingBoard();
    b.setAssignor('billing', 'roundrobin');
    b.setCommitMode('billing', 'after-processing');
    b.setAssignor('billing', 'roundrobin');
    expect(b.groups.get('billing')).toMatchObject({ assignor: 'roundrobin', commitMode: 'after-processing' });
  });
});
