import { KafkaError } from '../../errors';
import { ASSIGNMENT_STRATEGIES, type AssignmentStrategy } from './assignors/types';

/**
 * KafkaConsumer's configuration, by Kafka's names and with Kafka's defaults
 * (clients/src/main/java/org/apache/kafka/clients/consumer/ConsumerConfig.java, Kafka 3.x).
 * Bad values fail with INVALID_CONFIG and create nothing, as a ConfigException would.
 */
export { ASSIGNMENT_STRATEGIES, type AssignmentStrategy } from './assignors/types';

export interface ConsumerConfig {
  'client.id': string;
  'group.id': string | null;
  'group.instance.id': string | null;
  'session.timeout.ms': number;
  'heartbeat.interval.ms': number;
  'max.poll.interval.ms': number;
  'enable.auto.commit': boolean;
  'auto.commit.interval.ms': number;
  'auto.offset.reset': 'earliest' | 'latest' | 'none';
  'fetch.min.bytes': number;
  'fetch.max.wait.ms': number;
  'fetch.max.bytes': number;
  'max.partition.fetch.bytes': number;
  'max.poll.records': number;
  /** In preference order; the group picks the first one every member supports. */
  'partition.assignment.strategy': AssignmentStrategy[];
  'request.timeout.ms': number;
  'retry.backoff.ms': number;
  /** How long blocking calls (commitSync) keep retrying. */
  'default.api.timeout.ms': number;
  /** How long partition leaders learned from metadata are trusted before a refresh. */
  'metadata.max.age.ms': number;
}

export const CONSUMER_DEFAULTS: Readonly<ConsumerConfig> = {
  'client.id': '',
  'group.id': null,
  'group.instance.id': null,
  'session.timeout.ms': 45_000,
  'heartbeat.interval.ms': 3_000,
  'max.poll.interval.ms': 300_000,
  'enable.auto.commit': true,
  'auto.commit.interval.ms': 5_000,
  'auto.offset.reset': 'latest',
  'fetch.min.bytes': 1,
  'fetch.max.wait.ms': 500,
  'fetch.max.bytes': 52_428_800,
  'max.partition.fetch.bytes': 1_048_576,
  'max.poll.records': 500,
  // Kafka 3.0+: [RangeAssignor, CooperativeStickyAssignor], so a group can be upgraded to cooperative.
  'partition.assignment.strategy': ['range', 'cooperative-sticky'],
  'request.timeout.ms': 30_000,
  'retry.backoff.ms': 100,
  'metadata.max.age.ms': 300_000,
  'default.api.timeout.ms': 60_000,
};

function invalid(name: string, value: unknown, why: string): KafkaError {
  return new KafkaError('INVALID_CONFIG', `Invalid value ${JSON.stringify(value)} for configuration ${name}: ${why}`, {
    name,
    value,
  });
}

function int(name: string, value: unknown, min: number, max = 2147483647): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, value, 'Expected an integer');
  if (value < min || value > max) throw invalid(name, value, `Value must be in [${min}, ${max}]`);
  return value;
}

