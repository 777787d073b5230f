import type {
  DescribedGroup,
  JoinGroupRequestProtocol,
  JoinGroupResponse,
  ListGroupsResponse,
  SyncGroupResponse,
} from '../../clients/consumer/groupProtocol';
import { decodeSubscription } from '../../clients/consumer/offsetsSchema';
import { ScalaHashMapOrder, scalaImmutableHashMapOrder } from './ScalaHashMapOrder';

/**
 * A consumer group under the classic rebalance protocol, as the coordinator holds it
 * (group-coordinator/.../classic/ClassicGroup.java, formerly core's GroupMetadata.scala).
 *
 * States and the only transitions allowed (ClassicGroupState.java):
 *   Empty               <- PreparingRebalance
 *   PreparingRebalance  <- Stable, CompletingRebalance, Empty
 *   CompletingRebalance <- PreparingRebalance
 *   Stable              <- CompletingRebalance
 *   Dead                <- any state
 * Invariants: the generation id changes only when a join phase completes (initNextGeneration);
 * the leader is a member (or null when the group is empty); a static member's instance id maps
 * to exactly one live member id; during CompletingRebalance every member has a join response
 * and waits for its assignment.
 */
export type ClassicGroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

const VALID_PREVIOUS_STATES: Readonly<Record<ClassicGroupState, readonly ClassicGroupState[]>> = {
  Empty: ['PreparingRebalance'],
  PreparingRebalance: ['Stable', 'CompletingRebalance', 'Empty'],
  CompletingRebalance: ['PreparingRebalance'],
  Stable: ['CompletingRebalance'],
  Dead: ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead'],
};

export class ClassicGroupMember {
  /** Set while the member's JoinGroup waits for the join phase to complete. */
  awaitingJoin: ((response: JoinGroupResponse) => void) | null = null;
  /** Set while the member's SyncGroup waits for the leader's assignment to be written. */
  awaitingSync: ((response: SyncGroupResponse) => void) | null = null;
  /** ConsumerProtocolAssignment bytes of the current generation. */
  assignment: Uint8Array = new Uint8Array(0);
  /** A member that has never completed a join (KIP-394 new member join timeout applies). */
  isNew = false;
  /** Last time the coordinator heard from it (join, sync or heartbeat), for the UI. */
  lastHeartbeatMs = 0;

  constructor(
    public memberId: string,
    readonly groupInstanceId: string | null,
    readonly clientId: string,
    readonly clientHost: string,
    public rebalanceTimeoutMs: number,
    public sessionTimeoutMs: number,
    public protocolType: string,
    public supportedProtocols: JoinGroupRequestProtocol[],
  ) {}

  get isAwaitingJoin(): boolean {
    return this.awaitingJoin !== null;
  }

  get isAwaitingSync(): boolean {
    return this.awaitingSync !== null;
  }

  /** The member's subscription bytes for a protocol it supports. */
  metadata(protocol: string): Uint8Array {
    const p = this.supportedProtocols.find((x) => x.name === protocol);
    if (!p) throw new Error(`member ${this.memberId} does not support protocol ${protocol}`);
    return p.metadata;
  }

