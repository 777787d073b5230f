import type { CoordinationStore, WatchedEvent } from '../../cluster/CoordinationStore';
import type { Scheduler, TaskId } from '../../cluster/Scheduler';
import { isKafkaError, KafkaError } from '../../errors';
import type { Rng } from '../../Rng';
import type { TopicPartition } from './assignors/types';
import type { GroupEvent } from './groupEvents';
import type { ConsumerRecord, KafkaConsumer } from './KafkaConsumer';
import { sortPartitions, tpString } from './SubscriptionState';

/**
 * The high-level consumer of Kafka 0.8 (kafka.consumer.ZookeeperConsumerConnector), the one
 * seed 002 describes: there is no coordinator, every consumer rebalances itself through ZooKeeper.
 *
 *   /consumers/<group>/ids/<consumerId>              ephemeral: {version, subscription, pattern, timestamp}
 *   /consumers/<group>/owners/<topic>/<partition>    ephemeral: the owning consumer thread id
 *   /consumers/<group>/offsets/<topic>/<partition>   persistent: the committed offset
 *
 * Start-up: register under ids, watch /consumers/<group>/ids and /brokers/ids (and each
 * subscribed /brokers/topics/<t>), then rebalance. Any watch firing makes *every* member run
 * the same rebalance at about the same time (the herd effect):
 *   1. commit offsets and release the owner znodes it holds; stop fetching
 *   2. read all members and all partitions; range-assign per topic over the sorted consumer ids
 *   3. read the committed offsets of its partitions
 *   4. create the owner znodes; if one still exists (its previous owner has not released it
 *      yet) the attempt fails: delete what it created, back off rebalance.backoff.ms, retry,
 *      at most rebalance.max.retries times (then ConsumerRebalanceFailedException).
 * Each ZooKeeper round trip takes zkLatencyMs, and a watch is noticed after a small seeded delay,
 * so members that rebalance with different views of the group collide exactly as they did.
 */
export interface ZkConsumerConfig {
  'rebalance.max.retries': number;
  'rebalance.backoff.ms': number;
  'auto.commit.enable': boolean;
  'auto.commit.interval.ms': number;
  /** 0.8 names: smallest | largest. */
  'auto.offset.reset': 'smallest' | 'largest';
  'zookeeper.session.timeout.ms': number;
}

export const ZK_CONSUMER_DEFAULTS: ZkConsumerConfig = {
  'rebalance.max.retries': 4,
  'rebalance.backoff.ms': 2000,
  'auto.commit.enable': true,
  'auto.commit.interval.ms': 60_000,
  'auto.offset.reset': 'largest',
  'zookeeper.session.timeout.ms': 6000,
};

export type ZkRebalanceEvent = Extract<GroupEvent, { type: 'zkRebalance' }>;

export interface ZkConsumerDeps {
  store: CoordinationStore;
  scheduler: Scheduler;
  rng: Rng;
  emit(event: GroupEvent): void;
  /** A group-less consumer used as the fetch path (SimpleConsumer fetches in 0.8). */
  fetcher: KafkaConsumer;
  /** One ZooKeeper round trip. */
  zkLatencyMs: number;
  /** Upper bound of the seeded delay before a member notices a watch. */
  watchJitterMs: number;
}

const idsPath = (g: string) => `/consumers/${g}/ids`;
const ownerPath = (g: string, t: string, p: number) => `/consumers/${g}/owners/${t}/${p}`;
const offsetPath = (g: string, t: string, p: number) => `/consumers/${g}/offsets/${t}/${p}`;

export class ZookeeperConsumerConnector {
  readonly config: ZkConsumerConfig;
  state: 'starting' | 'rebalancing' | 'running' | 'failed' | 'closed' | 'crashed' = 'starting';
  sessionId = -1;
  /** Partitions this member owns (owner znodes created) and fetches. */
  owned: TopicPartition[] = [];
  rebalances = 0;
  private attempt = 0;
  private rebalanceRunning = false;
  private rebalancePending = false;
  private readonly tasks = new Set<TaskId>();
  private heartbeatTask: { cancel(): void } | null = null;
  private autoCommitTask: { cancel(): void } | null = null;

