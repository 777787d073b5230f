import type { Scheduler, TaskId } from '../../cluster/Scheduler';
import { KafkaError } from '../../errors';
import { assignPartitions, explainAssignment } from './assignors/assignPartitions';
import type { AssignmentStrategy, TopicPartition } from './assignors/types';

/** Up to this many partitions, the leader also records every decision of its assignor. */
const EXPLAIN_MAX_PARTITIONS = 2_000;
/** AbstractCoordinator.JOIN_GROUP_TIMEOUT_LAPSE: JoinGroup waits up to rebalance.timeout.ms plus this. */
const JOIN_GROUP_TIMEOUT_LAPSE_MS = 5_000;
import type { ClusterPort } from './ClusterPort';
import type { ConsumerConfig } from './ConsumerConfig';
import type { ConsumerRequest, ConsumerResponse } from './fetchProtocol';
import type { GroupEvent } from './groupEvents';
import type { ConsumerNetworkClient } from './ConsumerNetworkClient';
import {
  type GroupErrorCode,
  type JoinGroupResponse,
  type SyncGroupResponse,
  UNKNOWN_GENERATION_ID,
  UNKNOWN_MEMBER_ID,
} from './groupProtocol';
import {
  decodeAssignment,
  decodeSubscription,
  encodeAssignment,
  encodeSubscription,
  fromTopicPartitions,
  toTopicPartitions,
} from './offsetsSchema';
import { type AssignorMemory, memberData, subscriptionUserData } from './assignorUserData';
import { type SubscriptionState, sortPartitions, tpString } from './SubscriptionState';
import {
  type CommitPath,
  type CommittedOffsets,
  type OffsetsToCommit,
  sendOffsetCommitRequest,
  sendOffsetFetchRequest,
} from './offsetCommitHandlers';

export interface ConsumerContext {
  readonly clientId: string;
  readonly config: ConsumerConfig;
  readonly scheduler: Scheduler;
  readonly network: ConsumerNetworkClient;
  readonly port: ClusterPort;
  emit(event: GroupEvent): void;
}

/** The client side of a rebalance (AbstractCoordinator.MemberState). */
export type MemberState = 'UNJOINED' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE' | 'STABLE';

/**
 * A consumer's membership in its group (clients/.../consumer/internals/ConsumerCoordinator and
 * AbstractCoordinator): find the coordinator, join, let the leader assign, sync, heartbeat, and
 * commit. Joining is driven by poll(), as in KafkaConsumer: a consumer that stops polling stops
 * rejoining, and after max.poll.interval.ms its heartbeat timer leaves the group for it.
 * Heartbeats run on their own timer (Kafka's heartbeat thread), so a busy consumer stays a member.
 *
 * Eager protocols revoke every partition before joining; cooperative-sticky keeps its partitions
 * through the rebalance and revokes only those the new assignment takes away, then rejoins so
 * they can be handed to their new owner in the next generation.
 */
export class ConsumerCoordinator {
  coordinator: number | null = null;
  state: MemberState = 'UNJOINED';
  generationId = UNKNOWN_GENERATION_ID;
  memberId = UNKNOWN_MEMBER_ID;
  protocolName: string | null = null;
  leaderId: string | null = null;
  rejoinNeeded = true;
  /** A fatal error (FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL) the next poll() throws. */
  fatalError: KafkaError | null = null;
  lastPollMs: number;
  private findingCoordinator = false;
  /** retry.backoff.ms after a failed lookup. */
  private nextLookupMs = 0;
  private joinInFlight = false;
  private heartbeatTask: TaskId | null = null;
  private heartbeatInFlight = false;
  private nextAutoCommitMs: number;
  private readonly waitingForCoordinator: (() => void)[] = [];
  /** What the leader assigned from: partition counts per subscribed topic, to notice changes. */
  private assignmentSnapshot: Record<string, number> | null = null;
  /** Topics the whole group subscribes to (leader only), so it can watch all of them. */
  private groupSubscription: string[] = [];
  private closed = false;
  private prepareCommitPending = false;
  /** Partitions lost because the generation was reset (onPartitionsLost at the next join). */
  private generationLost = false;
  /** retry.backoff.ms after a retriable JoinGroup failure (the coordinator is loading, say). */
  private nextJoinMs = 0;
  /** Kafka's Heartbeat session timer: the last time the coordinator answered a heartbeat or join. */
  private lastHeartbeatReceivedMs = 0;
  /**
   * Each assignor's onAssignment memory (Kafka keeps one assignor instance per strategy): the
   * partitions and generation it was last given, which the sticky assignors send back as userData.
   */
  private readonly assignorMemory = new Map<string, AssignorMemory>();

