/**
 * The board's half of the worker protocol: brokers, the controller, replicas, the
 * coordination store's znodes, consumer groups and consumers, as plain data built from engine
 * state, and the actions a person (or a scenario) can take on them.
 *
 * A scenario is a seed, a preset cluster and a list of actions stamped with the engine time at
 * which they ran. Replaying it against a fresh engine gives the same events (the engine is
 * deterministic), which is what lets a URL reproduce a run exactly.
 */
import type {
  AssignmentStrategy as AssignorName,
  BrokerCommand,
  CommitMode,
  CrashReport,
  LostWithStore,
  GroupProtocol,
  PartitionView,
  SerializedError,
  ClusterEvent,
  PartitionerStrategy,
  PlacementStep,
  GroupEvent,
  DescribeRowView,
  BoardBrokerView,
  BoardPartitionView,
  BoardReplicaView,
  BoardTopicView,
  ZnodeView,
} from '../index';

export type * from './events/types';
export { EVENT_KINDS } from './events/types';
export type * from './metrics/types';

// The views read straight from engine state are declared beside the engine (src/engine/views).

export type { DescribeRowView, BoardBrokerView, BoardPartitionView, BoardReplicaView, BoardTopicView, ZnodeView };

export type { ClusterEvent, GroupEvent, PlacementStep };

/**
 * The most partitions a topic made from the page may have (the create-topic dialog, a scenario's
 * createTopic, an imported `<topic>-<partition>/` folder): every partition is drawn and replicated
 * in one tab, and Kafka's own limit (Integer.MAX_VALUE) would freeze it.
 */
export const MAX_TOPIC_PARTITIONS = 1000;

// A group's assignor, protocol and commit mode are the consumer's own settings, declared once there.
export type { AssignorName, CommitMode, GroupProtocol };
export { ASSIGNMENT_STRATEGIES as ASSIGNORS, COMMIT_MODES } from '../index';

/** Clusters a scenario can start from. */
export type PresetName = 'demo' | 'empty4' | 'racks4' | 'eight' | 'elections' | 'large' | 'node';

/** The topic settings the page can change: how old segments leave the log (retention or compaction). */
export type TopicCleanupKey = 'retention.ms' | 'retention.bytes' | 'cleanup.policy';
export const TOPIC_CLEANUP_KEYS: readonly TopicCleanupKey[] = ['retention.ms', 'retention.bytes', 'cleanup.policy'];

/**
 * How often the UI's brokers check retention and run the log cleaner (Kafka's defaults are
 * 300,000 and 15,000 ms): short, so a retention or cleanup.policy change shows within seconds.
 */
export const DEMO_CLEANUP_INTERVALS = {
  'log.retention.check.interval.ms': 2000,
  'log.cleaner.backoff.ms': 2000,
} as const;

/**
 * What a person (or a scenario step) does to the cluster: the scenario's actions, which the page's
 * actions, the scenario log (TimedAction) and the lessons share. Their ops are the engine's words
 * where the engine has the command (its broker commands, which the fault schedules use too,
 * createTopic, alterTopicConfig, reassignPartitions, electPreferredLeaders, addBroker); the rest
 * are the board's and the producers'. ClusterApps.apply is their one dispatcher: every action is
 * validated there, recorded with its engine time and replayable. Stored runs and links made
 * before these words are read through legacyActionOps.ts.
 */
export type ScenarioAction =
  | BrokerCommand
  | { op: 'addBroker'; rack: string | null }
  | {
      op: 'createTopic';
      name: string;
      partitions: number;
      replicationFactor: number;
      /** null: a start index from the seeded Rng, as Kafka picks one at random. */
      startIndex: number | null;
      /** Kafka's startPartitionId: continue the round-robin as if earlier partitions existed (seed 000's global numbering). */
      startPartitionId?: number;
      /** Place rack-aware when every broker has a rack (false: ignore racks). */
      rackAware?: boolean;
      configs?: Record<string, string>;
    }
  | { op: 'setUnclean'; topic: string; enabled: boolean }
  /** kafka-configs --alter on a topic, limited to the log cleanup keys (TOPIC_CLEANUP_KEYS). */
  | { op: 'alterTopicConfig'; topic: string; configs: Partial<Record<TopicCleanupKey, string>> }
  | { op: 'electPreferredLeaders' }
  | { op: 'reassignPartitions'; topic: string; partition: number; replicas: number[] }
  /** `count` keyed orders from the demo's trickling producer (user-<n mod 24>, order <n>). */
  | { op: 'produceDemoRecords'; topic: string; count: number }
  | { op: 'addGroup'; group: string; assignor: AssignorName }
  | { op: 'removeGroup'; group: string }
  | { op: 'setAssignor'; group: string; assignor: AssignorName }
  | { op: 'setProtocol'; group: string; protocol: GroupProtocol }
  /** When the group's applications commit: auto commit, after processing each batch, or before. */
  | { op: 'setCommitMode'; group: string; mode: CommitMode }
  /** Static membership (KIP-345): the group's consumers restart with group.instance.id = their name. */
  | { op: 'setStaticMembership'; group: string; enabled: boolean }
  | { op: 'addConsumer'; group: string; name?: string }
  /** Moves a consumer to another group (null: out of every group, stopped). */
  | { op: 'moveConsumer'; name: string; group: string | null }
  | { op: 'removeConsumer'; name: string }
  /** The consumer's process dies: no LeaveGroup, no more heartbeats. */
  | { op: 'crashConsumer'; name: string }
  /** One record from the page's producer panel (key, value and header values as UTF-8 text). */
  | {
      op: 'produceRecord';
      topic: string;
      key: string | null;
      value: string | null;
      headers: { key: string; value: string | null }[];
    }
  /**
   * Records `from` .. `from + count - 1` of a Send N job from the panel's producer: key
   * `<keyPrefix><i>` (none when null), a value of `valueBytes` bytes 'a'. A job is recorded as
   * one such command per engine instant it sent at, so a replay sends at the same times.
   */
  | { op: 'produceRecords'; topic: string; from: number; count: number; keyPrefix: string | null; valueBytes: number }
  /** New settings for the panel's producer (it restarts with them). */
  | { op: 'configureProducer'; settings: Partial<ProducerSettings> };

