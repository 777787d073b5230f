/**
 * The one event log: every broker, controller, election, ISR, producer error, rebalance, commit
 * and retention event of one Engine as a timestamped list, each entry naming the topics,
 * partitions, groups and brokers it is about. Events of one instant that say the same thing (the
 * controller electing leaders for many partitions, a broker taking leadership of them) become one
 * entry; a producer error that repeats grows its entry's count; a group's offset commits within one
 * COMMIT_WINDOW_MS of engine time are one entry (each partition at its latest committed offset,
 * and how many commit requests), so a cluster committing every second does not bury an election.
 * Each kind keeps its own last MAX_PER_KIND entries, so a stream of commits never pushes an
 * election out. Pure: times are the engine clock's.
 */
import type { EngineEvent } from '../../index';
import { EVENT_KINDS, type EventKind, type EventLogEntry, type EventLogView } from './types';
import { toScenarioMs } from '../scenarioTime';

export const MAX_PER_KIND = 150;
/** How many of the latest producer entries a repeated producer error may fold into. */
const PRODUCER_FOLD_BACK = 8;
/** A group's commits within one window of engine time fold into one entry. */
export const COMMIT_WINDOW_MS = 10_000;
/** How many of the latest commit entries a commit may fold into (the groups' entries interleave). */
const COMMIT_FOLD_BACK = 16;
/** The most partitions an entry keeps (a whole controller pass over 1,000 partitions is counted, not listed). */
const MAX_ITEMS = 64;
/** The most partitions an entry names in its text (the rest are counted). */
const MAX_NAMED = 5;

export const EVENT_LOG_TYPES: readonly EngineEvent['type'][] = [
  'brokerStarted',
  'brokerRegistered',
  'brokerDown',
  'brokerAdded',
  'controlledShutdown',
  'nodeIsolated',
  'nodeHealed',
  'sessionExpired',
  'controllerElected',
  'controllerResigned',
  'watchFired',
  'partitionStateChanged',
  'partitionOffline',
  'uncleanLeaderElection',
  'committedRecordsLost',
  'preferredLeaderElection',
  'becameLeader',
  'produceHandled',
  'produceCompleted',
  'batchRetried',
  'producerRequestTimedOut',
  'groupStateChanged',
  'groupGenerationCompleted',
  'offsetCommitted',
  'offsetsExpired',
  'logRetention',
  'logCompacted',
  'topicCreated',
  'topicDeletionStarted',
  'topicDeleted',
];

/** What one engine event adds: its entry, and the key under which the next like it folds in. */
interface Item {
  kind: EventKind;
  type: string;
  /** Same key as the kind's latest entry: fold into it. */
  key: string;
  /** The entry's text before its list of partitions. */
  summary: string;
  /** One partition (or member) this event adds to the entry's list; null: a repeat. */
  item: string | null;
  /** A word the entry's summary lists once however many events carry it (an election's reason). */
  tag?: string;
  /** What the item is of (a partition): a later item of the same replaces it (its newer offset). */
  itemOf?: string;
  /** The request it came with (a commit's member and instant): the entry counts distinct ones. */
  request?: string;
  topics?: string[];
  partitions?: string[];
  groups?: string[];
  brokers?: number[];
}

interface Held {
  entry: EventLogEntry;
  key: string;
  summary: string;
  items: string[];
  /** `itemOf` of each item, where the item has one. */
  itemsOf: (string | undefined)[];
  tags: string[];
  requests: Set<string>;
}

const brokerOf = (node: string): number | null => {
  const m = /^broker-(\d+)$/.exec(node);
  return m ? Number(m[1]) : null;
};
const tp = (topic: string, partition: number) => `${topic}-${partition}`;

export class EventLog {
  private readonly byKind = new Map<EventKind, Held[]>(EVENT_KINDS.map((k) => [k, []]));
  private next = 1;
  version = 0;

  /**
   * @param controllerId the active controller's broker id now (to keep only its watch of /brokers/ids)
   */
  constructor(private readonly controllerId: () => number | null) {}

  /** Takes one engine event (subscribe it to EVENT_LOG_TYPES). */
  onEvent(e: EngineEvent): void {
    const at = eventTime(e);
    const item = this.describe(e, at);
    if (item) this.add(item, toScenarioMs(at));
  }