  constructor(
    private readonly ctx: ConsumerContext,
    private readonly subscriptions: SubscriptionState,
    private readonly groupId: string,
  ) {
    this.lastPollMs = ctx.scheduler.now();
    this.nextAutoCommitMs = ctx.scheduler.now() + ctx.config['auto.commit.interval.ms'];
  }

  private get now(): number {
    return this.ctx.scheduler.now();
  }

  private get protocols(): string[] {
    return this.ctx.config['partition.assignment.strategy'];
  }

  private get cooperative(): boolean {
    return (
      this.protocolName === 'cooperative-sticky' ||
      (this.protocolName === null && this.protocols[0] === 'cooperative-sticky')
    );
  }

  /** Sends to a broker; the answer, or null on a disconnect or after request.timeout.ms. */
  private request(
    from: string,
    to: number,
    body: ConsumerRequest,
    onResponse: (r: ConsumerResponse | null) => void,
    timeoutMs = this.ctx.config['request.timeout.ms'],
  ): void {
    this.ctx.network.send(from, to, body, onResponse, timeoutMs);
  }

  // ------------------------------------------------------------------ poll-driven work

  /** Called from KafkaConsumer.poll(): auto commit, coordinator lookup, (re)join. True when stable. */
  poll(): boolean {
    this.lastPollMs = this.now;
    if (this.fatalError) {
      const e = this.fatalError;
      this.fatalError = null;
      throw e;
    }
    if (this.subscriptions.type === 'AUTO_TOPICS') {
      this.maybeAutoCommit();
      this.checkMetadataChange();
      if (this.coordinator === null) {
        this.lookupCoordinator();
        return false;
      }
      if (this.rejoinNeeded && !this.joinInFlight && !this.prepareCommitPending && this.now >= this.nextJoinMs)
        this.startJoin();
      return this.state === 'STABLE' && !this.rejoinNeeded;
    }
    this.maybeAutoCommit();
    return true;
  }

  private maybeAutoCommit(): void {
    if (!this.ctx.config['enable.auto.commit'] || this.now < this.nextAutoCommitMs) return;
    this.nextAutoCommitMs = this.now + this.ctx.config['auto.commit.interval.ms'];
    const offsets = this.subscriptions.allConsumed();
    if (offsets.size > 0) this.commit(offsets, () => {});
  }

  /** The leader rejoins when a subscribed topic gains partitions (or appears). */
  private checkMetadataChange(): void {
    if (this.assignmentSnapshot === null || this.state !== 'STABLE') return;
    for (const topic of this.groupSubscription) {
      const count = this.ctx.port.partitionCount(topic) ?? 0;
      if ((this.assignmentSnapshot[topic] ?? 0) !== count) {
        this.requestRejoin(`metadata changed: ${topic} now has ${count} partitions`);
        return;
      }
    }
  }

  requestRejoin(reason: string): void {
    if (!this.rejoinNeeded) this.emitState(this.state, `rejoin requested: ${reason}`);
    this.rejoinNeeded = true;
  }

  // ------------------------------------------------------------------ FindCoordinator

