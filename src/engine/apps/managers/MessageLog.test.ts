import { describe, expect, it } from 'vitest';
import { Engine, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import { MessageLog } from './MessageLog';
import { SCENARIO_EPOCH_MS } from '../scenarioTime';

function started(brokers: number): { engine: Engine; log: MessageLog } {
  const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
  engine.maxBufferedEvents = 0;
  const log = new MessageLog(engine);
  for (let i = 0; i < brokers; i++) engine.addBroker();
  engine.tick(200);
  return { engine, log };
}

describe('MessageLog', () => {
  it("keeps the brokers' requests with both ends and engine times since the scenario started", () => {
    const { log } = started(3);
    const live = log.live(200, 400);
    expect(live.length).toBeGreaterThan(0);
    expect(live.some((m) => m.api === 'UpdateMetadata' && m.from !== null && m.to !== null)).toBe(true);
    for (const m of live) expect(m.sentAtMs).toBeLessThanOrEqual(200);
    // Sorted in engine order.
    expect(live.map((m) => m.sentAtMs)).toEqual([...live.map((m) => m.sentAtMs)].sort((a, b) => a - b));
    // Long arrived ones linger no more.
    expect(log.live(10_000, 400)).toEqual([]);
  });

  it('keeps none above 12 brokers (the cluster is drawn at scale)', () => {
    const { log } = started(13);
    expect(log.live(200, 400)).toEqual([]);
  });

  it('stops listening once disposed', () => {
    const { engine, log } = started(3);
    log.dispose();
    engine.addBroker();
    engine.tick(200);
    expect(log.live(400, 100)).toEqual([]);
  });
});