  private add(it: Item, atMs: number): void {
    const list = this.byKind.get(it.kind) ?? [];
    // A retrying producer alternates a few errors (the leader's refusal, the retry): each repeat
    // folds into its own recent entry. Other kinds fold only into their latest entry, keeping order.
    const lookBack = it.kind === 'producer' ? PRODUCER_FOLD_BACK : it.kind === 'commit' ? COMMIT_FOLD_BACK : 1;
    let last: Held | undefined;
    for (let i = list.length - 1; i >= Math.max(0, list.length - lookBack) && !last; i--)
      if (list[i]?.key === it.key) last = list[i];
    this.version++;
    if (last) {
      const entry = last.entry;
      entry.count++;
      entry.lastAtMs = atMs;
      addItem(last, it);
      if (it.tag !== undefined && !last.tags.includes(it.tag)) last.tags.push(it.tag);
      if (it.request !== undefined) last.requests.add(it.request);
      merge(entry.topics, it.topics);
      merge(entry.partitions, it.partitions);
      merge(entry.groups, it.groups);
      merge(entry.brokers, it.brokers);
      entry.text = heldText(last);
      return;
    }
    const items = it.item === null ? [] : [it.item];
    const tags = it.tag === undefined ? [] : [it.tag];
    const requests = new Set(it.request === undefined ? [] : [it.request]);
    const entry: EventLogEntry = {
      n: this.next++,
      kind: it.kind,
      type: it.type,
      atMs,
      lastAtMs: atMs,
      count: 1,
      text: '',
      topics: [...(it.topics ?? [])],
      partitions: [...(it.partitions ?? [])],
      groups: [...(it.groups ?? [])],
      brokers: [...(it.brokers ?? [])],
    };
    const itemsOf = it.item === null ? [] : [it.itemOf];
    const held: Held = { entry, key: it.key, summary: it.summary, items, itemsOf, tags, requests };
    entry.text = heldText(held);
    list.push(held);
    if (list.length > MAX_PER_KIND) list.shift();
  }

  /** Every entry kept, oldest first (copies: the view may be posted while the log grows). */
  view(): EventLogView {
    const all: EventLogEntry[] = [];
    for (const list of this.byKind.values())
      for (const h of list)
        all.push({
          ...h.entry,
          topics: [...h.entry.topics],
          partitions: [...h.entry.partitions],
          groups: [...h.entry.groups],
          brokers: [...h.entry.brokers],
        });
    all.sort((a, b) => a.n - b.n);
    return { version: this.version, entries: all };
  }