/** Parses user-supplied configs (Kafka names) over the defaults. Unknown names are rejected. */
export function consumerConfig(overrides: Record<string, unknown> = {}): ConsumerConfig {
  const c: ConsumerConfig = {
    ...CONSUMER_DEFAULTS,
    'partition.assignment.strategy': [...CONSUMER_DEFAULTS['partition.assignment.strategy']],
  };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    switch (name) {
      case 'client.id':
        if (typeof value !== 'string') throw invalid(name, value, 'Expected a string');
        c[name] = value;
        break;
      case 'group.id':
      case 'group.instance.id':
        if (value !== null && (typeof value !== 'string' || value === ''))
          throw invalid(name, value, 'Expected a non-empty string or null');
        c[name] = value as string | null;
        break;
      case 'session.timeout.ms':
      case 'heartbeat.interval.ms':
      case 'max.poll.interval.ms':
      case 'auto.commit.interval.ms':
      case 'fetch.max.wait.ms':
      case 'request.timeout.ms':
      case 'retry.backoff.ms':
      case 'metadata.max.age.ms':
      case 'default.api.timeout.ms':
      case 'fetch.min.bytes':
      case 'fetch.max.bytes':
      case 'max.partition.fetch.bytes':
        c[name] = int(name, value, name === 'max.poll.interval.ms' || name === 'session.timeout.ms' ? 1 : 0);
        break;
      case 'max.poll.records':
        c[name] = int(name, value, 1);
        break;
      case 'enable.auto.commit':
        if (typeof value !== 'boolean') throw invalid(name, value, 'Expected a boolean');
        c[name] = value;
        break;
      case 'auto.offset.reset':
        if (value !== 'earliest' && value !== 'latest' && value !== 'none') {
          throw invalid(name, value, 'String must be one of: latest, earliest, none');
        }
        c[name] = value;
        break;
      case 'partition.assignment.strategy': {
        const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
        if (!Array.isArray(list) || list.length === 0) throw invalid(name, value, 'Expected a non-empty list');
        for (const s of list) {
          if (!ASSIGNMENT_STRATEGIES.includes(s as AssignmentStrategy)) {
            throw invalid(
              name,
              value,
              `Unknown assignor ${JSON.stringify(s)} (range, roundrobin, sticky, cooperative-sticky)`,
            );
          }
        }
        c[name] = [...new Set(list as AssignmentStrategy[])];
        break;
      }
      default:
        throw invalid(name, value, 'Unknown consumer configuration');
    }
  }
  // Kafka's Heartbeat: "Heartbeat must be set lower than the session timeout".
  if (c['heartbeat.interval.ms'] >= c['session.timeout.ms']) {
    throw invalid(
      'heartbeat.interval.ms',
      c['heartbeat.interval.ms'],
      'Heartbeat must be set lower than the session timeout',
    );
  }
  // KafkaConsumer: without a group there is nowhere to commit to.
  if (c['group.id'] === null && overrides['enable.auto.commit'] === true) {
    throw invalid(
      'enable.auto.commit',
      true,
      'enable.auto.commit cannot be set to true when default group id (null) is used.',
    );
  }
  if (c['group.id'] === null) c['enable.auto.commit'] = false;
  if (c['group.instance.id'] !== null && c['group.id'] === null) {
    throw invalid('group.instance.id', c['group.instance.id'], 'group.instance.id requires a group.id');
  }
  return c;
}

/** The coordinator's broker-side settings (KafkaConfig / GroupCoordinatorConfig), Kafka's defaults. */
export interface GroupCoordinatorConfig {
  'group.min.session.timeout.ms': number;
  'group.max.session.timeout.ms': number;
  'group.initial.rebalance.delay.ms': number;
  'group.max.size': number;
  'offsets.topic.num.partitions': number;
  'offsets.topic.replication.factor': number;
  'offset.metadata.max.bytes': number;
  'offsets.commit.timeout.ms': number;
  /** Offsets of an Empty group are deleted this long after it became empty (KIP-211). */
  'offsets.retention.minutes': number;
  'offsets.retention.check.interval.ms': number;
  /**
   * Not a Kafka setting: the engine time a coordinator spends replaying one record batch of
   * `__consumer_offsets` when it loads a partition (Kafka's cost is real I/O), so loading — and
   * COORDINATOR_LOAD_IN_PROGRESS meanwhile — takes time proportional to the partition's size.
   */
  'simulated.offsets.load.ms.per.batch': number;
}

export const GROUP_COORDINATOR_DEFAULTS: Readonly<GroupCoordinatorConfig> = {
  'group.min.session.timeout.ms': 6_000,
  'group.max.session.timeout.ms': 1_800_000,
  'group.initial.rebalance.delay.ms': 3_000,
  'group.max.size': 2147483647,
  'offsets.topic.num.partitions': 50,
  'offsets.topic.replication.factor': 3,
  'offset.metadata.max.bytes': 4096,
  'offsets.commit.timeout.ms': 5_000,
  'offsets.retention.minutes': 10_080,
  'offsets.retention.check.interval.ms': 600_000,
  'simulated.offsets.load.ms.per.batch': 1,
};

export function groupCoordinatorConfig(overrides: Partial<Record<string, unknown>> = {}): GroupCoordinatorConfig {
  const c: GroupCoordinatorConfig = { ...GROUP_COORDINATOR_DEFAULTS };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(name in GROUP_COORDINATOR_DEFAULTS)) throw invalid(name, value, 'Unknown group coordinator configuration');
    const min =
      name === 'offsets.topic.num.partitions' ||
      name === 'offsets.topic.replication.factor' ||
      name === 'group.max.size'
        ? 1
        : 0;
    c[name as keyof GroupCoordinatorConfig] = int(name, value, min);
  }
  if (c['group.min.session.timeout.ms'] > c['group.max.session.timeout.ms']) {
    throw invalid(
      'group.min.session.timeout.ms',
      c['group.min.session.timeout.ms'],
      'must not exceed group.max.session.timeout.ms',
    );
  }
  return c;
}
