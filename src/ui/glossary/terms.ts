/**
 * The glossary: every Kafka term the board shows, with a short definition in our own words and,
 * where Kafka has one, the configuration key or JMX metric that governs or exposes it. `<Term>`
 * (./Term.tsx) looks its name up here; the unit test checks every name used in the UI exists.
 */
export interface GlossaryEntry {
  /** One or two sentences, plain words, as Kafka means the term. */
  readonly definition: string;
  /** The config key or JMX MBean a reader can look up in Kafka, when one applies. */
  readonly kafkaName?: string;
}

export const TERMS = {
  LEO: {
    definition:
      "Log end offset: the offset the next record appended to this replica will get. A follower's LEO trails the leader's until it fetches.",
    kafkaName: 'kafka.log:type=Log,name=LogEndOffset',
  },
  HW: {
    definition:
      'High watermark: the offset below which every in-sync replica has the record. Only records below the HW are committed, and consumers read only up to it.',
  },
  'log start': {
    definition:
      'Log start offset: the first offset still in the log. Retention and DeleteRecords move it forward by deleting whole segments from the front.',
    kafkaName: 'kafka.log:type=Log,name=LogStartOffset',
  },
  ISR: {
    definition:
      'In-sync replicas: the leader plus the followers that have caught up within replica.lag.time.max.ms. The HW advances when all of them have a record; with acks=all a write needs min.insync.replicas of them.',
    kafkaName: 'replica.lag.time.max.ms, min.insync.replicas',
  },
  controller: {
    definition:
      'The one broker that manages cluster metadata: it wins the /controller znode, elects partition leaders when brokers come and go, and tells the brokers about it.',
    kafkaName: 'kafka.controller:type=KafkaController,name=ActiveControllerCount',
  },
  'controller epoch': {
    definition:
      'A number stored in /controller_epoch that grows by one each time a new controller is elected, so brokers can ignore requests from a controller that has been replaced.',
    kafkaName: 'kafka.controller:type=KafkaController,name=ControllerEpoch (ZooKeeper mode)',
  },
  'controller log': {
    definition:
      'What the controller did, step by step. A real broker writes these steps to controller.log and state-change.log in its logs directory.',
  },
  'leader epoch': {
    definition:
      "A partition's leader epoch. In ZooKeeper mode it grows by one whenever the controller writes the partition's state: a new leader, or an ISR it shrinks itself (a broker went offline). Batches carry it; a restarted follower truncates by it.",
    kafkaName: 'LeaderAndIsr.newLeaderAndIsr (Kafka 3.9, ZooKeeper mode)',
  },
  leader: {
    definition: 'The replica that serves all produce and fetch requests for the partition. Followers copy its log.',
    kafkaName: 'kafka.server:type=ReplicaManager,name=LeaderCount',
  },
  follower: {
    definition:
      'A replica that fetches from the leader to copy its log. It stays in the ISR while it keeps caught up within replica.lag.time.max.ms.',
  },
  'in-sync follower': {
    definition:
      'A follower in the ISR: it has caught up with the leader within replica.lag.time.max.ms, so it can become leader without losing committed records.',
    kafkaName: 'replica.lag.time.max.ms',
  },
  'out-of-sync follower': {
    definition:
      "A follower out of the ISR: the leader's check (every replica.lag.time.max.ms / 2) found it behind for replica.lag.time.max.ms, or the controller removed it when its broker's session expired. It rejoins once it reaches the HW.",
    kafkaName: 'kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions',
  },
  'offline replica': {
    definition:
      'A replica on a broker that is down. It holds no leadership and serves nothing until its broker restarts and it catches up again.',
    kafkaName: 'kafka.controller:type=KafkaController,name=OfflinePartitionsCount',
  },
  generation: {
    definition:
      "The group's generation id: the coordinator adds one on every rebalance. Offset commits and heartbeats from an older generation are rejected (ILLEGAL_GENERATION).",
  },
  coordinator: {
    definition:
      'The group coordinator: the broker leading the __consumer_offsets partition chosen by hashing the group id. It runs the group state machine and stores committed offsets.',
    kafkaName: 'offsets.topic.num.partitions',
  },
  'member id': {
    definition:
      'The id the coordinator gives a consumer when it first joins the group (client id plus a UUID). It is sent with every JoinGroup, SyncGroup, Heartbeat and OffsetCommit.',
  },
  'group leader': {
    definition:
      'The member chosen by the coordinator (usually the first to join) to run the partition assignor; it sends the assignment back in its SyncGroup.',
    kafkaName: 'partition.assignment.strategy',
  },
  lag: {
    definition:
      "Committed lag: the high watermark minus the group's committed offset, what kafka-consumer-groups --describe shows as LAG (its LOG-END-OFFSET column is the HW). Not the client's records-lag-max.",
    kafkaName: 'kafka-consumer-groups --describe: LAG',
  },
  'committed lag': {
    definition:
      "The high watermark minus the group's committed offset (HW − committed offset): how much a new owner would read again or anew if the partition moved now.",
    kafkaName: 'kafka-consumer-groups --describe: LAG',
  },
  'records-lag-max': {
    definition:
      "The consumer's own metric: the largest, over its partitions, of the high watermark minus its fetch position (the next offset it will fetch). Commits do not move it; committed lag can be larger until the next commit.",
    kafkaName: 'kafka.consumer:type=consumer-fetch-manager-metrics,records-lag-max',
  },
  Empty: {
    definition:
      'The group has no members, though it may still have committed offsets. The first JoinGroup moves it to PreparingRebalance.',
  },
  PreparingRebalance: {
    definition:
      'A rebalance has begun: the coordinator waits for every member to send JoinGroup (a new group also waits group.initial.rebalance.delay.ms).',
    kafkaName: 'group.initial.rebalance.delay.ms',
  },
  CompletingRebalance: {
    definition:
      'Every member has joined a new generation; the coordinator waits for the group leader to send the assignment in SyncGroup.',
  },
  Stable: {
    definition:
      'Members have their assignment and heartbeat within session.timeout.ms; the group stays here until someone joins, leaves or times out.',
    kafkaName: 'session.timeout.ms, heartbeat.interval.ms',
  },
  Dead: {
    definition: 'The group has no members and no metadata left: it was deleted or its offsets expired.',
  },
} as const satisfies Record<string, GlossaryEntry>;

export type TermName = keyof typeof TERMS;

export function isTermName(name: string): name is TermName {
  return Object.hasOwn(TERMS, name);
}