  /** Same protocols, same order, same bytes: a rejoin that changes nothing the leader cares about. */
  matches(protocols: readonly JoinGroupRequestProtocol[]): boolean {
    if (protocols.length !== this.supportedProtocols.length) return false;
    return protocols.every((p, i) => {
      const mine = this.supportedProtocols[i];
      return mine !== undefined && mine.name === p.name && bytesEqual(mine.metadata, p.metadata);
    });
  }
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class ClassicGroup {
  state: ClassicGroupState;
  previousState: ClassicGroupState | null = null;
  generationId = 0;
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  currentStateTimestamp: number;
  /**
   * The members by id. Kafka 3.9's ZooKeeper-mode GroupMetadata keeps them in a Scala
   * mutable.HashMap, and whatever it lists or picks "the first" of (the member lists of
   * DescribeGroups, JoinGroup and the GroupMetadata record, a new leader, the protocol votes) it
   * walks that map's order: `memberOrder` reproduces it (allMemberMetadata); the Map's own
   * insertion order means nothing to Kafka.
   */
  readonly members = new Map<string, ClassicGroupMember>();
  private readonly memberOrder = new ScalaHashMapOrder();
  readonly staticMembers = new Map<string, string>();
  /** Member ids handed out with MEMBER_ID_REQUIRED, not yet joined (KIP-394). */
  readonly pendingMembers = new Set<string>();
  /** Members that got a join response of this generation but have not synced yet. */
  readonly pendingSyncMembers = new Set<string>();
  /** A member joined during group.initial.rebalance.delay.ms, so the delay is extended. */
  newMemberAdded = false;
  /** The join phase of an Empty group is an InitialDelayedJoin, which never completes early. */
  initialJoinDelayActive = false;
  /**
   * GroupMetadata.subscribedTopics: for a `consumer` group, the union of the members'
   * subscriptions, computed when a generation starts or the group is loaded; null when unknown
   * (not a consumer group, no protocol yet, or a subscription that does not parse).
   */
  subscribedTopics: ReadonlySet<string> | null = null;

  constructor(
    readonly groupId: string,
    initialState: ClassicGroupState,
    nowMs: number,
  ) {
    this.state = initialState;
    this.currentStateTimestamp = nowMs;
  }

  is(state: ClassicGroupState): boolean {
    return this.state === state;
  }

  transitionTo(target: ClassicGroupState, nowMs: number): void {
    if (!VALID_PREVIOUS_STATES[target].includes(this.state)) {
      throw new Error(`group ${this.groupId}: illegal transition ${this.state} -> ${target}`);
    }
    this.previousState = this.state;
    this.state = target;
    this.currentStateTimestamp = nowMs;
  }

  canRebalance(): boolean {
    return VALID_PREVIOUS_STATES.PreparingRebalance.includes(this.state);
  }

  get size(): number {
    return this.members.size;
  }

  /** GroupMetadata.numAwaiting: the members whose JoinGroup waits for the join phase to end. */
  get numAwaiting(): number {
    let n = 0;
    for (const m of this.members.values()) if (m.isAwaitingJoin) n++;
    return n;
  }

  /**
   * GroupMetadata.summary, what DescribeGroups answers: the chosen protocol and each member's
   * subscription and assignment only while Stable (in other states they may be mid-change).
   */
  summary(): DescribedGroup {
    const stable = this.is('Stable') && this.protocolName !== null;
    const empty = new Uint8Array(0);
    return {
      groupId: this.groupId,
      errorCode: 'NONE',
      groupState: this.state,
      protocolType: this.protocolType ?? '',
      protocolData: stable ? (this.protocolName as string) : '',
      members: this.allMemberMetadata().map((m) => ({
        memberId: m.memberId,
        groupInstanceId: m.groupInstanceId,
        clientId: m.clientId,
        clientHost: m.clientHost,
        memberMetadata: stable ? m.metadata(this.protocolName as string) : empty,
        memberAssignment: stable ? m.assignment : empty,
      })),
    };
  }

  /** GroupMetadata.overview, one row of ListGroups. */
  overview(): ListGroupsResponse['groups'][number] {
    return { groupId: this.groupId, protocolType: this.protocolType ?? '', groupState: this.state };
  }

  isLeader(memberId: string): boolean {
    return this.leaderId === memberId;
  }

  add(member: ClassicGroupMember): void {
    if (this.members.size === 0) this.protocolType = member.protocolType;
    this.memberOrder.put(member.memberId);
    this.members.set(member.memberId, member);
    if (member.groupInstanceId !== null) this.staticMembers.set(member.groupInstanceId, member.memberId);
    if (this.leaderId === null) this.leaderId = member.memberId;
  }

  remove(memberId: string): ClassicGroupMember | undefined {
    const member = this.members.get(memberId);
    if (!member) return undefined;
    this.members.delete(memberId);
    this.memberOrder.remove(memberId);
    this.pendingSyncMembers.delete(memberId);
    if (member.groupInstanceId !== null && this.staticMembers.get(member.groupInstanceId) === memberId) {
      this.staticMembers.delete(member.groupInstanceId);
    }
    // GroupMetadata.remove: the leader's successor is `members.keys.headOption`, in hash order.
    if (this.leaderId === memberId) this.leaderId = this.allMemberMetadata()[0]?.memberId ?? null;
    return member;
  }

  /** The members as Kafka's GroupMetadata iterates them (allMemberMetadata: Scala 2.13 mutable.HashMap order). */
  allMemberMetadata(): ClassicGroupMember[] {
    return this.memberOrder.keys().map((id) => this.members.get(id) as ClassicGroupMember);
  }

  /**
   * GroupMetadata.maybeElectNewJoinedLeader: when the join phase ends and the leader has not
   * rejoined, the first member (in hash order) that did rejoin leads instead. False when no one
   * rejoined (or the group has no leader): the join phase cannot complete yet.
   */
  maybeElectNewJoinedLeader(): boolean {
    if (this.leaderId === null) return false;
    const leader = this.members.get(this.leaderId);
    if (leader?.isAwaitingJoin) return true;
    const joined = this.allMemberMetadata().find((m) => m.isAwaitingJoin);
    if (!joined) return false;
    this.leaderId = joined.memberId;
    return true;
  }

  /**
   * Which error a request naming (memberId, groupInstanceId) gets, if any: Kafka 3.9
   * GroupCoordinator.validateCurrentMember (ClassicGroup.validateMember in the new coordinator).
   * The instance id is checked first, so a replaced static member's old id is FENCED_INSTANCE_ID,
   * never UNKNOWN_MEMBER_ID (which would send it to rejoin and replace its replacement in turn).
   */
  validateCurrentMember(
    memberId: string,
    groupInstanceId: string | null,
  ): 'FENCED_INSTANCE_ID' | 'UNKNOWN_MEMBER_ID' | null {
    if (groupInstanceId !== null) {
      const current = this.staticMembers.get(groupInstanceId);
      if (current === undefined) return 'UNKNOWN_MEMBER_ID';
      return current === memberId ? null : 'FENCED_INSTANCE_ID';
    }
    return this.members.has(memberId) ? null : 'UNKNOWN_MEMBER_ID';
  }

  /**
   * GroupMetadata.computeSubscribedTopics: the topics a `consumer` group's members subscribe to
   * (each subscription read with the version-0 prefix all versions share); empty for a consumer
   * group with no members; null when unknown.
   */
  computeSubscribedTopics(): ReadonlySet<string> | null {
    if (this.protocolType !== 'consumer') return null;
    if (this.members.size === 0) return new Set();
    const protocol = this.protocolName;
    if (protocol === null) return null;
    const topics = new Set<string>();
    try {
      for (const m of this.members.values())
        for (const t of decodeSubscription(m.metadata(protocol)).topics) topics.add(t);
    } catch {
      return null;
    }
    return topics;
  }

  /** GroupMetadata.isSubscribedToTopic: when the group does not know, it counts as subscribed. */
  isSubscribedToTopic(topic: string): boolean {
    return this.subscribedTopics === null || this.subscribedTopics.has(topic);
  }

  /** A restarted static member takes over its old member id's place, assignment and leadership. */
  replaceStaticMember(groupInstanceId: string, oldMemberId: string, newMemberId: string): ClassicGroupMember {
    const old = this.members.get(oldMemberId);
    if (!old) throw new Error(`no static member ${oldMemberId}`);
    const replaced = new ClassicGroupMember(
      newMemberId,
      groupInstanceId,
      old.clientId,
      old.clientHost,
      old.rebalanceTimeoutMs,
      old.sessionTimeoutMs,
      old.protocolType,
      old.supportedProtocols,
    );
    replaced.assignment = old.assignment;
    // GroupMetadata.replaceStaticMember: remove the old id, put the new one (its own hash slot).
    this.members.delete(oldMemberId);
    this.memberOrder.remove(oldMemberId);
    this.memberOrder.put(newMemberId);
    this.members.set(newMemberId, replaced);
    this.staticMembers.set(groupInstanceId, newMemberId);
    if (this.leaderId === oldMemberId) this.leaderId = newMemberId;
    if (this.pendingSyncMembers.delete(oldMemberId)) this.pendingSyncMembers.add(newMemberId);
    return replaced;
  }

  staticMemberId(groupInstanceId: string): string | undefined {
    return this.staticMembers.get(groupInstanceId);
  }

  /** The largest rebalance timeout among members: how long a join phase may wait. */
  rebalanceTimeoutMs(): number {
    let max = 0;
    for (const m of this.members.values()) max = Math.max(max, m.rebalanceTimeoutMs);
    return max;
  }

  /** Every member has rejoined (and no one handed a member id is still on the way). */
  hasAllMembersJoined(): boolean {
    for (const m of this.members.values()) if (!m.isAwaitingJoin) return false;
    return this.pendingMembers.size === 0;
  }

  notYetRejoinedMembers(): ClassicGroupMember[] {
    return [...this.members.values()].filter((m) => !m.isAwaitingJoin);
  }

  /** Protocols every member supports, in the order of the first member's preference. */
  candidateProtocols(): string[] {
    const all = [...this.members.values()];
    const first = all[0];
    if (!first) return [];
    return first.supportedProtocols
      .map((p) => p.name)
      .filter((name) => all.every((m) => m.supportedProtocols.some((p) => p.name === name)));
  }

  /**
   * GroupMetadata.selectProtocol: among the protocols all members support, each member votes for
   * the first one in its own preference list; most votes wins. The votes are grouped by
   * `groupBy`, an immutable.HashMap, and `maxBy` keeps the first maximum in that map's order, so
   * a tie goes to the protocol first in Scala's immutable HashMap order of the names voted for.
   */
  selectProtocol(): string {
    const candidates = this.candidateProtocols();
    if (candidates.length === 0) throw new Error(`group ${this.groupId} has no common protocol`);
    const votes = new Map<string, number>();
    for (const m of this.allMemberMetadata()) {
      const vote = m.supportedProtocols.find((p) => candidates.includes(p.name));
      if (vote) votes.set(vote.name, (votes.get(vote.name) ?? 0) + 1);
    }
    let best: string | null = null;
    for (const name of scalaImmutableHashMapOrder([...votes.keys()]))
      if (best === null || (votes.get(name) as number) > (votes.get(best) as number)) best = name;
    return best ?? (candidates[0] as string);
  }

  /** Whether a joining member's protocols fit this group (INCONSISTENT_GROUP_PROTOCOL otherwise). */
  supportsProtocols(protocolType: string, protocols: readonly JoinGroupRequestProtocol[]): boolean {
    if (this.members.size === 0) return protocolType !== '' && protocols.length > 0;
    if (this.protocolType !== protocolType) return false;
    const candidates = new Set(this.candidateProtocols());
    return protocols.some((p) => candidates.has(p.name));
  }

  /** Called when a join phase completes: a new generation, or Empty if no one is left. */
  initNextGeneration(nowMs: number): void {
    this.generationId++;
    if (this.members.size > 0) {
      this.protocolName = this.selectProtocol();
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('CompletingRebalance', nowMs);
    } else {
      this.protocolName = null;
      this.subscribedTopics = this.computeSubscribedTopics();
      this.transitionTo('Empty', nowMs);
    }
    this.pendingSyncMembers.clear();
    for (const id of this.members.keys()) this.pendingSyncMembers.add(id);
  }
}