  constructor(
    private readonly deps: ZkConsumerDeps,
    readonly consumerId: string,
    readonly groupId: string,
    readonly topics: string[],
    overrides: Partial<ZkConsumerConfig> = {},
  ) {
    this.config = { ...ZK_CONSUMER_DEFAULTS, ...overrides };
    if (this.config['rebalance.max.retries'] < 1 || this.config['rebalance.backoff.ms'] < 0) {
      throw new KafkaError('INVALID_CONFIG', 'rebalance.max.retries must be >= 1 and rebalance.backoff.ms >= 0');
    }
  }

  private get now(): number {
    return this.deps.scheduler.now();
  }

  private emit(phase: ZkRebalanceEvent['phase'], detail: Partial<ZkRebalanceEvent> = {}): void {
    this.deps.emit({
      type: 'zkRebalance',
      consumerId: this.consumerId,
      groupId: this.groupId,
      phase,
      attempt: this.attempt,
      partitions: [],
      atMs: this.now,
      ...detail,
    } as ZkRebalanceEvent);
  }

  /** After one ZooKeeper round trip (a consumer that died meanwhile does nothing). */
  private zk(fn: () => void): void {
    this.later(this.deps.zkLatencyMs, fn);
  }

  private later(delayMs: number, fn: () => void): void {
    const id = this.deps.scheduler.schedule(delayMs, () => {
      this.tasks.delete(id);
      if (this.state === 'closed' || this.state === 'crashed') return;
      fn();
    });
    this.tasks.add(id);
  }

  // ------------------------------------------------------------------ start-up

  start(): void {
    const { store } = this.deps;
    this.sessionId = store.createSession(this.consumerId, this.config['zookeeper.session.timeout.ms']);
    const period = Math.max(1, Math.floor(this.config['zookeeper.session.timeout.ms'] / 3));
    this.heartbeatTask = this.deps.scheduler.schedulePeriodic(period, period, () => {
      if (this.state !== 'crashed' && this.state !== 'closed') store.heartbeat(this.sessionId);
    });
    this.zk(() => {
      if (!store.exists(idsPath(this.groupId))) store.createRecursive(idsPath(this.groupId), null);
      store.create(
        `${idsPath(this.groupId)}/${this.consumerId}`,
        {
          version: 1,
          subscription: Object.fromEntries(this.topics.map((t) => [t, 1])),
          pattern: 'static',
          timestamp: String(this.now),
        },
        { ephemeralSessionId: this.sessionId },
      );
      this.emit('registered');
      this.watchAll();
      // A new member forces itself to rebalance (it will not get its own watch event).
      this.triggerRebalance('registered');
    });
    if (this.config['auto.commit.enable']) {
      const every = this.config['auto.commit.interval.ms'];
      this.autoCommitTask = this.deps.scheduler.schedulePeriodic(every, every, () => this.commitOffsets());
    }
  }

  private watcher = (event: WatchedEvent) => {
    if (this.state === 'closed' || this.state === 'crashed' || this.state === 'failed') return;
    this.emit('watchFired', { path: event.path, watchType: event.type });
    this.watchAll();
    // The watcher thread notices after a seeded moment: members start at slightly different times.
    const delay = this.deps.rng.nextInt(this.deps.watchJitterMs + 1);
    this.later(delay, () => this.triggerRebalance(`watch on ${event.path}`));
  };

  private watchAll(): void {
    const { store } = this.deps;
    const watch = { sessionId: this.sessionId, watcher: this.watcher };
    if (store.exists(idsPath(this.groupId))) store.getChildren(idsPath(this.groupId), watch);
    if (store.exists('/brokers/ids')) store.getChildren('/brokers/ids', watch);
    else store.exists('/brokers/ids', watch);
    for (const t of this.topics) store.exists(`/brokers/topics/${t}`, watch);
  }