export interface TimedAction {
  /** Engine milliseconds since the scenario started. */
  at: number;
  action: ScenarioAction;
  /**
   * A Send N job's slices (produceRecords only): flat pairs [ms after `at`, records], the first
   * pair at 0; `action.count` is their sum. Absent: the action ran at `at` alone (jobSlices.ts).
   */
  slices?: number[];
}

export interface ScenarioSpec {
  seed: number;
  preset: PresetName;
  actions: TimedAction[];
  /** Engine milliseconds since start to run to (the moment the link was made). */
  untilMs: number;
}

export interface BoardMemberView {
  memberId: string;
  /** The consumer's name (its client.id). */
  name: string;
  partitions: string[];
}

export interface GenerationView {
  generation: number;
  atMs: number;
  protocol: string | null;
  leader: string | null;
  /** consumer name -> sorted `topic-p` list. */
  assignment: Record<string, string[]>;
}

export interface BoardGroupView {
  groupId: string;
  assignor: AssignorName;
  protocol: GroupProtocol;
  commitMode: CommitMode;
  /** The group's delivery ledger: records processed, processed more than once, offsets never processed. */
  delivery: { processed: number; duplicates: number; skipped: number };
  state: string;
  generation: number;
  coordinator: number | null;
  offsetsPartition: number;
  /** The group leader's consumer name. */
  leader: string | null;
  /**
   * While a new group waits before its first generation: group.initial.rebalance.delay.ms (its
   * coordinator's InitialDelayedJoin, extended by each newcomer). Null otherwise.
   */
  initialRebalanceDelayMs: number | null;
  members: BoardMemberView[];
  /**
   * Set while no broker holds the group: its `__consumer_offsets` partition's leader is gone (the
   * controller has not moved it yet) or is loading it. `state` is then what a member asking is told
   * (COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS) and `generation` the last one known.
   */
  awaitingCoordinator: AwaitingCoordinatorView | null;
  /**
   * Its largest lag now, two numbers: `fetch`, HW − fetch position over the partitions its running
   * consumers own (what records-lag-max measures); `committed`, HW − committed offset over its
   * partitions (kafka-consumer-groups --describe's LAG). Null: none known.
   */
  lagNow: { fetch: number | null; committed: number | null };
  generations: GenerationView[];
  /** Per partition: lag history (relative ms, lag), packed. */
  lag: LagHistoryView;
  /**
   * Set for a group real Kafka clients formed over the wire (the Node host), not one of the
   * board's: its assignor is the protocol the leader client ran (`protocolName`), and
   * `assignor`, `protocol` and `commitMode` above only fill the shape (the clients own them).
   */
  clients?: ClientGroupView;
}

export interface AwaitingCoordinatorView {
  offsetsPartition: number;
  /** That partition's leader as the metadata names it (null: none). */
  leader: number | null;
  /** Whether that broker's process is up (it may be dead while its ZooKeeper session lives). */
  leaderUp: boolean;
}

/** What the coordinator knows of a group of real clients. */
export interface ClientGroupView {
  /** The protocol type the members joined with (`consumer` for Kafka's consumers). */
  protocolType: string | null;
  /** The assignor the group chose (JoinGroup's protocol name): e.g. `range`, `RoundRobinAssigner`. */
  protocolName: string | null;
}

