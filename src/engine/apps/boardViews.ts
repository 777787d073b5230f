/**
 * Engine state -> the plain BoardView the page draws. Reading only: nothing here changes the
 * cluster. Replica roles come from the partition state znode (what the controller decided) and
 * each broker's own replica (its LEO and HW); groups from their coordinator.
 */
import { type Engine, OFFSETS_TOPIC } from '../index';
import { clientGroupIds, clientGroupView } from './clientGroups';
import { comparePartitions } from './comparePartitions';
import type { BoardRead } from './managers/Board';
import type { DeliveryAuditRead } from './managers/DeliveryAudit';
import type { GroupHistoryRead } from './managers/GroupHistory';
import { type LagRead, packLag } from './managers/LagSampler';
import type { MessageLogRead } from './managers/MessageLog';
import type { ScenarioRecorderRead } from './managers/ScenarioRecorder';
import type { ZnodeTreeRead } from './managers/ZnodeTree';
import { DEMO_BROKER_CONFIG, DEMO_CONSUMER_CONFIG } from './demoConfig';
import type { DescribeRowView, BoardConsumerView, BoardGroupView, BoardView, PresetName } from './types';
import { SCENARIO_EPOCH_MS, toScenarioMs } from './scenarioTime';

/** What the board's view reads: the engine's queries and the managers' read interfaces (ClusterApps has them). */
export interface BoardSource {
  readonly engine: Engine;
  readonly seed: number;
  readonly preset: PresetName;
  readonly version: number;
  readonly board: BoardRead;
  readonly recorder: ScenarioRecorderRead;
  readonly groupHistory: GroupHistoryRead;
  readonly lag: LagRead;
  readonly audit: DeliveryAuditRead;
  readonly messages: MessageLogRead;
  readonly znodeTree: ZnodeTreeRead;
  /** The demo producer's delivery reports. */
  readonly producer: { readonly acked: number; readonly failed: number; readonly lastError: string | null };
  /** Real clients' groups (the Node host's) are drawn beside the board's. */
  readonly showClientGroups: boolean;
}
/**
 * A message stays in the view this long (engine ms) after it arrived, so that the page, which
 * gets a view about every 100 ms of real time, sees every one: a hop takes about a millisecond of
 * engine time. The page replays each message it sees once, slowed down (MessageTokens); this
 * only decides which messages reach it.
 */
const MESSAGE_LINGER_MS = 400;

export function buildBoardView(source: BoardSource): BoardView {
  const engine = source.engine;
  const now = engine.now();
  const controller = engine.controllerState();
  const topics = engine
    .topicNames()
    .sort((a, b) => (a.startsWith('__') === b.startsWith('__') ? (a < b ? -1 : 1) : a.startsWith('__') ? 1 : -1))
    .map((t) => engine.topicState(t));
  const leaderCount = new Map<number, number>();
  for (const t of topics)
    for (const p of t.partitions) if (!p.offline) leaderCount.set(p.leader, (leaderCount.get(p.leader) ?? 0) + 1);
  const brokers = engine.brokerStates(leaderCount, SCENARIO_EPOCH_MS);
  const consumers = consumerViews(source);
  const groups = groupViews(source, consumers);
  // Real clients' groups (the Node host) beside the board's, their members as chips.
  for (const groupId of clientGroupIds(engine, source.board, source.showClientGroups)) {
    const made = clientGroupView(engine, groupId);
    if (!made) continue;
    groups.push({
      ...made.group,
      lagNow: { fetch: null, committed: null },
      delivery: { processed: 0, duplicates: 0, skipped: 0 },
      generations: [...source.groupHistory.generationsOf(groupId)],
      lag: source.lag.historyOf(groupId),
    });
    consumers.push(...made.consumers);
  }
  const describe: DescribeRowView[] = [];
  // One log-end lookup per partition for all groups (20 groups read the same 100 at scale).
  const logEnds = new Map<string, number>();
  for (const { groupId: g } of groups) {
    for (const r of engine.describeGroup(g, logEnds)) {
      describe.push({
        group: r.group,
        topic: r.topic,
        partition: r.partition,
        currentOffset: r.currentOffset,
        logEndOffset: r.logEndOffset,
        lag: r.lag,
        consumerId: r.consumerId,
      });
    }
  }
  for (const g of groups) {
    let committed: number | null = null;
    for (const r of describe) if (r.group === g.groupId && r.lag !== null) committed = Math.max(committed ?? 0, r.lag);
    g.lagNow = { fetch: g.protocol === 'zookeeper' ? null : source.lag.fetchLag(g.groupId), committed };
  }
  return {
    version: source.version,
    seed: source.seed,
    preset: source.preset,
    nowMs: toScenarioMs(now),
    controller: controller.id,
    controllerEpoch: controller.epoch,
    brokers,
    topics,
    znodes: source.znodeTree.list(),
    groups,
    consumers,
    describe,
    lost: [...source.audit.lostOffsets()],
    crashes: source.audit.crashViews(),
    messages: source.messages.live(toScenarioMs(now), MESSAGE_LINGER_MS),
    actions: [...source.recorder.actions],
    produced: { acked: source.producer.acked, failed: source.producer.failed, lastError: source.producer.lastError },
    config: {
      sessionTimeoutMs: DEMO_BROKER_CONFIG['zookeeper.session.timeout.ms'],
      replicaLagMaxMs: DEMO_BROKER_CONFIG['replica.lag.time.max.ms'],
      consumerSessionTimeoutMs: DEMO_CONSUMER_CONFIG['session.timeout.ms'],
    },
  };
}

