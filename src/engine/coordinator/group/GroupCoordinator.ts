import type { Scheduler, TaskId } from '../../cluster/Scheduler';
import { CorruptRecordError, type KafkaErrorCode } from '../../errors';
import type { Rng } from '../../Rng';
import type { ClusterPort } from '../../clients/consumer/ClusterPort';
import type { GroupCoordinatorConfig } from '../../clients/consumer/ConsumerConfig';
import type { CoordinatorContext, CoordinatorTimer, OffsetsRecord } from './CoordinatorContext';
import type { GroupEvent } from '../../clients/consumer/groupEvents';
import { GroupMetadataManager } from './GroupMetadataManager';
import { coordinatorWriteError, joinError } from './groupErrors';
import type {
  DescribedGroup,
  DescribeGroupsRequest,
  DescribeGroupsResponse,
  GroupErrorCode,
  GroupRequest,
  GroupResponse,
  HeartbeatRequest,
  HeartbeatResponse,
  JoinGroupRequest,
  JoinGroupResponse,
  LeaveGroupRequest,
  LeaveGroupResponse,
  ListGroupsRequest,
  ListGroupsResponse,
  OffsetCommitRequest,
  OffsetCommitResponse,
  OffsetFetchRequest,
  OffsetFetchResponse,
  SyncGroupRequest,
  SyncGroupResponse,
} from '../../clients/consumer/groupProtocol';
import { type OffsetAndMetadata, OffsetMetadataManager } from './OffsetMetadataManager';
import {
  decodeGroupMetadataValue,
  decodeOffsetCommitValue,
  decodeOffsetsKey,
  encodeGroupMetadataKey,
  encodeOffsetCommitKey,
} from '../../clients/consumer/offsetsSchema';
import { groupCoordinatorPartition } from './groupCoordinatorPartition';

export const OFFSETS_TOPIC = '__consumer_offsets';

/** Keyed timers on the engine scheduler; a shard cancels all of its timers when unloaded. */
export class ShardTimer implements CoordinatorTimer {
  private readonly tasks = new Map<string, TaskId>();
  constructor(private readonly scheduler: Scheduler) {}

  schedule(key: string, delayMs: number, operation: () => void): void {
    this.cancel(key);
    const id = this.scheduler.schedule(delayMs, () => {
      if (this.tasks.get(key) !== id) return;
      this.tasks.delete(key);
      operation();
    });
    this.tasks.set(key, id);
  }

  cancel(key: string): void {
    const id = this.tasks.get(key);
    if (id === undefined) return;
    this.scheduler.cancel(id);
    this.tasks.delete(key);
  }

  isScheduled(key: string): boolean {
    return this.tasks.has(key);
  }

  cancelAll(): void {
    for (const id of this.tasks.values()) this.scheduler.cancel(id);
    this.tasks.clear();
  }
}

/**
 * The coordinator state of one `__consumer_offsets` partition (Kafka's GroupCoordinatorShard):
 * its groups and their committed offsets. Every record of the partition passes through
 * replay(), whether it is being loaded from the log or was just written by a commit.
 */
export class GroupCoordinatorShard {
  readonly groupManager: GroupMetadataManager;
  readonly offsetManager: OffsetMetadataManager;
  readonly timer: ShardTimer;
  /** False while the partition is being replayed: requests for its groups get COORDINATOR_LOAD_IN_PROGRESS. */
  loaded = false;
  /** While loading: when the replay completes. */
  loadCompletesAtMs: number | null = null;

  constructor(readonly ctx: CoordinatorContext & { timer: ShardTimer }) {
    this.timer = ctx.timer;
    this.groupManager = new GroupMetadataManager(ctx);
    this.offsetManager = new OffsetMetadataManager(ctx);
  }