  private triggerRebalance(reason: string): void {
    if (this.state === 'closed' || this.state === 'crashed' || this.state === 'failed') return;
    if (this.rebalanceRunning) {
      this.rebalancePending = true;
      return;
    }
    this.rebalanceRunning = true;
    this.state = 'rebalancing';
    this.rebalances++;
    this.attempt = 0;
    this.emit('started', { reason });
    this.runAttempt();
  }

  // ------------------------------------------------------------------ one rebalance attempt

  private runAttempt(): void {
    this.attempt++;
    const { store } = this.deps;
    // 1. commit, release ownership, stop fetching
    this.commitOffsets();
    this.zk(() => {
      const released = this.owned;
      for (const tp of released) this.deleteIfMine(tp);
      this.owned = [];
      this.deps.fetcher.assign([]);
      this.emit('released', { partitions: released });
      // 2. read members and partitions, range-assign
      this.zk(() => {
        if (!store.exists('/brokers/ids') || store.getChildren('/brokers/ids').length === 0) {
          this.emit('noBrokers');
          return this.retryOrFail('no brokers available');
        }
        const consumers = store.exists(idsPath(this.groupId)) ? store.getChildren(idsPath(this.groupId)) : [];
        const mine = this.rangeAssign(consumers);
        this.emit('assigned', { partitions: mine, consumers });
        // 3. read committed offsets
        this.zk(() => {
          const offsets = new Map<string, number | null>();
          for (const tp of mine) {
            const data = store.tryGetData(offsetPath(this.groupId, tp.topic, tp.partition));
            offsets.set(tpString(tp), typeof data === 'number' ? data : null);
          }
          // 4. claim ownership
          this.zk(() => this.claim(mine, offsets));
        });
      });
    });
  }

  /** Kafka 0.8's range assignment per topic over sorted consumer thread ids (one thread each). */
  private rangeAssign(consumers: string[]): TopicPartition[] {
    const { store } = this.deps;
    const out: TopicPartition[] = [];
    const sorted = [...consumers].sort();
    for (const topic of this.topics) {
      const data = store.tryGetData(`/brokers/topics/${topic}`) as { partitions?: Record<string, unknown> } | null;
      const partitions = Object.keys(data?.partitions ?? {})
        .map(Number)
        .sort((a, b) => a - b);
      // Only consumers subscribed to this topic share it.
      const subscribers = sorted.filter((c) => {
        const reg = store.tryGetData(`${idsPath(this.groupId)}/${c}`) as {
          subscription?: Record<string, number>;
        } | null;
        return reg?.subscription !== undefined && topic in reg.subscription;
      });
      const i = subscribers.indexOf(this.consumerId);
      if (i < 0 || subscribers.length === 0) continue;
      const perConsumer = Math.floor(partitions.length / subscribers.length);
      const extra = partitions.length % subscribers.length;
      const start = perConsumer * i + Math.min(i, extra);
      const count = perConsumer + (i + 1 > extra ? 0 : 1);
      for (const p of partitions.slice(start, start + count)) out.push({ topic, partition: p });
    }
    return out;
  }

  private claim(mine: TopicPartition[], offsets: Map<string, number | null>): void {
    const { store } = this.deps;
    const created: TopicPartition[] = [];
    const conflicts: { partition: TopicPartition; owner: unknown }[] = [];
    for (const tp of mine) {
      const path = ownerPath(this.groupId, tp.topic, tp.partition);
      try {
        const parent = path.slice(0, path.lastIndexOf('/'));
        if (!store.exists(parent)) store.createRecursive(parent, null);
        store.create(path, this.threadId(), { ephemeralSessionId: this.sessionId });
        created.push(tp);
      } catch (e) {
        if (!isKafkaError(e, 'NODE_EXISTS')) throw e;
        conflicts.push({ partition: tp, owner: store.tryGetData(path) });
      }
    }
    if (conflicts.length > 0) {
      // Someone has not released yet: undo and try again later.
      for (const tp of created) this.deleteIfMine(tp);
      this.emit('ownershipConflict', {
        partitions: conflicts.map((c) => c.partition),
        owners: conflicts.map((c) => String(c.owner)),
      });
      this.retryOrFail('partition ownership conflict');
      return;
    }
    this.owned = sortPartitions(created);
    this.deps.fetcher.assign(this.owned);
    for (const tp of this.owned) {
      const offset = offsets.get(tpString(tp));
      if (offset !== null && offset !== undefined) this.deps.fetcher.seek(tp, offset);
      else if (this.config['auto.offset.reset'] === 'smallest') this.deps.fetcher.seekToBeginning([tp]);
      else this.deps.fetcher.seekToEnd([tp]);
    }
    this.emit('succeeded', { partitions: this.owned });
    this.finishRebalance('running');
  }