function consumerViews(source: BoardSource): BoardConsumerView[] {
  const groups = source.engine.groups;
  const out: BoardConsumerView[] = [];
  for (const e of source.board.consumers.values()) {
    const app = source.engine.consumerApps.apps.get(e.name);
    const base = {
      name: e.name,
      group: e.group,
      memberState: 'UNJOINED',
      memberId: '',
      generation: -1,
      partitions: [] as string[],
      positions: [] as BoardConsumerView['positions'],
      recordsConsumed: 0,
      inHand: 0,
      truncation: source.audit.truncationOf(e.name),
    };
    if (!app || e.group === null || app.status === 'closed') {
      out.push({ ...base, lifecycle: 'stopped' });
      continue;
    }
    const recordsConsumed = Object.values(app.processed).reduce((n, x) => n + x, 0);
    const inHand = app.status === 'running' ? (app.inHand?.records ?? 0) : 0;
    if (app.protocol === 'zookeeper') {
      const zk = groups.zkConsumers.get(e.name);
      out.push({
        ...base,
        lifecycle: app.status,
        memberState: zk?.state ?? 'UNJOINED',
        generation: zk?.rebalances ?? -1,
        partitions:
          app.status === 'running'
            ? (zk?.owned ?? []).map((a) => `${a.topic}-${a.partition}`).sort(comparePartitions)
            : [],
        recordsConsumed,
        inHand,
      });
      continue;
    }
    const consumer = groups.consumers.get(e.name);
    if (!consumer) {
      out.push({ ...base, lifecycle: app.status });
      continue;
    }
    const s = groups.consumerSnapshot(consumer);
    if (s.memberId) source.groupHistory.noteMember(s.memberId, e.name);
    out.push({
      ...base,
      lifecycle: app.status,
      memberState: s.memberState,
      memberId: s.memberId,
      generation: s.generationId,
      partitions:
        app.status === 'running' ? s.assignment.map((a) => `${a.topic}-${a.partition}`).sort(comparePartitions) : [],
      positions: s.assignment.map((a) => ({ topic: a.topic, partition: a.partition, position: a.position })),
      recordsConsumed,
      inHand,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

/** What a group's membership looks like, which its protocol decides. */
type GroupMembershipView = Pick<
  BoardGroupView,
  | 'state'
  | 'generation'
  | 'coordinator'
  | 'offsetsPartition'
  | 'leader'
  | 'initialRebalanceDelayMs'
  | 'members'
  | 'lag'
  | 'awaitingCoordinator'
>;

function groupViews(source: BoardSource, consumers: BoardConsumerView[]): BoardGroupView[] {
  const out: BoardGroupView[] = [];
  for (const [groupId, settings] of source.board.groups) {
    out.push({
      groupId,
      assignor: settings.assignor,
      protocol: settings.protocol,
      commitMode: settings.commitMode,
      delivery: source.engine.consumerApps.delivery.totals(groupId),
      lagNow: { fetch: null, committed: null },
      ...(settings.protocol === 'zookeeper'
        ? zookeeperMembership(groupId, consumers)
        : coordinatorMembership(source, groupId)),
      generations: [...source.groupHistory.generationsOf(groupId)],
    });
  }
  return out.sort((a, b) => a.groupId.localeCompare(b.groupId));
}

/**
 * The legacy consumer has no coordinator: members register under /consumers/<group>/ids and each
 * rebalances itself; "generation" counts those self-rebalances.
 */
function zookeeperMembership(groupId: string, consumers: BoardConsumerView[]): GroupMembershipView {
  const members = consumers.filter((c) => c.group === groupId && c.lifecycle === 'running');
  return {
    state: 'ZooKeeper',
    generation: members.reduce((n, m) => Math.max(n, m.generation), 0),
    coordinator: null,
    offsetsPartition: -1,
    leader: null,
    initialRebalanceDelayMs: null,
    members: members.map((m) => ({ memberId: m.name, name: m.name, partitions: m.partitions })),
    lag: packLag([]),
    awaitingCoordinator: null,
  };
}

/** A group of the broker-side coordinator, as its coordinator describes it, with its sampled lag. */
function coordinatorMembership(source: BoardSource, groupId: string): GroupMembershipView {
  const groups = source.engine.groups;
  const snap = groups.groupSnapshot(groupId);
  const standing = groups.coordinatorOf(groupId);
  const generations = source.groupHistory.generationsOf(groupId);
  const known = generations.length > 0;
  // A group that formed before and that no broker holds now. (A group that never formed stays
  // Empty, generation 0, as before its first JoinGroup; the engine's brokers load their
  // __consumer_offsets partitions at the first group request, not at LeaderAndIsr.)
  if (!snap && !standing.loaded && known) {
    // No broker holds the group now (a killed coordinator's groups went with its process): not
    // an Empty group of generation 0, but what FindCoordinator or JoinGroup would answer. The
    // metadata may still name the dead broker leader until the controller moves the partition.
    const offsetsTopic = source.engine.topicNames().includes(OFFSETS_TOPIC);
    const named = offsetsTopic ? source.engine.partitionState(OFFSETS_TOPIC, standing.offsetsPartition).leader : -1;
    const leaderUp = standing.servingLeader !== null;
    return {
      state: leaderUp ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'COORDINATOR_NOT_AVAILABLE',
      generation: generations.at(-1)?.generation ?? 0,
      coordinator: null,
      offsetsPartition: standing.offsetsPartition,
      leader: null,
      initialRebalanceDelayMs: null,
      members: [],
      lag: source.lag.historyOf(groupId),
      awaitingCoordinator: {
        offsetsPartition: standing.offsetsPartition,
        leader: standing.servingLeader ?? (named >= 0 ? named : null),
        leaderUp,
      },
    };
  }
  return {
    awaitingCoordinator: null,
    state: snap?.state ?? 'Empty',
    generation: snap?.generationId ?? 0,
    coordinator: snap?.coordinator ?? null,
    offsetsPartition: snap?.offsetsPartition ?? -1,
    leader: snap?.leader ? source.groupHistory.nameOf(snap.leader) : null,
    initialRebalanceDelayMs: snap?.initialRebalanceDelayMs ?? null,
    members: (snap?.members ?? []).map((m) => {
      source.groupHistory.noteMember(m.memberId, m.clientId);
      return {
        memberId: m.memberId,
        name: m.clientId,
        partitions: m.assignment.map((a) => `${a.topic}-${a.partition}`).sort(comparePartitions),
      };
    }),
    lag: source.lag.historyOf(groupId),
  };
}