/**
 * Lag per partition over time, packed into two typed arrays: at scale a view carries 20 groups ×
 * 100 partitions × 60 samples, which as nested arrays were 120,000 objects to clone every view
 * (the page's main thread spent most of each view's arrival on them). Partition i's samples are
 * the (relative ms, lag) pairs data[2 * start[i]] ... data[2 * start[i + 1] - 1].
 */
export interface LagHistoryView {
  partitions: string[];
  /** partitions.length + 1 sample indexes. */
  start: Uint32Array;
  data: Float64Array;
}

export interface BoardConsumerView {
  name: string;
  group: string | null;
  lifecycle: 'running' | 'closed' | 'crashed' | 'stopped';
  memberState: string;
  memberId: string;
  generation: number;
  /** Sorted `topic-p` list. */
  partitions: string[];
  positions: { topic: string; partition: number; position: number | null }[];
  recordsConsumed: number;
  /** Records of the batch its application is processing now (0 between batches). */
  inHand: number;
  /** The last log truncation its position validation detected (KIP-320), or null. */
  truncation: LogTruncationView | null;
  /** Set for a real client's group member (the Node host): its name is its member id. */
  client?: ClientMemberView;
}

/** A real client's member as its coordinator holds it. */
export interface ClientMemberView {
  clientId: string;
  clientHost: string;
  /**
   * The ConsumerProtocolAssignment its group's leader client computed (SyncGroup), decoded:
   * version and user data size; null before the first SyncGroup or for another protocol type.
   */
  assignment: { version: number; userDataBytes: number | null } | null;
}

/** A consumerLogTruncation event as the groups view shows it on the consumer's card (atMs: engine ms since the scenario started). */
export type LogTruncationView = Pick<
  Extract<GroupEvent, { type: 'consumerLogTruncation' }>,
  'topic' | 'partition' | 'fetchOffset' | 'offsetEpoch' | 'divergentOffset' | 'outcome' | 'atMs'
>;

export interface LostOffsetsView {
  topic: string;
  partition: number;
  newLeader: number;
  from: number;
  to: number;
  committedFrom: number | null;
  committedTo: number | null;
  atMs: number;
}

/**
 * A consumer crash as it matters to delivery (seed 000's case 1 and case 2): captured from the
 * engine the moment the process died, per partition it owned, the position (next offset its
 * application would have read: everything below was processed) and the group's committed
 * offset. The new owner resumes from the committed offset, so records in [committed, position)
 * are delivered again (case 1), and records in [position, committed) are never processed (case 2).
 */
export interface ConsumerCrashView {
  consumer: string;
  group: string;
  atMs: number;
  /** The group's commit mode when it crashed. */
  commitMode: CommitMode;
  /** Per partition it owned: position, how far its application had processed, the committed offset. */
  partitions: CrashReport['partitions'];
  /** Records processed but not committed: the new owner processes them again (case 1). */
  redelivered: number;
  /** Records committed but not processed: nobody ever processes them (case 2). */
  skipped: number;
  /**
   * What the group's applications actually did since the crash on those partitions, counted by
   * the engine's delivery ledger: records processed a second time, offsets passed over. They
   * reach the predicted counts once the new owner has read past them.
   */
  observed: { redelivered: number; skipped: number };
}

/**
 * A message the engine's network sent, as the page draws it travelling: every request and answer
 * the engine sends, named as Kafka's ApiKeys name it — a follower's Fetch to its leader, a
 * producer's Produce, the controller's LeaderAndIsr / UpdateMetadata / StopReplica to the
 * brokers, a consumer's FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
 * OffsetCommit, OffsetFetch to its coordinator — with the network's own send and arrival times
 * (relative ms). A hop takes about a millisecond of engine time, so the page replays each one
 * slowed down and says by how much. Bounded per family (apps/RecentMessages.ts).
 */
export interface BoardMessageView {
  /** The board's own number, in the order the engine sent the messages. */
  id: number;
  api: string;
  kind: 'request' | 'response';
  /** Broker ids; null for a client end (its client id is in `client`). */
  from: number | null;
  to: number | null;
  /** The producer's or consumer's client id at the client end, else null (broker to broker). */
  client: string | null;
  sentAtMs: number;
  arriveAtMs: number;
  /**
   * What the message changed when it arrived, on its receiver's replicas of user topics: a
   * Produce request moves the leader's LEO, a Fetch response a follower's LEO (and HW), the
   * follower's next Fetch request the leader's HW. From the engine's events (their `cause`), in
   * the order they happened; absent while it changed nothing (or has not arrived yet). The page
   * draws each change when the message's token lands.
   */
  effects?: BoardMessageEffect[];
}

/** One replica offset a message moved: `field` of `broker`'s replica of topic-partition, from -> to. */
export interface BoardMessageEffect {
  topic: string;
  partition: number;
  broker: number;
  field: 'leo' | 'hw';
  from: number;
  to: number;
}