  private describe(e: EngineEvent, at: number): Item | null {
    switch (e.type) {
      case 'brokerStarted':
        return broker(e.type, e.broker, `broker ${e.broker} started`);
      case 'brokerRegistered':
        return broker(
          e.type,
          e.broker,
          `broker ${e.broker} registered /brokers/ids/${e.broker} (epoch ${e.brokerEpoch})`,
        );
      case 'brokerDown': {
        const how = e.how === 'killed' ? 'was killed' : e.how === 'powerFailed' ? 'lost power' : 'shut down';
        const lost = e.lostUnflushedBytes > 0 ? `, ${e.lostUnflushedBytes} unflushed bytes lost` : '';
        return broker(e.type, e.broker, `broker ${e.broker} ${how}${lost}`);
      }
      case 'brokerAdded':
        return broker(e.type, e.broker, `broker ${e.broker} added${e.rack ? ` on ${e.rack}` : ''}`);
      case 'controlledShutdown':
        return broker(
          e.type,
          e.broker,
          `broker ${e.broker} asks for a controlled shutdown (${e.remaining} partitions still to move)`,
        );
      case 'nodeIsolated':
      case 'nodeHealed': {
        const b = brokerOf(e.node);
        if (b === null) return null;
        return broker(
          e.type,
          b,
          `broker ${b} ${e.type === 'nodeIsolated' ? 'cut off the network' : 'back on the network'}`,
        );
      }
      case 'sessionExpired': {
        const b = brokerOf(e.owner);
        if (b === null) return null;
        return broker(e.type, b, `broker ${b}'s ZooKeeper session expired: /brokers/ids/${b} is deleted`);
      }
      case 'controllerElected':
        return entry(
          'controller',
          e.type,
          `${e.type}@${at}`,
          `broker ${e.broker} is the controller (epoch ${e.controllerEpoch})`,
          { brokers: [e.broker] },
        );
      case 'controllerResigned':
        return entry('controller', e.type, `${e.type}@${at}`, `broker ${e.broker} resigned as controller`, {
          brokers: [e.broker],
        });
      case 'watchFired': {
        // KafkaController's BrokerChange: the active controller's watch on /brokers/ids fired.
        const b = brokerOf(e.watcher);
        if (e.path !== '/brokers/ids' || b === null || b !== this.controllerId()) return null;
        return entry(
          'controller',
          'brokerChange',
          `brokerChange@${at}`,
          `controller ${b} sees the live brokers change (/brokers/ids): BrokerChange`,
          { brokers: [b] },
        );
      }
      case 'partitionStateChanged': {
        const p = tp(e.topic, e.partition);
        const leaderChanged = !e.old || e.old.leader !== e.new.leader;
        if (leaderChanged) {
          const to = e.new.leader < 0 ? 'none' : String(e.new.leader);
          // One controller event elects many partitions at one instant (first the dead leader
          // goes, then a new one is chosen): one entry, each step in the order it was written.
          return entry(
            'election',
            e.type,
            `${e.type}@${at}`,
            `controller ${this.controllerId() ?? ''} wrote new leaders`,
            {
              item: `${p} → ${to}`,
              tag: e.reason,
              topics: [e.topic],
              partitions: [p],
              brokers: e.new.leader < 0 ? [] : [e.new.leader],
            },
          );
        }
        const oldIsr = e.old?.isr ?? [];
        const change = e.new.isr.length < oldIsr.length ? 'shrinks' : 'expands';
        return entry('isr', e.type, `${e.type}:${e.reason}:${change}@${at}`, `ISR ${change}`, {
          item: `${p} [${oldIsr.join(',')}] → [${e.new.isr.join(',')}]`,
          tag: e.reason,
          topics: [e.topic],
          partitions: [p],
          brokers: symmetricDifference(oldIsr, e.new.isr),
        });
      }
      case 'partitionOffline':
        return entry('election', e.type, `${e.type}@${at}`, 'no live replica in the ISR: partitions offline', {
          item: tp(e.topic, e.partition),
          topics: [e.topic],
          partitions: [tp(e.topic, e.partition)],
          brokers: [e.lastLeader],
        });
      case 'uncleanLeaderElection': {
        const lost = e.lostCommittedOffsets
          ? `; committed offsets ${e.lostCommittedOffsets.from}..${e.lostCommittedOffsets.to - 1} are lost`
          : '';
        return onePartition(
          'election',
          e,
          at,
          e.newLeader,
          `unclean leader election: ${tp(e.topic, e.partition)} → ${e.newLeader}, from outside the ISR${lost}`,
        );
      }
      case 'committedRecordsLost':
        return onePartition(
          'election',
          e,
          at,
          e.newLeader,
          `${tp(e.topic, e.partition)}: leader ${e.newLeader}'s log ends at ${e.newLeaderLogEndOffset}, acknowledged offsets ${e.lostCommittedOffsets.from}..${e.lostCommittedOffsets.to - 1} are lost`,
        );
      case 'preferredLeaderElection':
        if (e.partitions.length === 0) return null;
        return entry(
          'election',
          e.type,
          `${e.type}@${at}`,
          `preferred leader election (${e.trigger}): ${e.partitions.length} partitions move back`,
          {
            topics: unique(e.partitions.map((p) => p.topic)),
            partitions: e.partitions.map((p) => tp(p.topic, p.partition)),
            brokers: unique(e.partitions.map((p) => p.to)),
          },
        );
      case 'becameLeader':
        return entry(
          'election',
          e.type,
          `${e.type}:${e.broker}@${at}`,
          `broker ${e.broker} got LeaderAndIsr and leads`,
          {
            item: tp(e.topic, e.partition),
            topics: [e.topic],
            partitions: [tp(e.topic, e.partition)],
            brokers: [e.broker],
          },
        );
      case 'produceHandled':
        if (e.errorCode === 'NONE') return null;
        return producerError(
          e,
          `leader ${e.broker} refused a produce to ${tp(e.topic, e.partition)}: ${e.errorCode}${reasonOf(e.errorCode)}`,
        );
      case 'produceCompleted':
        if (e.errorCode === 'NONE') return null;
        return producerError(
          e,
          `broker ${e.broker} answered a produce to ${tp(e.topic, e.partition)} with ${e.errorCode} after ${e.waitedMs} ms${reasonOf(e.errorCode)}`,
        );
      case 'batchRetried':
        return entry(
          'producer',
          e.type,
          `${e.type}:${e.producer}:${e.topic}:${e.partition}:${e.error}`,
          `${e.producer} retries a batch to ${tp(e.topic, e.partition)} after ${e.error}`,
          { topics: [e.topic], partitions: [tp(e.topic, e.partition)] },
        );
      case 'producerRequestTimedOut':
        return entry(
          'producer',
          e.type,
          `${e.type}:${e.producer}:${e.broker}`,
          `${e.producer}'s ${e.api} request to broker ${e.broker} timed out (request.timeout.ms)`,
          { brokers: [e.broker] },
        );
      case 'groupStateChanged':
        return entry(
          'rebalance',
          e.type,
          `${e.type}:${e.groupId}:${e.to}@${at}`,
          `group ${e.groupId}: ${e.from ?? 'new'} → ${e.to} (generation ${e.generationId}; ${e.reason})`,
          { groups: [e.groupId], brokers: [e.coordinator] },
        );
      case 'groupGenerationCompleted':
        return entry(
          'rebalance',
          e.type,
          `${e.type}:${e.groupId}:${e.generationId}`,
          `group ${e.groupId} generation ${e.generationId}: ${Object.keys(e.assignment).length} members, leader ${e.leader === null ? 'none' : (e.clientIds[e.leader] ?? e.leader)}`,
          { groups: [e.groupId], brokers: [e.coordinator] },
        );
      case 'offsetCommitted': {
        const window = Math.floor(toScenarioMs(at) / COMMIT_WINDOW_MS);
        const p = tp(e.topic, e.partition);
        return entry(
          'commit',
          e.type,
          `${e.type}:${e.groupId}:${e.offsetsPartition}:${window}`,
          // The legacy ZooKeeper consumer writes its offsets to znodes, not to __consumer_offsets.
          e.offsetsPartition < 0
            ? `to ZooKeeper /consumers/${e.groupId}/offsets`
            : `to __consumer_offsets-${e.offsetsPartition}`,
          {
            item: `${p}@${e.offset}`,
            itemOf: p,
            request: `${e.memberId}@${at}`,
            topics: [e.topic],
            partitions: [p],
            groups: [e.groupId],
          },
        );
      }
      case 'offsetsExpired':
        return entry(
          'commit',
          e.type,
          `${e.type}@${at}`,
          `offsets expired (offsets.retention.minutes): ${e.tombstones} tombstones`,
          { groups: [...e.groupIds] },
        );
      case 'logRetention':
        return onePartition(
          'retention',
          e,
          at,
          e.broker,
          `broker ${e.broker} deleted ${e.deletedSegments} segment${e.deletedSegments === 1 ? '' : 's'} of ${tp(e.topic, e.partition)}${e.deleted?.[0] ? ` (${e.deleted[0].reason})` : ''}; log start ${e.logStartOffset}`,
        );
      case 'logCompacted':
        return onePartition(
          'retention',
          e,
          at,
          e.broker,
          `broker ${e.broker} compacted ${tp(e.topic, e.partition)}: ${e.recordsSuperseded} superseded, ${e.tombstonesRemoved} tombstones removed, ${e.bytesBefore} → ${e.bytesAfter} bytes`,
        );
      case 'topicCreated':
        return entry(
          'controller',
          e.type,
          `${e.type}:${e.topic}`,
          `topic ${e.topic} created: ${e.partitions} partitions, RF ${e.replicationFactor}`,
          { topics: [e.topic] },
        );
      case 'topicDeletionStarted':
        return entry(
          'controller',
          e.type,
          `${e.type}:${e.topic}`,
          `topic ${e.topic} deletion started: StopReplica (delete) sent to its replicas`,
          { topics: [e.topic] },
        );
      case 'topicDeleted':
        return entry('controller', e.type, `${e.type}:${e.topic}`, `topic ${e.topic} deleted`, { topics: [e.topic] });
      default:
        return null;
    }
  }
}