  lookupCoordinator(): void {
    if (this.findingCoordinator || this.closed || this.now < this.nextLookupMs) return;
    const live = this.ctx.port.liveBrokers();
    if (live.length === 0) return;
    const broker = this.ctx.network.leastLoadedNode(this.ctx.clientId, live);
    this.findingCoordinator = true;
    this.request(this.ctx.clientId, broker, { api: 'FindCoordinator', key: this.groupId, keyType: 0 }, (r) => {
      this.findingCoordinator = false;
      if (this.closed) return;
      if (r?.api !== 'FindCoordinator' || r.errorCode !== 'NONE') {
        // retry.backoff.ms before the next lookup, however often poll() is called meanwhile.
        this.nextLookupMs = this.now + this.ctx.config['retry.backoff.ms'];
        this.ctx.scheduler.schedule(this.ctx.config['retry.backoff.ms'], () => this.lookupCoordinator());
        return;
      }
      this.coordinator = r.nodeId;
      this.emitState(this.state, `coordinator is broker ${r.nodeId} (${'__consumer_offsets'}-${r.partition})`);
      const waiting = this.waitingForCoordinator.splice(0);
      for (const fn of waiting) fn();
    });
  }

  markCoordinatorUnknown(reason: string): void {
    if (this.coordinator === null) return;
    this.coordinator = null;
    this.emitState(this.state, `coordinator unknown: ${reason}`);
    this.lookupCoordinator();
  }

  private withCoordinator(fn: (coordinator: number) => void): void {
    if (this.coordinator !== null) fn(this.coordinator);
    else {
      this.waitingForCoordinator.push(() => this.withCoordinator(fn));
      this.lookupCoordinator();
    }
  }

  // ------------------------------------------------------------------ JoinGroup / SyncGroup

  private startJoin(): void {
    this.joinInFlight = true;
    // onJoinPrepare: commit what was consumed (auto commit), then revoke (eager) or not (cooperative).
    if (this.ctx.config['enable.auto.commit'] && this.generationId !== UNKNOWN_GENERATION_ID) {
      const offsets = this.subscriptions.allConsumed();
      if (offsets.size > 0) {
        this.prepareCommitPending = true;
        this.commit(offsets, () => {
          this.prepareCommitPending = false;
          this.prepareAndSendJoin();
        });
        return;
      }
    }
    this.prepareAndSendJoin();
  }

  private prepareAndSendJoin(): void {
    if (this.closed) return;
    const owned = this.subscriptions.assignedPartitions();
    if (this.generationLost) {
      this.generationLost = false;
      if (owned.length > 0) {
        this.invokeListener('onPartitionsLost', owned);
        this.subscriptions.setAssignment([]);
      }
    } else if (!this.cooperative && owned.length > 0) {
      this.invokeListener('onPartitionsRevoked', owned);
      this.subscriptions.setAssignment([]);
    }
    this.sendJoin();
  }

  /** ConsumerCoordinator.metadata(): one subscription per protocol, with that assignor's userData. */
  private subscriptionBytes(protocol: string): Uint8Array {
    return encodeSubscription({
      version: 3,
      topics: this.subscriptions.topics,
      userData: subscriptionUserData(protocol, this.assignorMemory.get(protocol) ?? null),
      // Empty for an eager member: onJoinPrepare revoked everything before this.
      ownedPartitions: toTopicPartitions(this.subscriptions.assignedPartitions()),
      generationId: this.generationId,
      rackId: null,
    });
  }

  private sendJoin(): void {
    this.withCoordinator((coordinator) => {
      if (this.closed) return;
      this.state = 'PREPARING_REBALANCE';
      this.emitState('PREPARING_REBALANCE', 'JoinGroup sent');
      this.stopHeartbeats();
      this.request(
        this.ctx.clientId,
        coordinator,
        {
          api: 'JoinGroup',
          groupId: this.groupId,
          sessionTimeoutMs: this.ctx.config['session.timeout.ms'],
          rebalanceTimeoutMs: this.ctx.config['max.poll.interval.ms'],
          memberId: this.memberId,
          groupInstanceId: this.ctx.config['group.instance.id'],
          protocolType: 'consumer',
          protocols: this.protocols.map((name) => ({ name, metadata: this.subscriptionBytes(name) })),
          clientId: this.ctx.clientId,
          clientHost: `/${this.ctx.clientId}`,
        },
        (r) => this.onJoinResponse(r),
        // AbstractCoordinator: a JoinGroup may be held for the whole rebalance, plus a 5 s lapse.
        Math.max(
          this.ctx.config['request.timeout.ms'],
          this.ctx.config['max.poll.interval.ms'] + JOIN_GROUP_TIMEOUT_LAPSE_MS,
        ),
      );
    });
  }

