/**
 * auto.leader.rebalance.enable's schedule (Kafka 3.9 KafkaController): onControllerFailover calls
 * scheduleAutoLeaderRebalanceTask(delay = 5, SECONDS), and each check schedules the next one
 * leader.imbalance.check.interval.seconds later (processAutoPreferredReplicaLeaderElection).
 */
import { describe, expect, it } from 'vitest';
import { engineWithTopic } from './testing';

describe('auto leader rebalance after a controller failover (KafkaController.scheduleAutoLeaderRebalanceTask)', () => {
  // As ControllerIntegrationTest.testAutoPreferredReplicaLeaderElection, with the controller
  // moving in between: the new controller's first check comes 5 s after its failover, not after
  // leader.imbalance.check.interval.seconds (300 s by default).
  it('the first imbalance check runs 5 s after the failover, then every leader.imbalance.check.interval.seconds', () => {
    const { e, events } = engineWithTopic(3, null, 3);
    expect(e.snapshot().controller?.broker).toBe(1);
    e.createTopic({ name: 't', partitions: 3, replicationFactor: 3, fixedStartIndex: 0 });
    e.tick(300);
    // Broker 2 dies and comes back: it leads nothing it prefers (partition 1).
    e.killBroker(2);
    e.tick(7000);
    e.restartBroker(2);
    e.tick(5000);
    expect(e.snapshot().topics[0]?.partitions.map((p) => p.leader)).toEqual([1, 3, 3]);
    // The controller dies; broker 2 or 3 takes over once its session expires.
    e.killBroker(1);
    let failoverAt = -1;
    for (let i = 0; i < 200 && failoverAt < 0; i++) {
      e.tick(50);
      for (const ev of events) if (ev.type === 'controllerElected' && ev.broker !== 1) failoverAt = ev.atMs;
    }
    expect(failoverAt).toBeGreaterThan(0);
    const autoElections = () =>
      events.flatMap((ev) => (ev.type === 'preferredLeaderElection' && ev.trigger === 'auto' ? [ev.atMs] : []));
    e.tick(failoverAt + 4900 - e.now());
    expect(autoElections()).toEqual([]);
    e.tick(200);
    expect(autoElections()).toEqual([failoverAt + 5000]);
    e.tick(500);
    expect(e.snapshot().topics[0]?.partitions[1]?.leader).toBe(2);
  });
});
