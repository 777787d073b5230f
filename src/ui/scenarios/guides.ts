/**
 * Guided walk-throughs, one or more per seed chapter: a starting cluster and a few steps, each
 * one sentence saying what to watch, some with an action the step performs. The sentences say
 * what Kafka does; the engine does it.
 */
import type { EngineCommand, PresetName } from '../../engine/apps/types';

export type Chapter = 'storage' | 'replication' | 'elections' | 'groups';

export interface GuideStep {
  text: string;
  action?: EngineCommand;
}

export interface Guide {
  id: string;
  chapter: Chapter;
  title: string;
  preset: PresetName;
  steps: GuideStep[];
}

export const GUIDES: Guide[] = [
  {
    id: 'storage-segments',
    chapter: 'storage',
    title: 'Partitions, segments and offsets',
    preset: 'demo',
    steps: [
      {
        text: 'Topic orders has partitions; each is a directory of segment files named by their first offset (see the logs below).',
      },
      {
        text: 'Twenty keyed records go through the producer with acks=all: the key hash picks the partition.',
        action: { op: 'produce', topic: 'orders', count: 20 },
      },
      {
        text: 'Each leader appends and assigns offsets; followers fetch, and the high watermark (HW) follows the slowest in-sync replica.',
      },
      {
        text: 'Open Lookup in the side panel: an offset is found by a floor search over segments, a binary search in the sparse .index, then a scan.',
      },
    ],
  },
  {
    id: 'replication-isr',
    chapter: 'replication',
    title: 'ISR shrink and expand',
    preset: 'demo',
    steps: [
      { text: 'Every orders partition has three replicas, all in sync: LEO and HW bars are level.' },
      {
        text: 'Broker 3 is cut off the network: its followers stop fetching.',
        action: { op: 'isolateBroker', broker: 3 },
      },
      {
        text: 'After replica.lag.time.max.ms (5 s here) the leaders drop broker 3 from the ISR; produce still succeeds with min.insync.replicas=2.',
        action: { op: 'produce', topic: 'orders', count: 20 },
      },
      {
        text: 'Healed, broker 3 fetches what it missed and rejoins the ISR once it reaches the leader’s LEO.',
        action: { op: 'healBroker', broker: 3 },
      },
    ],
  },
  {
    id: 'elections-failover',
    chapter: 'elections',
    title: 'Leader and controller failover',
    preset: 'elections',
    steps: [
      {
        text: 'Broker 1 is the controller and leads payments-0; /controller and /brokers/ids/1 are its ephemeral znodes.',
      },
      {
        text: 'Broker 1 is killed: nothing happens until its ZooKeeper session expires (6 s).',
        action: { op: 'killBroker', broker: 1 },
      },
      {
        text: 'Then its ephemeral znodes vanish, watches fire, a new controller takes /controller with epoch 2, and picks the first live ISR member as leader with a new leader epoch.',
      },
      {
        text: 'Broker 1 restarts, catches up and rejoins the ISR as a follower.',
        action: { op: 'restartBroker', broker: 1 },
      },
      {
        text: 'A preferred-leader election gives leadership back to the first replica, broker 1.',
        action: { op: 'preferredElection' },
      },
    ],
  },
  {
    id: 'elections-unclean',
    chapter: 'elections',
    title: 'Unclean election loses data',
    preset: 'elections',
    steps: [
      {
        text: 'payments allows unclean leader election. Broker 3 is isolated and will fall out of the ISR.',
        action: { op: 'isolateBroker', broker: 3 },
      },
      {
        text: 'Wait about 7 s, then produce: records reach brokers 1 and 2 only.',
        action: { op: 'produce', topic: 'payments', count: 20 },
      },
      {
        text: 'Brokers 1 and 2 die: no ISR member is left, payments-0 goes offline.',
        action: { op: 'killBroker', broker: 1 },
      },
      { text: 'The second ISR member dies too.', action: { op: 'killBroker', broker: 2 } },
      {
        text: 'Broker 3 comes back: the controller elects it although it is out of sync, and the offsets it never had are lost (red).',
        action: { op: 'healBroker', broker: 3 },
      },
    ],
  },
  {
    id: 'groups-rebalance',
    chapter: 'groups',
    title: 'Rebalances and generations',
    preset: 'demo',
    steps: [
      {
        text: 'Two groups read orders: billing (range) and analytics (roundrobin); each partition has one owner per group.',
      },
      {
        text: 'c1 moves to analytics: it leaves billing (LeaveGroup) and joins analytics (JoinGroup); both groups rebalance to a new generation.',
        action: { op: 'moveConsumer', name: 'c1', group: 'analytics' },
      },
      {
        text: 'c4 crashes: no LeaveGroup; after session.timeout.ms (10 s) the coordinator removes it and rebalances. Its partitions restart from the last committed offset: records after it are read twice (seed 000, case 1).',
        action: { op: 'crashConsumer', name: 'c4' },
      },
      {
        text: 'billing switches to cooperative-sticky: members rejoin; moving partitions are revoked in one generation and assigned in the next.',
        action: { op: 'setAssignor', group: 'billing', assignor: 'cooperative-sticky' },
      },
      {
        text: 'A new consumer joins billing: watch the two-step cooperative rebalance in the timeline.',
        action: { op: 'addConsumer', group: 'billing' },
      },
    ],
  },
  {
    id: 'groups-delivery',
    chapter: 'groups',
    title: 'Duplicates and losses after a crash (seed 000, cases 1 and 2)',
    preset: 'demo',
    steps: [
      {
        text: 'analytics now commits after processing each batch: its applications restart with that and rebalance.',
        action: { op: 'setCommitMode', group: 'analytics', mode: 'after-processing' },
      },
      {
        text: 'billing commits before processing: as soon as poll() returns a batch, its offsets are committed. Wait until both groups are Stable again.',
        action: { op: 'setCommitMode', group: 'billing', mode: 'before-processing' },
      },
      {
        text: '300 orders arrive; every consumer works through a batch at 25 ms a record (watch "processing" on the chips).',
        action: { op: 'produce', topic: 'orders', count: 300 },
      },
      {
        text: 'c4 (analytics) crashes mid-batch: what it processed since its last commit is processed again by c5 after the rebalance (case 1, duplicates).',
        action: { op: 'crashConsumer', name: 'c4' },
      },
      {
        text: 'c1 (billing) crashes mid-batch: its batch was committed but not processed, so the new owner starts after it and those records are lost (case 2).',
        action: { op: 'crashConsumer', name: 'c1' },
      },
      {
        text: 'After session.timeout.ms (10 s) each card shows what the offsets predicted and what the new owners actually did.',
      },
    ],
  },
];
