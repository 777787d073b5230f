import { describe, expect, it } from 'vitest';
import { Engine, type EngineEvent, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import { AnimatedEvents } from './AnimatedEvents';
import { SCENARIO_EPOCH_MS, toEngineMs } from '../scenarioTime';

function animated(): { engine: Engine; events: AnimatedEvents } {
  const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
  engine.maxBufferedEvents = 0;
  return { engine, events: new AnimatedEvents(engine) };
}

describe('AnimatedEvents', () => {
  it('keeps the events the page animates until a frame takes them', () => {
    const { engine, events } = animated();
    engine.addBroker();
    engine.tick(100);
    const taken = events.take().map((e) => e.type);
    expect(taken).toContain('brokerStarted');
    expect(taken).toContain('controllerElected');
    expect(taken).not.toContain('messageSent');
    expect(events.take()).toEqual([]);
  });

  it("attaches a topic's placement steps to its topicCreated", () => {
    const { engine, events } = animated();
    engine.addBroker();
    engine.tick(100);
    events.take();
    const steps = [{ partition: 0 }] as never[];
    events.withPlacementSteps(steps, () => engine.createTopic({ name: 't', partitions: 1, replicationFactor: 1 }));
    const created = events.take().find((e) => e.type === 'topicCreated');
    expect(created && 'placementSteps' in created ? created.placementSteps : null).toBe(steps);
  });

  it("keeps a group request's narration without its protocol bytes", () => {
    const { engine, events } = animated();
    const join = {
      type: 'groupRequestSent',
      api: 'JoinGroup',
      from: 'c1',
      toBroker: 1,
      sentAtMs: SCENARIO_EPOCH_MS,
      arriveAtMs: toEngineMs(1),
      body: { api: 'JoinGroup', groupId: 'billing', protocols: [new Uint8Array(40)] },
    } as unknown as EngineEvent;
    engine.emit(join);
    engine.emit({ ...join, api: 'Heartbeat' } as EngineEvent);
    const [kept, ...rest] = events.take();
    expect(rest).toEqual([]);
    expect(kept && 'body' in kept ? kept.body : null).toEqual({ api: 'JoinGroup', groupId: 'billing' });
  });
});