  /** Applies one record of the partition; corrupt records are skipped (and reported by the caller). */
  replay(record: OffsetsRecord): void {
    const key = decodeOffsetsKey(record.key);
    if (key.type === 'OffsetCommitKey') {
      this.offsetManager.replay(
        key.group,
        key.topic,
        key.partition,
        record.value ? decodeOffsetCommitValue(record.value) : null,
      );
    } else {
      this.groupManager.replayGroupMetadata(key.group, record.value ? decodeGroupMetadataValue(record.value) : null);
    }
  }

  /**
   * GroupMetadataManager.cleanupGroupMetadata, every offsets.retention.check.interval.ms: each
   * group's expired offsets (GroupMetadata.removeExpiredOffsets) are deleted with tombstones, and
   * an Empty group left without offsets is deleted too (Dead). Which offsets expire (KIP-211):
   *   - Empty group: all, once offsets.retention.minutes have passed since it became Empty;
   *   - Stable consumer group that knows its subscription: those of topics no member subscribes
   *     to, offsets.retention.minutes after their commit;
   *   - no group (commits from outside group management): each, that long after its commit;
   *   - any other group (rebalancing, or subscription unknown): none.
   */
  cleanupGroupMetadata(): void {
    const now = this.ctx.now();
    const retentionMs = this.ctx.config['offsets.retention.minutes'] * 60_000;
    const records: OffsetsRecord[] = [];
    const expiredGroups: string[] = [];
    const groupIds = new Set([...this.groupManager.groups.keys(), ...this.offsetManager.offsets.keys()]);
    for (const groupId of [...groupIds].sort()) {
      const group = this.groupManager.groups.get(groupId);
      const expired = this.expiredOffsets(groupId, now, retentionMs);
      // The cache changes at once, before anything is written (removeExpiredOffsets, transitionTo(Dead)).
      for (const [topic, partition] of expired) {
        const record = { key: encodeOffsetCommitKey(groupId, topic, partition), value: null };
        this.replay(record);
        records.push(record);
      }
      if (expired.length > 0) expiredGroups.push(groupId);
      if (group?.is('Empty') && !this.offsetManager.offsets.has(groupId)) {
        this.groupManager.markDead(group, 'offsets expired (offsets.retention.minutes): group deleted');
        this.groupManager.replayGroupMetadata(groupId, null);
        if (!expiredGroups.includes(groupId)) expiredGroups.push(groupId);
        // No tombstone at generation 0: such a group only used Kafka for offset storage.
        if (group.generationId > 0) records.push({ key: encodeGroupMetadataKey(groupId), value: null });
      }
    }
    if (records.length === 0) return;
    // Appended to the leader without waiting for acks: a lost tombstone is written again by the
    // next cleanup on whichever broker then leads the partition.
    this.ctx.append(records, () => {});
    this.ctx.emit({
      type: 'offsetsExpired',
      groupIds: expiredGroups,
      tombstones: records.length,
      offsetsPartition: this.ctx.offsetsPartition,
      atMs: now,
    });
  }

  /** GroupMetadata.removeExpiredOffsets: which of a group's offsets have expired, as [topic, partition]. */
  private expiredOffsets(groupId: string, now: number, retentionMs: number): [string, number][] {
    const group = this.groupManager.groups.get(groupId);
    let base: (o: OffsetAndMetadata) => number;
    let subscribed: ReadonlySet<string> = new Set();
    if (!group || group.protocolType === null) base = (o) => o.commitTimestamp;
    else if (group.is('Empty')) base = () => group.currentStateTimestamp;
    else if (group.protocolType === 'consumer' && group.subscribedTopics !== null && group.is('Stable')) {
      base = (o) => o.commitTimestamp;
      subscribed = group.subscribedTopics;
    } else return [];
    const out: [string, number][] = [];
    for (const [key, o] of this.offsetManager.offsets.get(groupId) ?? []) {
      const [topic, p] = key.split('\u0000') as [string, string];
      if (subscribed.has(topic)) continue;
      // An old-format (v1) record's own expire timestamp replaces the retention (old expiry semantics).
      if (o.expireTimestamp === null ? now - base(o) < retentionMs : now < o.expireTimestamp) continue;
      out.push([topic, Number(p)]);
    }
    return out;
  }