  private onJoinResponse(r: ConsumerResponse | null): void {
    if (this.closed) return;
    if (r?.api !== 'JoinGroup') {
      this.joinFailed('disconnected', true);
      return;
    }
    const join = r as JoinGroupResponse;
    if (join.errorCode === 'MEMBER_ID_REQUIRED') {
      this.memberId = join.memberId;
      this.sendJoin();
      return;
    }
    if (join.errorCode !== 'NONE') {
      this.rebalanceFailed('JoinGroup', join.errorCode);
      return;
    }
    this.memberId = join.memberId;
    this.generationId = join.generationId;
    this.protocolName = join.protocolName;
    this.leaderId = join.leader;
    this.state = 'COMPLETING_REBALANCE';
    this.emitState(
      'COMPLETING_REBALANCE',
      `joined generation ${join.generationId} as ${join.leader === join.memberId ? 'leader' : 'follower'}`,
    );
    let assignments: { memberId: string; assignment: Uint8Array }[] = [];
    if (join.leader === join.memberId && !join.skipAssignment) {
      try {
        assignments = this.performAssignment(join);
      } catch (e) {
        if (e instanceof KafkaError) {
          this.fatal(e.code, e.message);
          return;
        }
        throw e;
      }
    }
    const coordinator = this.coordinator;
    if (coordinator === null) {
      this.joinFailed('coordinator unknown', true);
      return;
    }
    this.request(
      this.ctx.clientId,
      coordinator,
      {
        api: 'SyncGroup',
        groupId: this.groupId,
        generationId: this.generationId,
        memberId: this.memberId,
        groupInstanceId: this.ctx.config['group.instance.id'],
        protocolType: 'consumer',
        protocolName: this.protocolName,
        assignments,
      },
      (resp) => this.onSyncResponse(resp, join.generationId),
      this.ctx.config['request.timeout.ms'],
    );
    this.lastHeartbeatReceivedMs = this.now;
    // Heartbeats go on while waiting for the assignment (the coordinator accepts them).
    this.scheduleHeartbeat();
  }

  /** The leader's job: run the agreed assignor over every member's subscription. */
  private performAssignment(join: JoinGroupResponse): { memberId: string; assignment: Uint8Array }[] {
    const strategy = join.protocolName as AssignmentStrategy;
    const members = join.members.map((m) => {
      const sub = decodeSubscription(m.metadata);
      return {
        memberId: m.memberId,
        ...(m.groupInstanceId !== null ? { groupInstanceId: m.groupInstanceId } : {}),
        topics: sub.topics,
        ...memberData(strategy, sub),
      };
    });
    const allTopics = [...new Set(members.flatMap((m) => m.topics))].sort();
    const partitionsPerTopic: Record<string, number> = {};
    for (const t of allTopics) {
      const n = this.ctx.port.partitionCount(t);
      if (n !== undefined) partitionsPerTopic[t] = n;
    }
    this.assignmentSnapshot = { ...partitionsPerTopic };
    this.groupSubscription = allTopics;
    for (const m of members) m.topics = m.topics.filter((t) => t in partitionsPerTopic);
    // Small groups get the assignor's step-by-step explanation for the UI; big ones just the result.
    const total = Object.values(partitionsPerTopic).reduce((n, c) => n + c, 0);
    const explanation =
      total <= EXPLAIN_MAX_PARTITIONS ? explainAssignment(strategy, members, partitionsPerTopic) : null;
    const result = explanation?.assignment ?? assignPartitions(strategy, members, partitionsPerTopic);
    this.ctx.emit({
      type: 'groupAssignmentComputed',
      consumerId: this.ctx.clientId,
      groupId: this.groupId,
      generationId: join.generationId,
      strategy,
      subscriptions: Object.fromEntries(members.map((m) => [m.memberId, m.topics])),
      partitionsPerTopic,
      assignment: result,
      steps: explanation?.steps ?? null,
      revokedThisGeneration: explanation?.revokedThisGeneration ?? [],
      atMs: this.now,
    });
    return members.map((m) => ({
      memberId: m.memberId,
      assignment: encodeAssignment({
        version: 3,
        assignedPartitions: toTopicPartitions(result[m.memberId] ?? []),
        userData: null,
      }),
    }));
  }

