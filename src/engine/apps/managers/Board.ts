/**
 * The board: which consumer groups the page shows, each group's settings, and which consumers sit
 * in which group or are stopped. The consumers are the engine's consumer applications; this keeps
 * only who exists and where, and starts, moves and stops them the way an operator restarts client
 * processes with new properties. Refusals are Kafka's error names and change nothing.
 */
import { type CrashReport, type Engine, KafkaError } from '../../index';
import { DEMO_CONSUMER_CONFIG } from '../demoConfig';
import type { AssignorName, CommitMode, GroupProtocol } from '../types';

/** How often a running consumer's application calls poll(). */
const POLL_EVERY_MS = 200;

export interface GroupSettings {
  assignor: AssignorName;
  protocol: GroupProtocol;
  commitMode: CommitMode;
  /** Its consumers set group.instance.id to their name (static members). */
  staticMembership: boolean;
}

export interface ConsumerEntry {
  name: string;
  /** The group it sits in on the board; null when stopped (in no group). */
  group: string | null;
}

/** What the views read of the board. */
export interface BoardRead {
  readonly groups: ReadonlyMap<string, Readonly<GroupSettings>>;
  readonly consumers: ReadonlyMap<string, Readonly<ConsumerEntry>>;
  /** Whether the consumer's application is running now. */
  running(name: string): boolean;
}

export class Board implements BoardRead {
  readonly groups = new Map<string, GroupSettings>();
  readonly consumers = new Map<string, ConsumerEntry>();
  private nextConsumer = 1;

  constructor(
    private readonly engine: Engine,
    /** What the board's groups subscribe to (ClusterApps.groupTopics). */
    private readonly topics: () => string[],
  ) {}

  running(name: string): boolean {
    return this.engine.consumerApps.apps.get(name)?.status === 'running';
  }

  addGroup(group: string, assignor: AssignorName): void {
    if (this.groups.has(group)) throw new KafkaError('INVALID_REQUEST', `Group ${group} is already on the board.`);
    if (!/^[a-zA-Z0-9._-]{1,64}$/.test(group))
      throw new KafkaError('INVALID_GROUP_ID', `Group id "${group}" must be 1-64 of [a-zA-Z0-9._-].`);
    this.engine.consumerApps.setGroupAssignor(group, assignor);
    this.groups.set(group, { assignor, protocol: 'coordinator', commitMode: 'auto', staticMembership: false });
  }

  removeGroup(group: string): void {
    this.requireGroup(group);
    for (const e of this.consumers.values()) {
      if (e.group !== group) continue;
      this.stopConsumer(e);
      e.group = null;
    }
    this.groups.delete(group);
  }

  /** partition.assignment.strategy is a consumer setting: the group's members restart with it. */
  setAssignor(group: string, assignor: AssignorName): void {
    this.changeGroup(group, 'assignor', assignor, () => this.engine.consumerApps.setGroupAssignor(group, assignor));
  }

  /** When to commit is application code: the group's applications restart with it. */
  setCommitMode(group: string, mode: CommitMode): void {
    this.changeGroup(group, 'commitMode', mode, () => this.engine.consumerApps.setGroupCommitMode(group, mode));
  }

  /** group.instance.id is a consumer setting: the group's running consumers restart with it. */
  setStaticMembership(group: string, enabled: boolean): void {
    this.changeGroup(group, 'staticMembership', enabled, () => {
      for (const e of this.consumers.values()) {
        if (e.group !== group || !this.running(e.name)) continue;
        this.stopConsumer(e);
        this.startConsumerWith(e, enabled);
      }
    });
  }

  setProtocol(group: string, protocol: GroupProtocol): void {
    this.changeGroup(group, 'protocol', protocol, () => this.engine.consumerApps.setGroupProtocol(group, protocol));
  }

  addConsumer(group: string, named: string | undefined): void {
    this.requireGroup(group);
    const name = named ?? this.freshName();
    if (this.consumers.has(name)) throw new KafkaError('INVALID_REQUEST', `Consumer ${name} already exists.`);
    if (!/^[a-zA-Z0-9._-]{1,32}$/.test(name) || name.startsWith('broker-'))
      throw new KafkaError('INVALID_REQUEST', `Consumer name "${name}" must be 1-32 of [a-zA-Z0-9._-].`);
    const entry: ConsumerEntry = { name, group };
    this.startConsumer(entry);
    this.consumers.set(name, entry);
  }

  /** Moves a consumer to another group (null: out of every group, stopped). */
  moveConsumer(name: string, group: string | null): void {
    const e = this.requireConsumer(name);
    if (group !== null) this.requireGroup(group);
    const running = this.running(e.name);
    if (e.group === group && running) return;
    if (group === null) this.stopConsumer(e);
    else if (running) this.engine.consumerApps.move(e.name, group);
    else {
      e.group = group;
      this.startConsumer(e);
    }
    e.group = group;
  }

  removeConsumer(name: string): void {
    const e = this.requireConsumer(name);
    this.stopConsumer(e);
    this.consumers.delete(name);
  }

  /** The consumer's process dies: no LeaveGroup, no more heartbeats. Returns the engine's report. */
  crashConsumer(name: string): CrashReport | null {
    const e = this.requireConsumer(name);
    if (!this.running(e.name)) throw new KafkaError('INVALID_REQUEST', `Consumer ${name} is not running.`);
    return this.engine.consumerApps.crash(e.name);
  }

  private freshName(): string {
    while (this.consumers.has(`c${this.nextConsumer}`)) this.nextConsumer++;
    return `c${this.nextConsumer++}`;
  }

  /** Changes one setting of a group, applying it to its applications first; the same value does nothing. */
  private changeGroup<K extends keyof GroupSettings>(
    group: string,
    key: K,
    value: GroupSettings[K],
    apply: () => void,
  ): void {
    const g = this.requireGroup(group);
    if (g[key] === value) return;
    apply();
    g[key] = value;
  }

  private requireGroup(group: string): GroupSettings {
    const g = this.groups.get(group);
    if (!g) throw new KafkaError('GROUP_ID_NOT_FOUND', `No group ${group} on the board.`);
    return g;
  }

  private requireConsumer(name: string): ConsumerEntry {
    const e = this.consumers.get(name);
    if (!e) throw new KafkaError('INVALID_REQUEST', `No consumer ${name}.`);
    return e;
  }

  private stopConsumer(e: ConsumerEntry): void {
    if (this.running(e.name)) this.engine.consumerApps.close(e.name);
  }

  /** A consumer application in its group: subscribes to the board's topic and polls in a loop. */
  private startConsumer(e: ConsumerEntry): void {
    if (e.group === null) return;
    this.startConsumerWith(e, this.groups.get(e.group)?.staticMembership ?? false);
  }

  private startConsumerWith(e: ConsumerEntry, staticMember: boolean): void {
    if (e.group === null) return;
    this.engine.apply({
      op: 'createConsumer',
      consumerId: e.name,
      groupId: e.group,
      config: { ...DEMO_CONSUMER_CONFIG, ...(staticMember ? { 'group.instance.id': e.name } : {}) },
      topics: this.topics(),
      pollIntervalMs: POLL_EVERY_MS,
    });
  }
}