  /** DeleteGroups: only an Empty (or offsets-only) group can be deleted; tombstones remove it. */
  deleteGroup(groupId: string, done: (error: GroupErrorCode) => void): void {
    const group = this.groupManager.groups.get(groupId);
    const offsets = this.offsetManager.offsets.get(groupId);
    if (!group && !offsets) {
      done('GROUP_ID_NOT_FOUND');
      return;
    }
    if (group && !group.is('Empty')) {
      done('NON_EMPTY_GROUP');
      return;
    }
    const records: OffsetsRecord[] = [...(offsets?.keys() ?? [])].map((key) => {
      const [topic, p] = key.split('\u0000') as [string, string];
      return { key: encodeOffsetCommitKey(groupId, topic, Number(p)), value: null };
    });
    records.push({ key: encodeGroupMetadataKey(groupId), value: null });
    this.ctx.append(records, (error) => {
      if (error) {
        done(coordinatorWriteError(error));
        return;
      }
      const g = this.groupManager.groups.get(groupId);
      if (g) this.groupManager.markDead(g, 'DeleteGroups');
      for (const r of records) this.replay(r);
      done('NONE');
    });
  }

  /**
   * OffsetDelete (GroupCoordinator.handleDeleteOffsets, KIP-496): an Empty group (or one with
   * offsets only) loses the asked offsets it has; a live `consumer` group those of topics no
   * member subscribes to (the others are GROUP_SUBSCRIBED_TO_TOPIC); any other live group is
   * NON_EMPTY_GROUP. Tombstones in `__consumer_offsets` remove them, as expiry does.
   */
  deleteOffsets(
    groupId: string,
    partitions: readonly { topic: string; partition: number }[],
    done: (groupError: GroupErrorCode, partitionErrors: GroupErrorCode[]) => void,
  ): void {
    const group = this.groupManager.groups.get(groupId);
    const offsets = this.offsetManager.offsets.get(groupId);
    if ((!group || group.is('Dead')) && !offsets) {
      done('GROUP_ID_NOT_FOUND', []);
      return;
    }
    const live = group !== undefined && !group.is('Empty') && !group.is('Dead');
    if (live && group.protocolType !== 'consumer') {
      done('NON_EMPTY_GROUP', []);
      return;
    }
    const errors = partitions.map(
      (p): GroupErrorCode => (live && group.isSubscribedToTopic(p.topic) ? 'GROUP_SUBSCRIBED_TO_TOPIC' : 'NONE'),
    );
    const records: OffsetsRecord[] = partitions
      .filter((p, i) => errors[i] === 'NONE' && offsets?.has(`${p.topic}\u0000${p.partition}`))
      .map((p) => ({ key: encodeOffsetCommitKey(groupId, p.topic, p.partition), value: null }));
    if (records.length === 0) {
      done('NONE', errors);
      return;
    }
    this.ctx.append(records, (error) => {
      if (error) {
        done(coordinatorWriteError(error), []);
        return;
      }
      for (const r of records) this.replay(r);
      done('NONE', errors);
    });
  }

  unload(): void {
    this.groupManager.onUnloaded();
    this.offsetManager.clear();
    this.timer.cancelAll();
  }
}

export interface GroupCoordinatorDeps {
  scheduler: Scheduler;
  port: ClusterPort;
  config: GroupCoordinatorConfig;
  rng: Rng;
  emit(event: GroupEvent): void;
}

/**
 * The group coordinator of one broker: it serves the groups whose `__consumer_offsets`
 * partition this broker leads. Leadership reaches it from the broker's KafkaApis as LeaderAndIsr
 * lands (onElection / onResignation): on election it loads the partition (replaying every record
 * through the shard's replay path); on resignation it unloads, and parked requests learn
 * NOT_COORDINATOR so clients look the coordinator up again.
 */