/** What an entry is about beyond its words: the partition it adds to its list, and what it names. */
type About = Partial<
  Pick<Item, 'item' | 'tag' | 'itemOf' | 'request' | 'topics' | 'partitions' | 'groups' | 'brokers'>
>;

/** An entry of `kind`: its type, the key that folds its repeats into one, its words, and what it is about. */
function entry(kind: EventKind, type: string, key: string, summary: string, about: About = {}): Item {
  return { kind, type, key, summary, item: null, ...about };
}

/** When an event happened (the few message events without `atMs` carry their send time). */
function eventTime(e: EngineEvent): number {
  return 'atMs' in e ? e.atMs : e.sentAtMs;
}

/** An entry about one partition (and the broker it names), its own at each instant. */
function onePartition(
  kind: EventKind,
  e: { type: string; topic: string; partition: number },
  at: number,
  broker: number,
  summary: string,
): Item {
  const p = tp(e.topic, e.partition);
  return entry(kind, e.type, `${e.type}:${p}@${at}`, summary, {
    topics: [e.topic],
    partitions: [p],
    brokers: [broker],
  });
}

function broker(type: string, id: number, summary: string): Item {
  return { kind: 'broker', type, key: `${type}:${id}:${summary}`, summary, item: null, brokers: [id] };
}

