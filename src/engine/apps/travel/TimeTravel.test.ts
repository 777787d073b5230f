import { describe, expect, it } from 'vitest';
import { KafkaError } from '../../index';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import type { ScenarioSpec } from '../types';
import { TimeTravel } from './TimeTravel';

/** A host's view of time travel: which moment is shown, and what an action in the past does. */
describe('TimeTravel', () => {
  function setup() {
    const host = { run: new ClusterApps(3, 'demo', { store: new MapStore(), panelProducer: true }) };
    const travel = new TimeTravel(
      () => host.run,
      () => new MapStore(),
    );
    return { host, travel };
  }

  it('refuses a moment before the run began, and changes nothing', () => {
    const { host, travel } = setup();
    host.run.tick(2_000);
    for (const atMs of [-1, Number.NaN]) expect(() => travel.seek(atMs)).toThrow(KafkaError);
    expect(travel.past).toBeNull();
    const now = host.run.nowMs;
    expect(travel.view()).toMatchObject({ live: true, viewMs: now, liveMs: now });
  });

  it('shows the past while the live run waits, and the live run again at its now', () => {
    const { host, travel } = setup();
    host.run.tick(6_000);
    const now = host.run.nowMs;
    expect(travel.seek(now + 3_000)).toBe(false);
    expect(travel.seek(2_500)).toBe(true);
    expect(travel.past?.apps.nowMs).toBe(2_500);
    expect(travel.view()).toMatchObject({ live: false, viewMs: 2_500, liveMs: now });
    expect(travel.seek(now)).toBe(true);
    expect(travel.past).toBeNull();
  });

  it('forks an action taken in the past: the actions after that moment are discarded and reported', async () => {
    const { host, travel } = setup();
    host.run.tick(1_000);
    host.run.apply({ op: 'killBroker', broker: 2 });
    host.run.tick(3_000);
    host.run.apply({ op: 'restartBroker', broker: 2 });
    host.run.tick(2_000);
    const liveMs = host.run.nowMs;
    expect(await travel.forkIfPast(async () => {})).toBe(false);
    travel.seek(2_000);
    let replayed: ScenarioSpec | null = null;
    const forked = await travel.forkIfPast(async (spec) => {
      replayed = spec;
      host.run = ClusterApps.fromScenario(spec, { store: new MapStore(), panelProducer: true });
      travel.restart();
    });
    expect(forked).toBe(true);
    expect(replayed).toMatchObject({ seed: 3, preset: 'demo', untilMs: 2_000 });
    expect((replayed as unknown as ScenarioSpec).actions.map((a) => a.action.op)).toEqual(['killBroker']);
    expect(host.run.nowMs).toBe(2_000);
    expect(travel.past).toBeNull();
    expect(travel.view().fork).toEqual({ n: 1, atMs: 2_000, discardedActions: 1, discardedMs: liveMs - 2_000 });
  });
});
