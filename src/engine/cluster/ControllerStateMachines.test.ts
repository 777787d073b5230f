import { describe, expect, it } from 'vitest';
import { IllegalStateException } from '../errors';
import type { ControllerContext } from './ControllerContext';
import { PARTITION_VALID_PREVIOUS_STATES, type PartitionState, PartitionStateMachine } from './PartitionStateMachine';
import { REPLICA_VALID_PREVIOUS_STATES, type ReplicaState, ReplicaStateMachine } from './ReplicaStateMachine';
import { QUICK_FAILOVER_CONFIG, startCluster } from './testing';

// Kafka 3.9, core/src/main/scala/kafka/controller/PartitionStateMachine.scala: the
// validPreviousStates of each `case object ... extends PartitionState`.
const KAFKA_PARTITION_TABLE: [PartitionState, PartitionState[]][] = [
  ['NewPartition', ['NonExistentPartition']],
  ['OnlinePartition', ['NewPartition', 'OnlinePartition', 'OfflinePartition']],
  ['OfflinePartition', ['NewPartition', 'OnlinePartition', 'OfflinePartition']],
  ['NonExistentPartition', ['OfflinePartition']],
];

// Kafka 3.9, core/src/main/scala/kafka/controller/ReplicaStateMachine.scala: the
// validPreviousStates of each `case object ... extends ReplicaState`.
const KAFKA_REPLICA_TABLE: [ReplicaState, ReplicaState[]][] = [
  ['NewReplica', ['NonExistentReplica']],
  ['OnlineReplica', ['NewReplica', 'OnlineReplica', 'OfflineReplica', 'ReplicaDeletionIneligible']],
  ['OfflineReplica', ['NewReplica', 'OnlineReplica', 'OfflineReplica', 'ReplicaDeletionIneligible']],
  ['ReplicaDeletionStarted', ['OfflineReplica']],
  ['ReplicaDeletionSuccessful', ['ReplicaDeletionStarted']],
  ['ReplicaDeletionIneligible', ['OfflineReplica', 'ReplicaDeletionStarted']],
  ['NonExistentReplica', ['ReplicaDeletionSuccessful']],
];

/** A context with no partitions: only the tables are exercised. */
const idleContext: ControllerContext = {
  services: {} as ControllerContext['services'],
  liveBrokers: () => new Map(),
  shuttingDown: () => new Set(),
  now: () => 0,
  allPartitions: () => [],
  replicasOf: () => [],
  readState: () => null,
  writeState: () => null,
  propagate: () => {},
  addStopReplica: () => {},
  isTopicQueuedUpForDeletion: () => false,
};

/** Shortest path of valid transitions from the initial state to `to` (BFS over the table). */
function pathTo<S extends string>(table: Readonly<Record<S, readonly S[]>>, from: S, to: S): S[] {
  const prev = new Map<S, S>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const s = queue.shift() as S;
    if (s === to) break;
    for (const next of Object.keys(table) as S[])
      if (!prev.has(next) && table[next].includes(s)) {
        prev.set(next, s);
        queue.push(next);
      }
  }
  const path: S[] = [];
  for (let s = to; s !== from; s = prev.get(s) as S) path.unshift(s);
  return path;
}

/** One machine's view for the table test: its state, and a transition to `to`. */
interface Machine<S extends string> {
  state(): S;
  transition(to: S): IllegalStateException | null;
}

/**
 * Every (from, to) pair of `kafka`: `from` is reached along valid transitions from `initial`,
 * then `to` must move exactly when Kafka's table lists `from` among its valid previous states,
 * and be refused with an IllegalStateException, the state unchanged, otherwise.
 */
