import { ClassicGroup, ClassicGroupMember } from './ClassicGroup';
import type { CoordinatorContext, OffsetsRecord } from './CoordinatorContext';
import {
  type GroupErrorCode,
  type HeartbeatRequest,
  type HeartbeatResponse,
  type JoinGroupRequest,
  type JoinGroupResponse,
  type LeaveGroupRequest,
  type LeaveGroupResponse,
  type SyncGroupRequest,
  type SyncGroupResponse,
  UNKNOWN_MEMBER_ID,
} from '../../clients/consumer/groupProtocol';
import type { GroupMetadataValue } from '../../clients/consumer/offsetsSchema';
import { groupMetadataRecord, loadGroup } from './GroupMetadataRecords';
import { coordinatorWriteError, joinError, syncError } from './groupErrors';
import { emitGroupGeneration, emitGroupState } from './groupStateEvents';

/** KIP-394: a member given an id by MEMBER_ID_REQUIRED (or new) must rejoin within this. */
const NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The classic group protocol on the coordinator (group-coordinator/.../GroupMetadataManager.java,
 * the classicGroup* methods, and core's GroupCoordinator.scala before it).
 *
 * Request handlers answer through a callback, because a JoinGroup is parked until the join
 * phase completes and a SyncGroup until the leader's assignment is written. Three timers drive
 * the rest, all keyed per group or member:
 *   join-<group>            the join phase: group.initial.rebalance.delay.ms for an Empty group
 *                           (extended while members keep arriving, up to the rebalance timeout),
 *                           else the rebalance timeout; completes early once everyone rejoined
 *   sync-<group>            members that got a join response must SyncGroup within the rebalance
 *                           timeout, or they are removed and the group rebalances again
 *   heartbeat-<group>-<m>   session.timeout.ms since the member was last heard from
 * The group's membership and assignment are written as a GroupMetadata record when a
 * generation completes (sync) or the group empties; replay() rebuilds a group from that record
 * when another broker takes over the partition (Stable with its members, or Empty).
 */
export class GroupMetadataManager {
  readonly groups = new Map<string, ClassicGroup>();

  constructor(private readonly ctx: CoordinatorContext) {}

  /**
   * While a new group waits out its InitialDelayedJoin (PreparingRebalance, generation 0): the
   * configured group.initial.rebalance.delay.ms, which each newcomer extends up to the rebalance
   * timeout. Null otherwise, so a page says why a group waits only while it does.
   */
  initialRebalanceDelayMs(group: ClassicGroup): number | null {
    return group.initialJoinDelayActive ? this.ctx.config['group.initial.rebalance.delay.ms'] : null;
  }

  // ------------------------------------------------------------------ JoinGroup

  joinGroup(req: JoinGroupRequest, respond: (r: JoinGroupResponse) => void): void {
    const { config } = this.ctx;
    const fail = (errorCode: GroupErrorCode, memberId = req.memberId) => respond(joinError(errorCode, memberId));
    if (req.groupId === '') {
      fail('INVALID_GROUP_ID');
      return;
    }
    if (
      req.sessionTimeoutMs < config['group.min.session.timeout.ms'] ||
      req.sessionTimeoutMs > config['group.max.session.timeout.ms']
    ) {
      fail('INVALID_SESSION_TIMEOUT');
      return;
    }
    let group = this.groups.get(req.groupId);
    if (!group) {
      // A known member id for a group we do not have: it was removed (or the group expired).
      if (req.memberId !== UNKNOWN_MEMBER_ID) {
        fail('UNKNOWN_MEMBER_ID');
        return;
      }
      group = new ClassicGroup(req.groupId, 'Empty', this.ctx.now());
      this.groups.set(req.groupId, group);
      emitGroupState(this.ctx, group, null, 'group created by its first JoinGroup');
    }
    if (group.is('Dead')) {
      fail('COORDINATOR_NOT_AVAILABLE');
      return;
    }
    if (!this.acceptJoiningMember(group, req.memberId)) {
      // GroupCoordinator.handleJoinGroup: a refused member that was in the group leaves it.
      const member = group.members.get(req.memberId);
      if (member) {
        this.ctx.timer.cancel(heartbeatKey(group.groupId, member.memberId));
        this.removeMember(group, member, 'group.max.size reached');
      }
      fail('GROUP_MAX_SIZE_REACHED', UNKNOWN_MEMBER_ID);
      // Then, as after every JoinGroup, the join phase may be complete (rebalancePurgatory.checkAndComplete).
      if (member && group.is('PreparingRebalance')) this.maybeCompleteJoin(group);
      return;
    }
    if (!group.supportsProtocols(req.protocolType, req.protocols)) {
      fail('INCONSISTENT_GROUP_PROTOCOL');
      return;
    }
    if (req.memberId === UNKNOWN_MEMBER_ID) this.joinUnknownMember(group, req, respond);
    else this.joinKnownMember(group, req, respond);
  }

  /**
   * GroupCoordinator.acceptJoiningMember (group.max.size): an Empty group takes every join; while
   * it prepares a rebalance, a member already waiting in the join phase, or anyone while fewer
   * than group.max.size wait; otherwise a member of the group, or anyone while it has fewer than
   * group.max.size members. Ids handed out by MEMBER_ID_REQUIRED and not yet used take no seat.
   */
  private acceptJoiningMember(group: ClassicGroup, memberId: string): boolean {
    const max = this.ctx.config['group.max.size'];
    const member = group.members.get(memberId);
    switch (group.state) {
      case 'Empty':
      case 'Dead':
        return true;
      case 'PreparingRebalance':
        return (member?.isAwaitingJoin ?? false) || group.numAwaiting < max;
      default:
        return member !== undefined || group.size < max;
    }
  }

  private joinUnknownMember(group: ClassicGroup, req: JoinGroupRequest, respond: (r: JoinGroupResponse) => void): void {
    // GroupMetadata.generateMemberId: a static member's id starts with its group.instance.id.
    const newMemberId = this.ctx.newMemberId(req.groupInstanceId ?? req.clientId);
    if (req.groupInstanceId !== null) {
      const oldMemberId = group.staticMemberId(req.groupInstanceId);
      if (oldMemberId !== undefined) {
        this.replaceStaticMemberAndMaybeRebalance(group, req, oldMemberId, newMemberId, respond);
        return;
      }
      this.addMemberAndRebalance(group, req, newMemberId, respond);
      return;
    }
    // JoinGroup v0-3 (doDynamicNewMemberJoinGroup with requireKnownMemberId false): the member
    // joins with its new id at once.
    if (req.requireKnownMemberId === false) {
      this.addMemberAndRebalance(group, req, newMemberId, respond);
      return;
    }
    // KIP-394: hand out the id first; the member must come back with it. A client that dies in
    // between leaves only a pending id behind, which expires, instead of a phantom member.
    group.pendingMembers.add(newMemberId);
    this.ctx.timer.schedule(heartbeatKey(group.groupId, newMemberId), req.sessionTimeoutMs, () => {
      group.pendingMembers.delete(newMemberId);
      this.maybeCompleteJoin(group);
    });
    respond(joinError('MEMBER_ID_REQUIRED', newMemberId));
  }

  private joinKnownMember(group: ClassicGroup, req: JoinGroupRequest, respond: (r: JoinGroupResponse) => void): void {
    if (group.pendingMembers.delete(req.memberId)) {
      this.addMemberAndRebalance(group, req, req.memberId, respond);
      return;
    }
    // GroupCoordinator.doCurrentMemberJoinGroup: the instance id before the member id.
    const invalid = group.validateCurrentMember(req.memberId, req.groupInstanceId);
    if (invalid) {
      respond(joinError(invalid, req.memberId));
      return;
    }
    const member = group.members.get(req.memberId) as ClassicGroupMember;
    switch (group.state) {
      case 'PreparingRebalance':
        this.updateMemberAndRebalance(group, member, req, respond);
        return;
      case 'CompletingRebalance':
        if (member.matches(req.protocols)) {
          // A resent JoinGroup (its response got lost): answer with the current generation again.
          respond(this.joinResponse(group, member.memberId));
        } else {
          this.updateMemberAndRebalance(group, member, req, respond);
        }
        return;
      case 'Stable':
        // The leader rejoining forces a rebalance: that is how it reacts to metadata changes
        // (partitions added) that change no member's subscription.
        if (group.isLeader(member.memberId) || !member.matches(req.protocols)) {
          this.updateMemberAndRebalance(group, member, req, respond);
        } else {
          respond(this.joinResponse(group, member.memberId, false));
        }
        return;
      default:
        respond(joinError('UNKNOWN_MEMBER_ID', req.memberId));
    }
  }

  private addMemberAndRebalance(
    group: ClassicGroup,
    req: JoinGroupRequest,
    memberId: string,
    respond: (r: JoinGroupResponse) => void,
  ): void {
    const member = new ClassicGroupMember(
      memberId,
      req.groupInstanceId,
      req.clientId,
      req.clientHost,
      req.rebalanceTimeoutMs,
      req.sessionTimeoutMs,
      req.protocolType,
      req.protocols,
    );
    member.isNew = true;
    member.lastHeartbeatMs = this.ctx.now();
    // An Empty group waiting out group.initial.rebalance.delay.ms extends the delay per newcomer.
    if (group.is('PreparingRebalance') && group.generationId === 0) group.newMemberAdded = true;
    group.add(member);
    member.awaitingJoin = respond;
    this.ctx.emit({
      type: 'groupMemberAdded',
      groupId: group.groupId,
      memberId,
      groupInstanceId: req.groupInstanceId,
      reason: 'JoinGroup',
      atMs: this.ctx.now(),
    });
    this.scheduleHeartbeatExpiration(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS);
    if (group.canRebalance()) this.prepareRebalance(group, `member ${memberId} joined`);
    else this.maybeCompleteJoin(group);
  }

  private updateMemberAndRebalance(
    group: ClassicGroup,
    member: ClassicGroupMember,
    req: JoinGroupRequest,
    respond: (r: JoinGroupResponse) => void,
  ): void {
    const changed = !member.matches(req.protocols);
    member.supportedProtocols = req.protocols;
    member.rebalanceTimeoutMs = req.rebalanceTimeoutMs;
    member.sessionTimeoutMs = req.sessionTimeoutMs;
    member.awaitingJoin = respond;
    member.lastHeartbeatMs = this.ctx.now();
    if (group.canRebalance()) {
      const why = changed
        ? `member ${member.memberId} changed its subscription`
        : group.isLeader(member.memberId)
          ? `leader ${member.memberId} rejoined (metadata change)`
          : `member ${member.memberId} rejoined`;
      this.prepareRebalance(group, why);
    } else {
      this.maybeCompleteJoin(group);
    }
  }

  /** KIP-345: a static member restarting with a new member id takes over its old place. */
  private replaceStaticMemberAndMaybeRebalance(
    group: ClassicGroup,
    req: JoinGroupRequest,
    oldMemberId: string,
    newMemberId: string,
    respond: (r: JoinGroupResponse) => void,
  ): void {
    const old = group.members.get(oldMemberId) as ClassicGroupMember;
    // Whatever the old incarnation was waiting for, it is fenced now.
    old.awaitingJoin?.(joinError('FENCED_INSTANCE_ID', oldMemberId));
    old.awaitingSync?.({ ...syncError('FENCED_INSTANCE_ID') });
    this.ctx.timer.cancel(heartbeatKey(group.groupId, oldMemberId));
    const member = group.replaceStaticMember(req.groupInstanceId as string, oldMemberId, newMemberId);
    this.ctx.emit({
      type: 'groupMemberReplaced',
      groupId: group.groupId,
      oldMemberId,
      newMemberId,
      groupInstanceId: req.groupInstanceId as string,
      atMs: this.ctx.now(),
    });
    if (group.is('Stable') && member.matches(req.protocols)) {
      // No rebalance: persist the new member id, then hand back the current generation.
      // KIP-814: a returning leader gets the member list but is told to skip the assignment.
      member.rebalanceTimeoutMs = req.rebalanceTimeoutMs;
      member.sessionTimeoutMs = req.sessionTimeoutMs;
      this.scheduleHeartbeatExpiration(group, member);
      const generationId = group.generationId;
      this.ctx.append([this.groupMetadataRecord(group)], (error) => {
        if (error) {
          respond(joinError(coordinatorWriteError(error), UNKNOWN_MEMBER_ID));
          return;
        }
        const isLeader = group.isLeader(newMemberId);
        const response = this.joinResponse(group, newMemberId, isLeader);
        respond({ ...response, generationId, skipAssignment: isLeader });
      });
      return;
    }
    this.updateMemberAndRebalance(group, member, req, respond);
  }

  // ------------------------------------------------------------------ the join phase

  private prepareRebalance(group: ClassicGroup, reason: string): void {
    if (group.is('CompletingRebalance')) this.resetAndPropagateAssignmentError(group, 'REBALANCE_IN_PROGRESS');
    this.ctx.timer.cancel(syncKey(group.groupId));
    const from = group.state;
    const wasEmpty = group.is('Empty');
    group.transitionTo('PreparingRebalance', this.ctx.now());
    emitGroupState(this.ctx, group, from, reason);
    const rebalanceTimeout = group.rebalanceTimeoutMs();
    if (wasEmpty) {
      // InitialDelayedJoin: wait for more members before the first generation.
      const delay = this.ctx.config['group.initial.rebalance.delay.ms'];
      group.newMemberAdded = false;
      group.initialJoinDelayActive = true;
      this.scheduleInitialJoin(group, delay, Math.max(rebalanceTimeout - delay, 0));
    } else {
      this.ctx.timer.schedule(joinKey(group.groupId), rebalanceTimeout, () => this.completeJoin(group));
      this.maybeCompleteJoin(group);
    }
  }

  private scheduleInitialJoin(group: ClassicGroup, delayMs: number, remainingMs: number): void {
    const initial = this.ctx.config['group.initial.rebalance.delay.ms'];
    this.ctx.timer.schedule(joinKey(group.groupId), delayMs, () => {
      if (group.newMemberAdded && remainingMs > 0) {
        group.newMemberAdded = false;
        this.scheduleInitialJoin(group, Math.min(initial, remainingMs), Math.max(remainingMs - initial, 0));
      } else {
        this.completeJoin(group);
      }
    });
  }

  /** DelayedJoin.tryComplete: the join phase ends early once every member has rejoined. */
  private maybeCompleteJoin(group: ClassicGroup): void {
    if (!group.is('PreparingRebalance')) return;
    // InitialDelayedJoin never completes early: an Empty group waits out the delay in full.
    if (group.initialJoinDelayActive) return;
    if (group.hasAllMembersJoined()) this.completeJoin(group);
  }

  private completeJoin(group: ClassicGroup): void {
    if (!group.is('PreparingRebalance')) return;
    this.ctx.timer.cancel(joinKey(group.groupId));
    group.initialJoinDelayActive = false;
    // GroupCoordinator.onCompleteJoin: only dynamic members that did not rejoin are removed; a
    // static member keeps its place (KIP-345) until its session times out.
    for (const member of group.notYetRejoinedMembers()) {
      if (member.groupInstanceId === null)
        this.removeMember(group, member, 'did not rejoin within the rebalance timeout');
    }
    // Pending member ids stay: they leave by their own expiry or a LeaveGroup, and one that joins
    // later is still accepted.
    if (group.size > 0 && !group.maybeElectNewJoinedLeader()) {
      // No one rejoined: wait another rebalance timeout (a DelayedJoin) for a member to rejoin
      // or for session timeouts to remove the silent ones.
      this.ctx.timer.schedule(joinKey(group.groupId), group.rebalanceTimeoutMs(), () => this.completeJoin(group));
      return;
    }
    const from = group.state;
    group.initNextGeneration(this.ctx.now());
    emitGroupState(
      this.ctx,
      group,
      from,
      group.size > 0 ? `join phase complete: generation ${group.generationId}` : 'no members left',
    );
    if (group.is('Empty')) {
      this.ctx.append([this.groupMetadataRecord(group)], () => {});
      emitGroupGeneration(this.ctx, group);
      return;
    }
    for (const member of group.allMemberMetadata()) {
      const respond = member.awaitingJoin;
      member.awaitingJoin = null;
      member.isNew = false;
      respond?.(this.joinResponse(group, member.memberId));
      this.scheduleHeartbeatExpiration(group, member);
    }
    // Members that never SyncGroup are removed after the rebalance timeout (KAFKA-13563 era behaviour).
    const generationId = group.generationId;
    this.ctx.timer.schedule(syncKey(group.groupId), group.rebalanceTimeoutMs(), () => {
      if (group.generationId !== generationId || !(group.is('CompletingRebalance') || group.is('Stable'))) return;
      const laggards = [...group.pendingSyncMembers];
      if (laggards.length === 0) return;
      for (const id of laggards) {
        const m = group.members.get(id);
        if (m) this.removeMember(group, m, 'did not SyncGroup within the rebalance timeout');
      }
      this.afterMemberRemoved(group, 'members did not sync');
    });
  }

  private joinResponse(group: ClassicGroup, memberId: string, includeMembers = true): JoinGroupResponse {
    const protocol = group.protocolName;
    const isLeader = group.isLeader(memberId);
    return {
      api: 'JoinGroup',
      errorCode: 'NONE',
      generationId: group.generationId,
      protocolType: group.protocolType,
      protocolName: protocol,
      leader: group.leaderId ?? '',
      skipAssignment: false,
      memberId,
      members:
        isLeader && includeMembers && protocol !== null
          ? group.allMemberMetadata().map((m) => ({
              memberId: m.memberId,
              groupInstanceId: m.groupInstanceId,
              metadata: m.metadata(protocol),
            }))
          : [],
    };
  }

  // ------------------------------------------------------------------ SyncGroup

  syncGroup(req: SyncGroupRequest, respond: (r: SyncGroupResponse) => void): void {
    const group = this.groups.get(req.groupId);
    if (!group || group.is('Dead')) {
      respond(syncError(group ? 'COORDINATOR_NOT_AVAILABLE' : 'UNKNOWN_MEMBER_ID'));
      return;
    }
    // GroupCoordinator.validateSyncGroup: the instance id before the member id.
    const invalid = group.validateCurrentMember(req.memberId, req.groupInstanceId);
    if (invalid) {
      respond(syncError(invalid));
      return;
    }
    const member = group.members.get(req.memberId) as ClassicGroupMember;
    if (req.generationId !== group.generationId) {
      respond(syncError('ILLEGAL_GENERATION'));
      return;
    }
    if (
      (req.protocolType !== null && req.protocolType !== group.protocolType) ||
      (req.protocolName !== null && req.protocolName !== group.protocolName)
    ) {
      respond(syncError('INCONSISTENT_GROUP_PROTOCOL'));
      return;
    }
    switch (group.state) {
      case 'Empty': {
        respond(syncError('UNKNOWN_MEMBER_ID'));
        return;
      }
      case 'PreparingRebalance': {
        respond(syncError('REBALANCE_IN_PROGRESS'));
        return;
      }
      case 'CompletingRebalance': {
        member.awaitingSync = respond;
        this.heard(group, member);
        this.removePendingSync(group, member.memberId);
        if (!group.isLeader(member.memberId)) return;
        // The leader's assignment: persist it first, then give each member its share.
        const assignments = new Map(req.assignments.map((a) => [a.memberId, a.assignment]));
        const generationId = group.generationId;
        const record = this.groupMetadataRecord(group, assignments);
        this.ctx.append([record], (error) => {
          if (!group.is('CompletingRebalance') || group.generationId !== generationId) return;
          if (error) {
            this.resetAndPropagateAssignmentError(group, coordinatorWriteError(error));
            this.prepareRebalance(group, `writing the assignment failed: ${error}`);
            return;
          }
          for (const m of group.allMemberMetadata()) {
            m.assignment = assignments.get(m.memberId) ?? new Uint8Array(0);
            const cb = m.awaitingSync;
            m.awaitingSync = null;
            cb?.(this.syncResponse(group, m));
          }
          const from = group.state;
          group.transitionTo('Stable', this.ctx.now());
          emitGroupState(this.ctx, group, from, `leader ${member.memberId} sent the assignment`);
          emitGroupGeneration(this.ctx, group);
        });
        return;
      }
      case 'Stable':
        this.heard(group, member);
        this.removePendingSync(group, member.memberId);
        respond(this.syncResponse(group, member));
        return;
      default:
        respond(syncError('UNKNOWN_MEMBER_ID'));
    }
  }

  private syncResponse(group: ClassicGroup, member: ClassicGroupMember): SyncGroupResponse {
    return {
      api: 'SyncGroup',
      errorCode: 'NONE',
      protocolType: group.protocolType,
      protocolName: group.protocolName,
      assignment: member.assignment,
    };
  }

  private removePendingSync(group: ClassicGroup, memberId: string): void {
    group.pendingSyncMembers.delete(memberId);
    if (group.pendingSyncMembers.size === 0) this.ctx.timer.cancel(syncKey(group.groupId));
  }

  private resetAndPropagateAssignmentError(group: ClassicGroup, error: GroupErrorCode): void {
    for (const m of group.allMemberMetadata()) {
      m.assignment = new Uint8Array(0);
      const cb = m.awaitingSync;
      m.awaitingSync = null;
      cb?.(syncError(error));
    }
  }

  // ------------------------------------------------------------------ Heartbeat

  heartbeat(req: HeartbeatRequest, respond: (r: HeartbeatResponse) => void): void {
    const reply = (errorCode: GroupErrorCode) => respond({ api: 'Heartbeat', errorCode });
    const group = this.groups.get(req.groupId);
    if (!group) {
      reply('UNKNOWN_MEMBER_ID');
      return;
    }
    if (group.is('Dead')) {
      reply('COORDINATOR_NOT_AVAILABLE');
      return;
    }
    // GroupCoordinator.validateHeartbeat: the instance id before the member id, then the generation.
    const invalid = group.validateCurrentMember(req.memberId, req.groupInstanceId);
    if (invalid) {
      reply(invalid);
      return;
    }
    if (req.generationId !== group.generationId) {
      reply('ILLEGAL_GENERATION');
      return;
    }
    const member = group.members.get(req.memberId);
    if (group.is('Empty') || !member) {
      reply('UNKNOWN_MEMBER_ID');
      return;
    }
    this.heard(group, member);
    // During the join phase the heartbeat is how a member learns it must rejoin.
    reply(group.is('PreparingRebalance') ? 'REBALANCE_IN_PROGRESS' : 'NONE');
  }

  // ------------------------------------------------------------------ LeaveGroup

  leaveGroup(req: LeaveGroupRequest, respond: (r: LeaveGroupResponse) => void): void {
    const group = this.groups.get(req.groupId);
    if (!group) {
      respond({ api: 'LeaveGroup', errorCode: 'UNKNOWN_MEMBER_ID', members: [] });
      return;
    }
    if (group.is('Dead')) {
      respond({ api: 'LeaveGroup', errorCode: 'COORDINATOR_NOT_AVAILABLE', members: [] });
      return;
    }
    const results: LeaveGroupResponse['members'] = [];
    let removed = 0;
    for (const leaving of req.members) {
      let memberId = leaving.memberId;
      let errorCode: GroupErrorCode = 'NONE';
      if (leaving.groupInstanceId !== null) {
        const current = group.staticMemberId(leaving.groupInstanceId);
        if (current === undefined) errorCode = 'UNKNOWN_MEMBER_ID';
        else if (memberId !== UNKNOWN_MEMBER_ID && memberId !== current) errorCode = 'FENCED_INSTANCE_ID';
        else memberId = current;
      }
      if (errorCode === 'NONE') {
        if (group.pendingMembers.delete(memberId)) {
          this.ctx.timer.cancel(heartbeatKey(group.groupId, memberId));
        } else {
          const member = group.members.get(memberId);
          if (!member) errorCode = 'UNKNOWN_MEMBER_ID';
          else {
            this.removeMember(group, member, leaving.reason ?? 'LeaveGroup');
            removed++;
          }
        }
      }
      results.push({ memberId, groupInstanceId: leaving.groupInstanceId, errorCode });
    }
    if (removed > 0) this.afterMemberRemoved(group, 'member left the group (LeaveGroup)');
    else this.maybeCompleteJoin(group);
    respond({ api: 'LeaveGroup', errorCode: 'NONE', members: results });
  }

  // ------------------------------------------------------------------ membership upkeep

  private heard(group: ClassicGroup, member: ClassicGroupMember): void {
    member.lastHeartbeatMs = this.ctx.now();
    this.scheduleHeartbeatExpiration(group, member);
  }

  private scheduleHeartbeatExpiration(
    group: ClassicGroup,
    member: ClassicGroupMember,
    timeoutMs = member.sessionTimeoutMs,
  ): void {
    const memberId = member.memberId;
    this.ctx.timer.schedule(heartbeatKey(group.groupId, memberId), timeoutMs, () => {
      const m = group.members.get(memberId);
      if (!m || m !== member) return;
      // A member parked in a join or sync is alive by definition; its timer restarts on the answer.
      if (m.isAwaitingJoin || m.isAwaitingSync) {
        this.scheduleHeartbeatExpiration(group, m);
        return;
      }
      this.removeMember(group, m, `session timeout (${m.sessionTimeoutMs} ms without a heartbeat)`);
      this.afterMemberRemoved(group, `member ${memberId} session expired`);
    });
  }

  private removeMember(group: ClassicGroup, member: ClassicGroupMember, reason: string): void {
    this.failMember(group, member, 'UNKNOWN_MEMBER_ID');
    group.remove(member.memberId);
    this.ctx.emit({
      type: 'groupMemberRemoved',
      groupId: group.groupId,
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      reason,
      atMs: this.ctx.now(),
    });
  }

  private afterMemberRemoved(group: ClassicGroup, reason: string): void {
    if (group.is('Stable') || group.is('CompletingRebalance')) this.prepareRebalance(group, reason);
    else if (group.is('PreparingRebalance')) this.maybeCompleteJoin(group);
  }

  // ------------------------------------------------------------------ records

  groupMetadataRecord(group: ClassicGroup, assignments?: Map<string, Uint8Array>): OffsetsRecord {
    return groupMetadataRecord(group, assignments);
  }

  /**
   * Rebuilds a group from its GroupMetadata record, as a new coordinator does while loading the
   * partition (see loadGroup). Members must heartbeat the new coordinator within their session
   * timeout to stay.
   */
  replayGroupMetadata(groupId: string, value: GroupMetadataValue | null): void {
    const existing = this.groups.get(groupId);
    if (existing) this.unloadGroup(existing);
    if (value === null) {
      this.groups.delete(groupId);
      return;
    }
    this.groups.set(groupId, loadGroup(groupId, value, this.ctx.now()));
  }

  /** After loading: every loaded member gets a fresh session timer on this coordinator. */
  onLoaded(): void {
    for (const group of this.groups.values()) {
      for (const member of group.allMemberMetadata()) this.scheduleHeartbeatExpiration(group, member);
    }
  }

  /** The partition moved away: every parked request learns this broker is no longer coordinator. */
  onUnloaded(): void {
    for (const group of this.groups.values()) {
      this.unloadGroup(group);
      this.markDead(group, `__consumer_offsets-${this.ctx.offsetsPartition} moved away: the group is unloaded here`);
    }
    this.groups.clear();
  }

  /** Dead: the group is gone from this coordinator (unloaded, deleted, or expired). */
  markDead(group: ClassicGroup, reason: string): void {
    if (group.is('Dead')) return;
    const from = group.state;
    group.transitionTo('Dead', this.ctx.now());
    emitGroupState(this.ctx, group, from, reason);
  }

  private unloadGroup(group: ClassicGroup): void {
    this.ctx.timer.cancel(joinKey(group.groupId));
    this.ctx.timer.cancel(syncKey(group.groupId));
    for (const m of group.allMemberMetadata()) this.failMember(group, m, 'NOT_COORDINATOR');
    for (const id of group.pendingMembers) this.ctx.timer.cancel(heartbeatKey(group.groupId, id));
  }

  /** Stops a member's heartbeat timer and answers its parked JoinGroup / SyncGroup with `error`. */
  private failMember(group: ClassicGroup, member: ClassicGroupMember, error: GroupErrorCode): void {
    this.ctx.timer.cancel(heartbeatKey(group.groupId, member.memberId));
    const join = member.awaitingJoin;
    member.awaitingJoin = null;
    join?.(joinError(error, member.memberId));
    const sync = member.awaitingSync;
    member.awaitingSync = null;
    sync?.(syncError(error));
  }
}

const joinKey = (groupId: string) => `join-${groupId}`;
const syncKey = (groupId: string) => `sync-${groupId}`;
const heartbeatKey = (groupId: string, memberId: string) => `heartbeat-${groupId}-${memberId}`;
