import { describe, expect, it } from 'vitest';
import { Engine, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import { ZnodeTree } from './ZnodeTree';
import { SCENARIO_EPOCH_MS } from '../scenarioTime';

describe('ZnodeTree', () => {
  it('rebuilds the tree only when a znode changed or a second passed', () => {
    const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
    engine.maxBufferedEvents = 0;
    const tree = new ZnodeTree(engine);
    engine.addBroker();
    engine.tick(100);
    const first = tree.list();
    expect(first.some((z) => z.path === '/brokers/ids/1')).toBe(true);
    expect(tree.list()).toBe(first);
    engine.addBroker();
    engine.tick(100);
    const second = tree.list();
    expect(second).not.toBe(first);
    expect(second.some((z) => z.path === '/brokers/ids/2')).toBe(true);
    engine.tick(1000);
    expect(tree.list()).not.toBe(second);
  });
});