function checkTransitionTable<S extends string>(
  name: string,
  kafka: [S, S[]][],
  declared: Readonly<Record<S, readonly S[]>>,
  initial: S,
  machine: () => Machine<S>,
): void {
  describe(`${name}: the transition table of ${name}.scala`, () => {
    it('declares the same valid previous states as Kafka', () => {
      expect(Object.entries(declared)).toEqual(kafka);
    });
    for (const [from] of kafka)
      for (const [to, valid] of kafka) {
        const allowed = valid.includes(from);
        it(`${from} -> ${to}: ${allowed ? 'moves' : 'refused with IllegalStateException'}`, () => {
          const m = machine();
          for (const step of pathTo(declared, initial, from)) expect(m.transition(step)).toBeNull();
          expect(m.state()).toBe(from);
          const error = m.transition(to);
          if (allowed) {
            expect(error).toBeNull();
            expect(m.state()).toBe(to);
          } else {
            expect(error).toBeInstanceOf(IllegalStateException);
            expect(error?.message).toContain(`before moving to ${to} state. Instead it is in ${from} state`);
            expect(m.state()).toBe(from);
          }
        });
      }
  });
}

checkTransitionTable(
  'PartitionStateMachine',
  KAFKA_PARTITION_TABLE,
  PARTITION_VALID_PREVIOUS_STATES,
  'NonExistentPartition',
  () => {
    const psm = new PartitionStateMachine(idleContext);
    return { state: () => psm.state('t', 0), transition: (to) => psm.transition('t', 0, to) };
  },
);

checkTransitionTable(
  'ReplicaStateMachine',
  KAFKA_REPLICA_TABLE,
  REPLICA_VALID_PREVIOUS_STATES,
  'NonExistentReplica',
  () => {
    const rsm = new ReplicaStateMachine(idleContext);
    return { state: () => rsm.state('t', 0, 1), transition: (to) => rsm.transition('t', 0, 1, to) };
  },
);

describe('the controller drives both machines (KafkaController.onNewPartitionCreation, onBrokerFailure)', () => {
  function setup() {
    const { cluster } = startCluster(7, 4, QUICK_FAILOVER_CONFIG);
    cluster.createTopic({ name: 't', partitions: 1, replicationFactor: 3, fixedStartIndex: 0 });
    cluster.tick(300);
    return cluster;
  }
  const controllerOf = (cluster: ReturnType<typeof setup>) => {
    const b = cluster.activeController();
    if (!b) throw new Error('no active controller');
    return b.controller;
  };

  it('a new partition ends Online with its replicas Online', () => {
    const cluster = setup();
    const c = controllerOf(cluster);
    expect(c.partitionStateMachine.state('t', 0)).toBe('OnlinePartition');
    for (const r of [1, 2, 3]) expect(c.replicaStateMachine.state('t', 0, r)).toBe('OnlineReplica');
    expect(c.replicaStateMachine.state('t', 0, 4)).toBe('NonExistentReplica');
  });

  it('a dead replica goes OfflineReplica and comes back OnlineReplica', () => {
    const cluster = setup();
    const c = controllerOf(cluster);
    const victim = [1, 2, 3].find((r) => cluster.brokers.get(r)?.controller !== c) as number;
    cluster.killBroker(victim);
    cluster.tick(1500);
    expect(c.replicaStateMachine.state('t', 0, victim)).toBe('OfflineReplica');
    expect(c.partitionStateMachine.state('t', 0)).toBe('OnlinePartition');
    cluster.startBroker(victim);
    cluster.tick(1500);
    expect(c.replicaStateMachine.state('t', 0, victim)).toBe('OnlineReplica');
  });

  it('a deleted topic leaves both machines (NonExistentPartition, NonExistentReplica)', () => {
    const cluster = setup();
    const c = controllerOf(cluster);
    cluster.deleteTopic('t');
    cluster.tick(300);
    expect(c.partitionStateMachine.state('t', 0)).toBe('NonExistentPartition');
    for (const r of [1, 2, 3]) expect(c.replicaStateMachine.state('t', 0, r)).toBe('NonExistentReplica');
  });
});