export class GroupCoordinator {
  readonly shards = new Map<number, GroupCoordinatorShard>();

  constructor(
    readonly brokerId: number,
    private readonly deps: GroupCoordinatorDeps,
  ) {}

  /**
   * GroupCoordinator.onElection (handleGroupImmigration): KafkaApis made this broker the leader
   * of an offsets partition; its groups are loaded from the log. A partition already owned or
   * loading is left as it is (GroupMetadataManager.addLoadingPartition).
   */
  onElection(offsetsPartition: number): void {
    if (this.shards.has(offsetsPartition)) return;
    if (offsetsPartition >= this.deps.config['offsets.topic.num.partitions']) return;
    this.load(offsetsPartition);
  }

  /**
   * GroupCoordinator.onResignation (handleGroupEmigration): this broker no longer leads the
   * partition; its groups leave memory, and their members learn NOT_COORDINATOR.
   */
  onResignation(offsetsPartition: number): void {
    const shard = this.shards.get(offsetsPartition);
    if (!shard) return;
    this.shards.delete(offsetsPartition);
    const groups = [...shard.groupManager.groups.keys()];
    shard.unload();
    this.deps.emit({
      type: 'coordinatorUnloaded',
      broker: this.brokerId,
      offsetsPartition,
      groups,
      recordsReplayed: 0,
      atMs: this.deps.scheduler.now(),
    });
  }

  /** GroupCoordinator.shutdown: the broker's process is gone, and every group it held with it. */
  shutdown(): void {
    for (const partition of [...this.shards.keys()]) this.onResignation(partition);
  }

  /**
   * Becoming leader of a partition: Kafka's loader reads the whole partition from the log and
   * replays every record before the groups can be served, and that takes time proportional to
   * the partition's size. Here each record batch costs `simulated.offsets.load.ms.per.batch` of
   * engine time; until the replay completes, requests for the partition's groups are answered
   * COORDINATOR_LOAD_IN_PROGRESS (heartbeats get NONE, "respond just blindly", as in Kafka).
   */
  private load(partition: number): void {
    const { scheduler, port } = this.deps;
    const timer = new ShardTimer(scheduler);
    const ctx: CoordinatorContext & { timer: ShardTimer } = {
      brokerId: this.brokerId,
      offsetsPartition: partition,
      config: this.deps.config,
      now: () => scheduler.now(),
      timer,
      append: (records, done) => this.append(partition, records, done),
      emit: (e) => this.deps.emit(e),
      newMemberId: (prefix) => `${prefix}-${uuid(this.deps.rng)}`,
    };
    const shard = new GroupCoordinatorShard(ctx);
    this.shards.set(partition, shard);
    const atStart = port.readLocalLog(this.brokerId, OFFSETS_TOPIC, partition);
    const batches = new Set(atStart.map((r) => r.batchBaseOffset ?? r.offset)).size;
    const loadMs = Math.ceil(batches * this.deps.config['simulated.offsets.load.ms.per.batch']);
    shard.loadCompletesAtMs = scheduler.now() + loadMs;
    this.deps.emit({
      type: 'coordinatorLoading',
      broker: this.brokerId,
      offsetsPartition: partition,
      batches,
      records: atStart.length,
      loadMs,
      completesAtMs: shard.loadCompletesAtMs,
      atMs: scheduler.now(),
    });
    // A shard unloaded meanwhile (leadership lost) cancels its timers, this one included.
    timer.schedule('load', loadMs, () => this.completeLoad(partition, shard, loadMs));
  }