  private onSyncResponse(r: ConsumerResponse | null, generationId: number): void {
    if (this.closed) return;
    if (r?.api !== 'SyncGroup') {
      this.joinFailed('disconnected', true);
      return;
    }
    const sync = r as SyncGroupResponse;
    if (generationId !== this.generationId) return;
    if (sync.errorCode !== 'NONE') {
      this.rebalanceFailed('SyncGroup', sync.errorCode);
      return;
    }
    const assigned =
      sync.assignment.length > 0 ? fromTopicPartitions(decodeAssignment(sync.assignment).assignedPartitions) : [];
    // The agreed assignor's onAssignment(assignment, metadata): remember it for the next subscription.
    if (this.protocolName !== null)
      this.assignorMemory.set(this.protocolName, { partitions: assigned, generation: generationId });
    this.onJoinComplete(sortPartitions(assigned));
  }

  /**
   * A JoinGroup or SyncGroup error, handled alike (AbstractCoordinator's JoinGroupResponseHandler
   * and SyncGroupResponseHandler): an unknown member or a stale generation starts over from a
   * reset generation; a moved or missing coordinator is looked up again; a coordinator still
   * replaying __consumer_offsets is retried after retry.backoff.ms; anything else is fatal.
   */
  private rebalanceFailed(api: 'JoinGroup' | 'SyncGroup', errorCode: GroupErrorCode): void {
    switch (errorCode) {
      case 'UNKNOWN_MEMBER_ID':
      case 'ILLEGAL_GENERATION':
        this.resetGeneration(errorCode);
        this.joinFailed(errorCode, false);
        return;
      case 'NOT_COORDINATOR':
      case 'COORDINATOR_NOT_AVAILABLE':
        this.joinFailed(errorCode, true);
        return;
      case 'COORDINATOR_LOAD_IN_PROGRESS':
        this.nextJoinMs = this.now + this.ctx.config['retry.backoff.ms'];
        this.joinFailed(errorCode, false);
        return;
      case 'REBALANCE_IN_PROGRESS':
        this.joinFailed(errorCode, false);
        return;
      default:
        this.fatal(errorCode, `${api} failed`);
    }
  }

  /** ConsumerCoordinator.onJoinComplete: apply the assignment and tell the listener. */
  private onJoinComplete(assigned: TopicPartition[]): void {
    this.joinInFlight = false;
    this.rejoinNeeded = false;
    this.state = 'STABLE';
    const owned = this.subscriptions.assignedPartitions();
    const ownedKeys = new Set(owned.map(tpString));
    const assignedKeys = new Set(assigned.map(tpString));
    const revoked = owned.filter((tp) => !assignedKeys.has(tpString(tp)));
    const added = assigned.filter((tp) => !ownedKeys.has(tpString(tp)));
    this.emitState('STABLE', `generation ${this.generationId}: ${assigned.length} partitions`);
    if (revoked.length > 0) {
      // Cooperative: give up only what moves, then rejoin so its new owner can get it.
      this.invokeListener('onPartitionsRevoked', revoked);
    }
    this.subscriptions.setAssignment(assigned);
    this.invokeListener('onPartitionsAssigned', added);
    if (revoked.length > 0 && this.cooperative) this.requestRejoin('partitions revoked in a cooperative rebalance');
    this.nextAutoCommitMs = this.now + this.ctx.config['auto.commit.interval.ms'];
    this.lastHeartbeatReceivedMs = this.now;
    this.scheduleHeartbeat();
  }

  private joinFailed(reason: string, coordinatorProblem: boolean): void {
    this.joinInFlight = false;
    this.rejoinNeeded = true;
    this.state = 'UNJOINED';
    this.stopHeartbeats();
    this.emitState('UNJOINED', `join failed: ${reason}`);
    if (coordinatorProblem) this.markCoordinatorUnknown(reason);
  }