  private retryOrFail(reason: string): void {
    if (this.attempt >= this.config['rebalance.max.retries']) {
      this.emit('failed', {
        reason: `ConsumerRebalanceFailedException: can't rebalance after ${this.attempt} retries (${reason})`,
      });
      this.finishRebalance('failed');
      return;
    }
    this.emit('backoff', { reason, backoffMs: this.config['rebalance.backoff.ms'] });
    this.later(this.config['rebalance.backoff.ms'], () => {
      if (this.state === 'rebalancing') this.runAttempt();
    });
  }

  private finishRebalance(state: 'running' | 'failed'): void {
    this.rebalanceRunning = false;
    this.state = state;
    if (this.rebalancePending && state === 'running') {
      this.rebalancePending = false;
      this.triggerRebalance('watch fired during the previous rebalance');
    }
  }

  private threadId(): string {
    return `${this.consumerId}-0`;
  }

  private deleteIfMine(tp: TopicPartition): void {
    const { store } = this.deps;
    const path = ownerPath(this.groupId, tp.topic, tp.partition);
    if (store.tryGetData(path) === this.threadId()) {
      try {
        store.delete(path);
      } catch (e) {
        if (!isKafkaError(e, 'NO_NODE')) throw e;
      }
    }
  }

  // ------------------------------------------------------------------ consuming

  /** Records from the partitions this member owns (nothing while it rebalances). */
  poll(): ConsumerRecord[] {
    if (this.state !== 'running' || this.owned.length === 0) return [];
    return this.deps.fetcher.poll();
  }

  /** Writes every owned partition's position to /consumers/<group>/offsets/<topic>/<partition>. */
  commitOffsets(): void {
    const { store } = this.deps;
    if (this.state === 'crashed' || this.state === 'closed') return;
    for (const tp of this.owned) {
      const position = this.deps.fetcher.position(tp);
      if (position === null) continue;
      const path = offsetPath(this.groupId, tp.topic, tp.partition);
      if (store.exists(path)) store.setData(path, position);
      else store.createRecursive(path, position);
      this.deps.emit({
        type: 'offsetCommitted',
        groupId: this.groupId,
        topic: tp.topic,
        partition: tp.partition,
        offset: position,
        memberId: this.consumerId,
        offsetsPartition: -1,
        atMs: this.now,
      });
    }
  }

  /** Orderly shutdown: commit, then close the session (its ephemeral znodes vanish at once). */
  close(): void {
    if (this.state === 'closed' || this.state === 'crashed') return;
    this.commitOffsets();
    this.stop('closed');
    this.deps.store.closeSession(this.sessionId);
  }

  /** The process dies: the session lingers until zookeeper.session.timeout.ms, then its znodes go. */
  crash(): void {
    if (this.state === 'closed' || this.state === 'crashed') return;
    this.stop('crashed');
  }

  private stop(state: 'closed' | 'crashed'): void {
    this.state = state;
    this.heartbeatTask?.cancel();
    this.autoCommitTask?.cancel();
    for (const id of this.tasks) this.deps.scheduler.cancel(id);
    this.tasks.clear();
    if (this.deps.fetcher.lifecycle === 'running') this.deps.fetcher.crash();
  }
}