export interface BoardView {
  version: number;
  seed: number;
  preset: PresetName;
  /** Engine ms since the scenario started. */
  nowMs: number;
  controller: number | null;
  controllerEpoch: number;
  brokers: BoardBrokerView[];
  topics: BoardTopicView[];
  znodes: ZnodeView[];
  groups: BoardGroupView[];
  consumers: BoardConsumerView[];
  describe: DescribeRowView[];
  lost: LostOffsetsView[];
  /** Consumer crashes and the duplicates or losses each one causes, oldest first. */
  crashes: ConsumerCrashView[];
  /** Requests and answers sent recently, in engine order, at most MAX_BOARD_MESSAGES (none for clusters drawn at scale). */
  messages: BoardMessageView[];
  actions: TimedAction[];
  /** Delivery reports of produce actions: acknowledged and failed counts, last error. */
  produced: { acked: number; failed: number; lastError: string | null };
  config: { sessionTimeoutMs: number; replicaLagMaxMs: number; consumerSessionTimeoutMs: number };
}

/** The engine's events, as frames carry them to the page. */
export type { EngineEvent } from '../index';

export interface PlacementPreviewArgs {
  /** The topic's name: a random start index is drawn from an Rng seeded with it (and the scenario seed). */
  name: string;
  startPartitionId?: number;
  partitions: number;
  replicationFactor: number;
  rackAware: boolean;
  startIndex: number | null;
}

export interface PlacementPreview {
  brokers: { id: number; rack: string | null }[];
  assignment: number[][];
  steps: PlacementStep[];
  /** Kafka's error when the placement is impossible (e.g. INVALID_REPLICATION_FACTOR). */
  error: { code: string; message: string } | null;
}

/** The settings of the page's producer panel (its producer restarts with each change). */
export interface ProducerSettings {
  acks: 'all' | '1' | '0';
  'linger.ms': number;
  'batch.size': number;
  partitioner: PartitionerStrategy;
}

/** What replacing the running cluster by a scenario would throw away. */
export interface DiscardView {
  /** False when the scenario is the one already running (a reload of its own link): nothing is replaced. */
  replaces: boolean;
  /**
   * True when the running cluster holds nothing its preset would not rebuild: no actions taken,
   * no topic added, no record sent from the producer panel. Replacing it then loses nothing.
   */
  onlyPreset: boolean;
  /** The user topics stored now, with their partitions and records (log end minus log start, summed). */
  topics: { name: string; partitions: number; records: number }[];
  /** The actions recorded in the running scenario. */
  actions: number;
  /** What replaying the scenario would cost here (null: nothing to replay, the scenario is the one running). */
  replay: ReplayEstimate | null;
}

/**
 * A replay's cost, estimated before it runs from a replay of its first engine seconds (a link of
 * hours would otherwise hold the page for minutes before anything is asked).
 */
export interface ReplayEstimate {
  /** Engine ms to replay (from the running cluster's now when it runs on the same scenario). */
  engineMs: number;
  /** Real ms it would take here, every pass included. */
  estimatedMs: number;
  /** Long enough to run as a job (startScenarioJob: slices between frames, progress, Cancel). */
  sliced: boolean;
  /** Long enough that the page asks first, saying how long. */
  ask: boolean;
}

/** Offsets [fromOffset, logStartOffset) of a partition, only ever in IndexedDB, gone with it (per partition, not per broker). */
export type LostPartitionView = Pick<LostWithStore, 'topic' | 'partition' | 'fromOffset' | 'logStartOffset'>;

export interface ProduceManyArgs {
  topic: string;
  count: number;
  /** Keys are `<keyPrefix><i>`; null sends null keys (round-robin or sticky). */
  keyPrefix: string | null;
  valueBytes: number;
  /** Records per second of engine time; 0 = as fast as the worker can. */
  ratePerSecond: number;
}

/** A long job running in the worker. */
export interface JobView {
  jobId: number;
  label: string;
  done: number;
  total: number;
  state: 'running' | 'finished' | 'cancelled' | 'failed';
  error: SerializedError | null;
}

/** The producer panel's record accumulator: per-partition queues of batches. */
export interface AccumulatorView {
  producer: string;
  settings: ProducerSettings;
  queues: {
    topic: string;
    partition: number;
    batches: { id: number; records: number; bytes: number; state: string }[];
  }[];
  acked: number;
  failed: number;
}

export interface LookupArgs {
  topic: string;
  partition: number;
  /** Exactly one of offset and timestamp. */
  offset?: number;
  timestamp?: number;
}

export interface SegmentArgs {
  topic: string;
  partition: number;
  baseOffset: number;
}

/** What the page draws: plain data, built by the worker from engine state. */
export interface ClusterView {
  /** Bumps whenever anything in the view changed. */
  version: number;
  nowMs: number;
  partitions: PartitionView[];
}
