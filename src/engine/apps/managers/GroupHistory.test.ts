import { describe, expect, it } from 'vitest';
import { Engine, type EngineEvent, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import type { BoardRead } from './Board';
import { GroupHistory } from './GroupHistory';
import { SCENARIO_EPOCH_MS, toEngineMs } from '../scenarioTime';

const board: BoardRead = {
  groups: new Map(),
  consumers: new Map([
    ['c1', { name: 'c1', group: 'billing' }],
    ['c10', { name: 'c10', group: 'billing' }],
  ]),
  running: () => true,
};

function generation(n: number): EngineEvent {
  return {
    type: 'groupGenerationCompleted',
    groupId: 'billing',
    coordinator: 1,
    generationId: n,
    protocolName: 'range',
    leader: 'c10-uuid',
    assignment: {
      'c1-uuid': [
        { topic: 'orders', partition: 10 },
        { topic: 'orders', partition: 2 },
      ],
      'c10-uuid': [{ topic: 'orders', partition: 1 }],
    },
    clientIds: { 'c1-uuid': 'c1', 'c10-uuid': 'c10' },
    atMs: toEngineMs(1000 * n),
  };
}

function history(): { engine: Engine; history: GroupHistory } {
  const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
  return { engine, history: new GroupHistory(engine, board) };
}

describe('GroupHistory', () => {
  it("keeps each generation with its members' consumer names (the longest client.id prefix) and sorted partitions", () => {
    const { engine, history: h } = history();
    engine.emit(generation(1));
    expect(h.generationsOf('billing')).toEqual([
      {
        generation: 1,
        atMs: 1000,
        protocol: 'range',
        leader: 'c10',
        assignment: { c1: ['orders-2', 'orders-10'], c10: ['orders-1'] },
      },
    ]);
    expect(h.generationsOf('analytics')).toEqual([]);
  });

  it('names a member by what a view learned of it, and keeps the last 40 generations', () => {
    const { engine, history: h } = history();
    h.noteMember('c1-uuid', 'payments-app');
    for (let n = 1; n <= 45; n++) engine.emit(generation(n));
    const kept = h.generationsOf('billing');
    expect(kept.map((g) => g.generation)).toEqual(Array.from({ length: 40 }, (_, i) => i + 6));
    expect(Object.keys(kept[0]?.assignment ?? {})).toEqual(['payments-app', 'c10']);
    expect(h.nameOf('zz-unknown')).toBe('zz-unknown');
  });

  it('stops listening once disposed', () => {
    const { engine, history: h } = history();
    h.dispose();
    engine.emit(generation(1));
    expect(h.generationsOf('billing')).toEqual([]);
  });
});