  private completeLoad(partition: number, shard: GroupCoordinatorShard, loadMs: number): void {
    const { scheduler, port } = this.deps;
    const timer = shard.timer;
    if (this.shards.get(partition) !== shard) return;
    const records = port.readLocalLog(this.brokerId, OFFSETS_TOPIC, partition);
    let replayed = 0;
    for (const r of records) {
      if (!r.key) continue;
      try {
        shard.replay({ key: r.key, value: r.value });
        replayed++;
      } catch (e) {
        if (!(e instanceof CorruptRecordError)) throw e;
      }
    }
    shard.loaded = true;
    shard.loadCompletesAtMs = null;
    shard.groupManager.onLoaded();
    const cleanup = () => {
      shard.cleanupGroupMetadata();
      timer.schedule('cleanup-group-metadata', this.deps.config['offsets.retention.check.interval.ms'], cleanup);
    };
    timer.schedule('cleanup-group-metadata', this.deps.config['offsets.retention.check.interval.ms'], cleanup);
    this.deps.emit({
      type: 'coordinatorLoaded',
      broker: this.brokerId,
      offsetsPartition: partition,
      groups: [...shard.groupManager.groups.keys()].sort(),
      recordsReplayed: replayed,
      loadMs,
      atMs: scheduler.now(),
    });
  }

  private append(partition: number, records: OffsetsRecord[], done: (error: KafkaErrorCode | null) => void): void {
    const { port } = this.deps;
    if (!port.leads(this.brokerId, OFFSETS_TOPIC, partition)) {
      done('NOT_LEADER_OR_FOLLOWER');
      return;
    }
    port.append(OFFSETS_TOPIC, partition, records, (error) => done(error));
  }

  /** GroupCoordinator.partitionFor: the `__consumer_offsets` partition that holds a group. */
  partitionFor(groupId: string): number {
    return groupCoordinatorPartition(groupId, this.deps.config['offsets.topic.num.partitions']);
  }

  /** The offsets topic exists, or is created now (KafkaApis.getCoordinator's auto-creation); false when it cannot be. */
  ensureOffsetsTopic(): boolean {
    return createOffsetsTopic(this.deps.port, this.deps.config);
  }

  /**
   * The broker leading an offsets partition, once that broker has become leader; null while none
   * does. (Kafka's getCoordinator reads its metadata cache; here the leader itself says.)
   */
  offsetsPartitionLeader(offsetsPartition: number): number | null {
    return this.deps.port.leaderOf(OFFSETS_TOPIC, offsetsPartition);
  }

  shardFor(groupId: string): GroupCoordinatorShard | undefined {
    return this.shards.get(groupCoordinatorPartition(groupId, this.deps.config['offsets.topic.num.partitions']));
  }

  /**
   * The group request routed to its handler by API, as KafkaApis' handleJoinGroupRequest,
   * handleSyncGroupRequest, ... do: a broker's KafkaApis and the in-memory group test bed both
   * call it (FindCoordinator is answered by KafkaApis, which knows the partition leaders).
   */
  handle(request: Exclude<GroupRequest, { api: 'FindCoordinator' }>, respond: (response: GroupResponse) => void): void {
    switch (request.api) {
      case 'JoinGroup':
        this.handleJoinGroup(request, respond);
        return;
      case 'SyncGroup':
        this.handleSyncGroup(request, respond);
        return;
      case 'Heartbeat':
        this.handleHeartbeat(request, respond);
        return;
      case 'LeaveGroup':
        this.handleLeaveGroup(request, respond);
        return;
      case 'OffsetCommit':
        this.handleCommitOffsets(request, respond);
        return;
      case 'OffsetFetch':
        respond(this.handleFetchOffsets(request));
        return;
      case 'DescribeGroups':
        respond(this.handleDescribeGroups(request));
        return;
      case 'ListGroups':
        respond(this.handleListGroups(request));
        return;
    }
  }

  handleJoinGroup(request: JoinGroupRequest, respond: (response: JoinGroupResponse) => void): void {
    const shard = this.servingShard(request, respond);
    shard?.groupManager.joinGroup(request, respond);
  }

  handleSyncGroup(request: SyncGroupRequest, respond: (response: SyncGroupResponse) => void): void {
    const shard = this.servingShard(request, respond);
    shard?.groupManager.syncGroup(request, respond);
  }