  private resetGeneration(reason: string): void {
    if (this.generationId !== UNKNOWN_GENERATION_ID && this.subscriptions.assignedPartitions().length > 0) {
      this.generationLost = true;
    }
    this.generationId = UNKNOWN_GENERATION_ID;
    this.protocolName = null;
    if (reason === 'UNKNOWN_MEMBER_ID' || reason === 'FENCED_INSTANCE_ID' || reason === 'leave')
      this.memberId = UNKNOWN_MEMBER_ID;
    this.state = 'UNJOINED';
    this.assignmentSnapshot = null;
  }

  private fatal(code: GroupErrorCode, message: string): void {
    this.joinInFlight = false;
    this.stopHeartbeats();
    const error = new KafkaError(code === 'NONE' ? 'UNKNOWN_SERVER_ERROR' : code, `${message}: ${code}`);
    this.fatalError = error;
    this.ctx.emit({ type: 'consumerError', consumerId: this.ctx.clientId, error: error.code, message, atMs: this.now });
  }

  // ------------------------------------------------------------------ Heartbeat

  private scheduleHeartbeat(): void {
    if (this.heartbeatTask !== null) this.ctx.scheduler.cancel(this.heartbeatTask);
    this.heartbeatTask = this.ctx.scheduler.schedule(this.ctx.config['heartbeat.interval.ms'], () => {
      this.heartbeatTask = null;
      this.heartbeatTick();
    });
  }

  private stopHeartbeats(): void {
    if (this.heartbeatTask !== null) this.ctx.scheduler.cancel(this.heartbeatTask);
    this.heartbeatTask = null;
  }

  private heartbeatTick(): void {
    if (this.closed || this.generationId === UNKNOWN_GENERATION_ID) return;
    // The heartbeat thread's poll timer: a consumer that stopped calling poll() leaves.
    if (this.now - this.lastPollMs > this.ctx.config['max.poll.interval.ms']) {
      this.ctx.emit({
        type: 'consumerError',
        consumerId: this.ctx.clientId,
        error: 'max.poll.interval.ms',
        message: `consumer poll timeout has expired (${this.now - this.lastPollMs} ms since the last poll)`,
        atMs: this.now,
      });
      this.maybeLeaveGroup('consumer poll timeout has expired.');
      return;
    }
    this.scheduleHeartbeat();
    // Heartbeat.sessionTimeoutExpired: no answer for session.timeout.ms, so the coordinator is
    // probably gone (dead, partitioned away): look it up again.
    if (this.coordinator !== null && this.now - this.lastHeartbeatReceivedMs > this.ctx.config['session.timeout.ms']) {
      this.lastHeartbeatReceivedMs = this.now;
      this.markCoordinatorUnknown('session timed out without receiving a heartbeat response');
    }
    const coordinator = this.coordinator;
    if (coordinator === null || this.heartbeatInFlight) return;
    this.heartbeatInFlight = true;
    const generationId = this.generationId;
    this.request(
      this.ctx.clientId,
      coordinator,
      {
        api: 'Heartbeat',
        groupId: this.groupId,
        generationId,
        memberId: this.memberId,
        groupInstanceId: this.ctx.config['group.instance.id'],
      },
      (r) => {
        this.heartbeatInFlight = false;
        if (this.closed) return;
        if (r?.api !== 'Heartbeat') {
          this.markCoordinatorUnknown('heartbeat failed: disconnected or timed out');
          return;
        }
        if (r.errorCode === 'NONE' || r.errorCode === 'REBALANCE_IN_PROGRESS') this.lastHeartbeatReceivedMs = this.now;
        switch (r.errorCode) {
          case 'NONE':
            return;
          case 'REBALANCE_IN_PROGRESS':
            this.requestRejoin('heartbeat: REBALANCE_IN_PROGRESS');
            return;
          case 'ILLEGAL_GENERATION':
          case 'UNKNOWN_MEMBER_ID':
            if (generationId !== this.generationId) return;
            this.resetGeneration(r.errorCode);
            this.stopHeartbeats();
            this.requestRejoin(`heartbeat: ${r.errorCode}`);
            return;
          case 'NOT_COORDINATOR':
          case 'COORDINATOR_NOT_AVAILABLE':
            this.markCoordinatorUnknown(r.errorCode);
            return;
          default:
            this.fatal(r.errorCode, 'Heartbeat failed');
        }
      },
    );
  }