/** A leader's refusal of a produce: one entry per error, partition and broker, whose count grows as it repeats. */
function producerError(
  e: { type: string; errorCode: string; topic: string; partition: number; broker: number },
  summary: string,
): Item {
  return entry('producer', e.type, `${e.type}:${e.errorCode}:${e.topic}:${e.partition}:${e.broker}`, summary, {
    topics: [e.topic],
    partitions: [tp(e.topic, e.partition)],
    brokers: [e.broker],
  });
}

/** The reason behind a produce error, in words. */
function reasonOf(code: string): string {
  switch (code) {
    case 'NOT_ENOUGH_REPLICAS':
      return ' (acks=all, and the ISR is smaller than min.insync.replicas)';
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
      return ' (written, but the ISR shrank below min.insync.replicas before it was replicated)';
    case 'NOT_LEADER_OR_FOLLOWER':
      return ' (that broker no longer leads it: the producer refreshes its metadata)';
    case 'REQUEST_TIMED_OUT':
      return ' (the followers did not copy it within the request timeout)';
    default:
      return '';
  }
}

/** An entry in words: a group's commits count partitions and requests; the rest list their items. */
function heldText(h: Held): string {
  const e = h.entry;
  if (e.type !== 'offsetCommitted') return textOf(h.summary, h.tags, h.items, e.count);
  const n = e.partitions.length;
  const times = h.requests.size > 1 ? ` ×${h.requests.size}` : '';
  const secs = Math.max(1, Math.ceil((e.lastAtMs - e.atMs) / 1000));
  const head = `group ${e.groups[0] ?? ''} committed ${n} partition${n === 1 ? '' : 's'}${times} in ${secs} s (${h.summary})`;
  return textOf(head, [], h.items, h.items.length);
}

/** Adds an event's item to its entry's list; one of the same thing (a partition) replaces the older. */
function addItem(h: Held, it: Item): void {
  if (it.item === null || h.items.includes(it.item)) return;
  const same = it.itemOf === undefined ? -1 : h.itemsOf.indexOf(it.itemOf);
  if (same >= 0) {
    h.items[same] = it.item;
    return;
  }
  h.items.push(it.item);
  h.itemsOf.push(it.itemOf);
  if (h.items.length > MAX_ITEMS) {
    h.items.shift();
    h.itemsOf.shift();
  }
}

function textOf(summary: string, tags: readonly string[], items: readonly string[], count: number): string {
  const head = tags.length > 0 ? `${summary} (${tags.join(', ')})` : summary;
  if (items.length === 0) return count > 1 ? `${head} (×${count})` : head;
  // The learner's own topics first: the internal __consumer_offsets partitions would crowd them out.
  const ordered = [...items.filter((i) => !i.startsWith('__')), ...items.filter((i) => i.startsWith('__'))];
  const named = ordered.slice(0, MAX_NAMED).join(', ');
  // Items beyond MAX_ITEMS are dropped but still counted.
  const total = Math.max(items.length, count);
  const shown = Math.min(items.length, MAX_NAMED);
  const more = total > shown ? ` and ${total - shown} more` : '';
  return `${head}: ${named}${more}`;
}

function merge<T>(into: T[], add: readonly T[] | undefined): void {
  for (const v of add ?? []) if (!into.includes(v)) into.push(v);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function symmetricDifference(a: readonly number[], b: readonly number[]): number[] {
  return [...a.filter((x) => !b.includes(x)), ...b.filter((x) => !a.includes(x))];
}