  handleHeartbeat(request: HeartbeatRequest, respond: (response: HeartbeatResponse) => void): void {
    const shard = this.servingShard(request, respond);
    shard?.groupManager.heartbeat(request, respond);
  }

  handleLeaveGroup(request: LeaveGroupRequest, respond: (response: LeaveGroupResponse) => void): void {
    const shard = this.servingShard(request, respond);
    shard?.groupManager.leaveGroup(request, respond);
  }

  handleFetchOffsets(request: OffsetFetchRequest): OffsetFetchResponse {
    const shard = this.shardFor(request.groupId);
    if (!shard) return { api: 'OffsetFetch', errorCode: 'NOT_COORDINATOR', topics: [] };
    if (!shard.loaded) return { api: 'OffsetFetch', errorCode: 'COORDINATOR_LOAD_IN_PROGRESS', topics: [] };
    return shard.offsetManager.fetchOffsets(request);
  }

  handleDescribeGroups(request: DescribeGroupsRequest): DescribeGroupsResponse {
    return { api: 'DescribeGroups', groups: request.groups.map((g) => this.describeGroup(g)) };
  }

  /**
   * The shard serving the request's group, or null once the request is answered: NOT_COORDINATOR
   * when this broker does not own the group's partition, COORDINATOR_LOAD_IN_PROGRESS while it
   * loads (GroupCoordinator.handleHeartbeat: "the group is still loading, so respond just
   * blindly", NONE).
   */
  private servingShard<R extends CoordinatedRequest>(
    request: R,
    respond: (response: Extract<GroupResponse, { api: R['api'] }>) => void,
  ): GroupCoordinatorShard | null {
    const shard = this.shardFor(request.groupId);
    const answer = respond as (response: GroupResponse) => void;
    if (!shard) {
      answer(errorResponse(request, 'NOT_COORDINATOR'));
      return null;
    }
    if (!shard.loaded) {
      answer(
        request.api === 'Heartbeat'
          ? { api: 'Heartbeat', errorCode: 'NONE' }
          : errorResponse(request, 'COORDINATOR_LOAD_IN_PROGRESS'),
      );
      return null;
    }
    return shard;
  }

  /**
   * GroupCoordinator.handleDescribeGroup: a coordinator that is loading or not this group's
   * answers with an error and an empty summary; a group it does not have is described as Dead.
   */
  private describeGroup(groupId: string): DescribedGroup {
    const shard = this.shardFor(groupId);
    const none = { groupId, protocolType: '', protocolData: '', members: [] };
    if (!shard) return { ...none, errorCode: 'NOT_COORDINATOR', groupState: '' };
    if (!shard.loaded) return { ...none, errorCode: 'COORDINATOR_LOAD_IN_PROGRESS', groupState: '' };
    const group = shard.groupManager.groups.get(groupId);
    return group ? group.summary() : { ...none, errorCode: 'NONE', groupState: 'Dead' };
  }

  /**
   * GroupCoordinator.handleListGroups: every group of the partitions this broker leads, filtered
   * by state name (case-insensitively), with COORDINATOR_LOAD_IN_PROGRESS while any is loading.
   */
  handleListGroups(request: ListGroupsRequest): ListGroupsResponse {
    const states = new Set(request.statesFilter.map((s) => s.toLowerCase()));
    const groups: ListGroupsResponse['groups'] = [];
    let loading = false;
    for (const shard of this.shards.values()) {
      if (!shard.loaded) {
        loading = true;
        continue;
      }
      for (const group of shard.groupManager.groups.values()) {
        if (states.size === 0 || states.has(group.state.toLowerCase())) groups.push(group.overview());
      }
    }
    return { api: 'ListGroups', errorCode: loading ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'NONE', groups };
  }

