import { describe, expect, it } from 'vitest';
import { ScenarioRecorder } from './ScenarioRecorder';

const slice = (from: number, count: number) =>
  ({ op: 'produceRecords', topic: 'orders', from, count, keyPrefix: 'k', valueBytes: 10 }) as const;

describe('ScenarioRecorder', () => {
  it('records each action with its engine time, in order', () => {
    const r = new ScenarioRecorder();
    r.record(0, { op: 'killBroker', broker: 2 });
    r.record(1500, { op: 'restartBroker', broker: 2 });
    expect(r.actions).toEqual([
      { at: 0, action: { op: 'killBroker', broker: 2 } },
      { at: 1500, action: { op: 'restartBroker', broker: 2 } },
    ]);
  });

  it("folds a Send N job's later slices into the job's one action", () => {
    const r = new ScenarioRecorder();
    r.record(100, slice(0, 50));
    r.record(200, slice(50, 50));
    r.record(200, slice(100, 25));
    expect(r.actions).toEqual([{ at: 100, action: slice(0, 125), slices: [0, 50, 100, 75] }]);
  });

  it('keeps restored actions as they were, and forgets everything on clear', () => {
    const r = new ScenarioRecorder();
    r.restore([{ at: 5, action: { op: 'addBroker', rack: null } }]);
    r.record(10, { op: 'addBroker', rack: 'r1' });
    expect(r.actions.map((a) => a.at)).toEqual([5, 10]);
    r.clear();
    expect(r.actions).toEqual([]);
  });
});