  // ------------------------------------------------------------------ LeaveGroup

  /** Dynamic members say goodbye; static members leave silently (the session timeout decides). */
  maybeLeaveGroup(reason: string): void {
    const coordinator = this.coordinator;
    if (
      coordinator !== null &&
      this.memberId !== UNKNOWN_MEMBER_ID &&
      this.ctx.config['group.instance.id'] === null &&
      this.subscriptions.type === 'AUTO_TOPICS'
    ) {
      this.request(
        this.ctx.clientId,
        coordinator,
        {
          api: 'LeaveGroup',
          groupId: this.groupId,
          members: [{ memberId: this.memberId, groupInstanceId: null, reason }],
        },
        () => {},
      );
    }
    this.stopHeartbeats();
    this.resetGeneration('leave');
    this.joinInFlight = false;
    this.rejoinNeeded = true;
    this.emitState('UNJOINED', `left the group: ${reason}`);
  }

  close(): void {
    this.closed = true;
    this.stopHeartbeats();
  }

  // ------------------------------------------------------------------ OffsetCommit / OffsetFetch

  /** Sends an OffsetCommit for these offsets; `done` gets NONE or Kafka's error. */
  commit(offsets: OffsetsToCommit, done: (error: GroupErrorCode) => void): void {
    const auto = this.subscriptions.type === 'AUTO_TOPICS';
    if (auto && (this.generationId === UNKNOWN_GENERATION_ID || this.state !== 'STABLE')) {
      // generationIfStable() is null: the commit cannot be attributed to a generation.
      done(this.state === 'UNJOINED' ? 'ILLEGAL_GENERATION' : 'REBALANCE_IN_PROGRESS');
      return;
    }
    sendOffsetCommitRequest(this.commitPath, auto ? this.generationId : -1, auto ? this.memberId : '', offsets, done);
  }

  /** OffsetFetch: each partition's committed offset and the leader epoch committed with it (-1: none). */
  fetchCommitted(partitions: TopicPartition[], done: (result: CommittedOffsets | null) => void): void {
    sendOffsetFetchRequest(this.commitPath, partitions, done);
  }

  /** What the commit path uses of this coordinator. */
  private get commitPath(): CommitPath {
    return {
      clientId: this.ctx.clientId,
      groupId: this.groupId,
      groupInstanceId: this.ctx.config['group.instance.id'],
      withCoordinator: (fn) => this.withCoordinator(fn),
      send: (to, body, onResponse) => this.request(this.ctx.clientId, to, body, onResponse),
      markCoordinatorUnknown: (reason) => this.markCoordinatorUnknown(reason),
      resetGeneration: (reason) => this.resetGeneration(reason),
      requestRejoin: (reason) => this.requestRejoin(reason),
    };
  }

  // ------------------------------------------------------------------ events

  private invokeListener(
    callback: 'onPartitionsRevoked' | 'onPartitionsAssigned' | 'onPartitionsLost',
    partitions: TopicPartition[],
  ): void {
    this.ctx.emit({
      type: 'consumerRebalanceCallback',
      consumerId: this.ctx.clientId,
      groupId: this.groupId,
      callback,
      partitions,
      generationId: this.generationId,
      atMs: this.now,
    });
    const l = this.subscriptions.listener;
    if (callback === 'onPartitionsLost') {
      if (l.onPartitionsLost) l.onPartitionsLost(partitions);
      else l.onPartitionsRevoked?.(partitions);
    } else {
      l[callback]?.(partitions);
    }
  }

  private emitState(state: MemberState, reason: string): void {
    this.ctx.emit({
      type: 'consumerStateChanged',
      consumerId: this.ctx.clientId,
      groupId: this.groupId,
      state,
      atMs: this.now,
      reason,
    });
  }
}