  /**
   * GroupCoordinator.handleCommitOffsets: validated against the group, written to the group's
   * offsets partition, applied (by replay) and answered once that write is committed.
   */
  handleCommitOffsets(request: OffsetCommitRequest, respond: (response: OffsetCommitResponse) => void): void {
    const shard = this.servingShard(request, respond);
    if (!shard) return;
    const validation = shard.offsetManager.prepareCommit(request, shard.groupManager.groups.get(request.groupId));
    if (validation.errorCode !== 'NONE' || validation.records.length === 0) {
      respond({ api: 'OffsetCommit', topics: validation.topics });
      return;
    }
    // Only the partitions whose offsets are written (not those refused, e.g. OFFSET_METADATA_TOO_LARGE).
    const written = validation.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.filter((p) => p.errorCode === 'NONE'),
    }));
    const pending = shard.offsetManager.prepareOffsetCommit(request.groupId, written);
    shard.ctx.append(validation.records, (error) => {
      shard.offsetManager.completeCommit(pending);
      if (error) {
        const code = coordinatorWriteError(error);
        respond({
          api: 'OffsetCommit',
          topics: validation.topics.map((t) => ({
            name: t.name,
            partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: code })),
          })),
        } satisfies OffsetCommitResponse);
        return;
      }
      // The same replay that loading uses applies the committed records.
      for (const r of validation.records) shard.replay(r);
      for (const t of request.topics) {
        for (const p of t.partitions) {
          this.deps.emit({
            type: 'offsetCommitted',
            groupId: request.groupId,
            topic: t.name,
            partition: p.partitionIndex,
            offset: p.committedOffset,
            memberId: request.memberId,
            offsetsPartition: shard.ctx.offsetsPartition,
            atMs: this.deps.scheduler.now(),
          });
        }
      }
      respond({ api: 'OffsetCommit', topics: validation.topics });
    });
  }
}

/** The requests that name one group, served by the shard of its offsets partition. */
type CoordinatedRequest = Exclude<GroupRequest, { api: 'FindCoordinator' | 'DescribeGroups' | 'ListGroups' }>;

function errorResponse(
  request: CoordinatedRequest,
  errorCode: 'NOT_COORDINATOR' | 'COORDINATOR_LOAD_IN_PROGRESS',
): GroupResponse {
  switch (request.api) {
    case 'JoinGroup':
      return joinError(errorCode, request.memberId);
    case 'SyncGroup':
      return { api: 'SyncGroup', errorCode, protocolType: null, protocolName: null, assignment: new Uint8Array(0) };
    case 'Heartbeat':
      return { api: 'Heartbeat', errorCode };
    case 'LeaveGroup':
      return { api: 'LeaveGroup', errorCode, members: [] };
    case 'OffsetFetch':
      return { api: 'OffsetFetch', errorCode, topics: [] };
    case 'OffsetCommit':
      return {
        api: 'OffsetCommit',
        topics: request.topics.map((t) => ({
          name: t.name,
          partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })),
        })),
      };
  }
}

/**
 * Creates `__consumer_offsets` if it is not there yet: offsets.topic.num.partitions partitions,
 * offsets.topic.replication.factor capped to the live brokers, compacted, 100 MiB segments
 * (offsets.topic.segment.bytes). False when it cannot be created.
 */
export function createOffsetsTopic(port: ClusterPort, config: GroupCoordinatorConfig): boolean {
  if (port.partitionCount(OFFSETS_TOPIC) !== undefined) return true;
  const rf = Math.min(config['offsets.topic.replication.factor'], port.liveBrokers().length);
  if (rf < 1) return false;
  const result = port.createTopic(OFFSETS_TOPIC, config['offsets.topic.num.partitions'], rf, {
    'cleanup.policy': 'compact',
    'segment.bytes': '104857600',
  });
  return result === 'NONE' || result === 'TOPIC_ALREADY_EXISTS';
}

/** A random (v4-style) UUID from the seeded Rng, as Kafka appends to member ids. */
export function uuid(rng: Rng): string {
  const hex = (n: number) => Array.from({ length: n }, () => rng.nextInt(16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[rng.nextInt(4)]}${hex(3)}-${hex(12)}`;
}
