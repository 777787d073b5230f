/**
 * The producer's configuration, with Kafka's names, defaults and checks
 * (clients/.../producer/ProducerConfig.java and KafkaProducer.configureDeliveryTimeout).
 *
 * Defaults are those of Kafka 3.9: `linger.ms=0` (5 only from 4.0, KIP-1030) and idempotence on
 * with `acks=all` (since 3.0). Idempotence that was not asked for explicitly is switched off
 * quietly when `acks` is not all or `retries` is 0, and with a warning when
 * `max.in.flight.requests.per.connection` is above 5 (an error only from 4.0), as 3.9's
 * ProducerConfig.postProcessAndValidateIdempotenceConfigs does; asked for explicitly, the same
 * conflicts are INVALID_CONFIG. Any bad value is INVALID_CONFIG naming the key.
 */
import type { Acks } from '../cluster/requests';
import { KafkaError } from '../errors';
import type { PartitionerStrategy } from './Partitioner';

/** What a caller may pass: Kafka's keys, values as strings, numbers or booleans. */
export interface ProducerConfigInput {
  'client.id'?: string;
  acks?: 'all' | '-1' | '0' | '1' | -1 | 0 | 1;
  'batch.size'?: number;
  'linger.ms'?: number;
  retries?: number;
  'retry.backoff.ms'?: number;
  'retry.backoff.max.ms'?: number;
  'delivery.timeout.ms'?: number;
  'request.timeout.ms'?: number;
  'max.in.flight.requests.per.connection'?: number;
  'enable.idempotence'?: boolean;
  'max.request.size'?: number;
  'buffer.memory'?: number;
  'metadata.max.age.ms'?: number;
  'max.block.ms'?: number;
  /** Null-key placement: 'sticky' (Kafka >= 3.3 built-in, default), 'sticky-2.4' (Kafka 2.4-3.2) or 'round-robin'. */
  partitioner?: PartitionerStrategy;
  /** KIP-794: the built-in partitioner weighs its switch by the partitions' queue lengths. */
  'partitioner.adaptive.partitioning.enable'?: boolean;
  /** KIP-794: keyed records are placed as keyless ones (no effect with a partitioner class: 'sticky-2.4', 'round-robin'). */
  'partitioner.ignore.keys'?: boolean;
  /** KIP-794: a partition whose leader has had data ready but undrainable this long leaves the adaptive draw (0: never). */
  'partitioner.availability.timeout.ms'?: number;
}

/** The resolved configuration the producer runs with. */
export interface ProducerConfig {
  clientId: string;
  acks: Acks;
  batchSize: number;
  lingerMs: number;
  retries: number;
  retryBackoffMs: number;
  /** KIP-580: retries back off exponentially from retry.backoff.ms up to this. */
  retryBackoffMaxMs: number;
  deliveryTimeoutMs: number;
  requestTimeoutMs: number;
  maxInFlightRequestsPerConnection: number;
  enableIdempotence: boolean;
  maxRequestSize: number;
  bufferMemory: number;
  metadataMaxAgeMs: number;
  maxBlockMs: number;
  partitioner: PartitionerStrategy;
  adaptivePartitioning: boolean;
  partitionerIgnoreKeys: boolean;
  partitionAvailabilityTimeoutMs: number;
  /** What Kafka would log at WARN while resolving the configuration (e.g. idempotence turned off). */
  warnings: readonly string[];
}

const INT_MAX = 2147483647;

export const PRODUCER_DEFAULTS: Readonly<Omit<ProducerConfig, 'clientId' | 'warnings'>> = {
  acks: -1,
  batchSize: 16384,
  lingerMs: 0,
  retries: INT_MAX,
  retryBackoffMs: 100,
  retryBackoffMaxMs: 1000,
  deliveryTimeoutMs: 120_000,
  requestTimeoutMs: 30_000,
  maxInFlightRequestsPerConnection: 5,
  enableIdempotence: true,
  maxRequestSize: 1024 * 1024,
  bufferMemory: 32 * 1024 * 1024,
  metadataMaxAgeMs: 5 * 60 * 1000,
  maxBlockMs: 60 * 1000,
  partitioner: 'sticky',
  adaptivePartitioning: true,
  partitionerIgnoreKeys: false,
  partitionAvailabilityTimeoutMs: 0,
};

/** Kafka's MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE. */
export const MAX_IN_FLIGHT_FOR_IDEMPOTENCE = 5;

const KNOWN_KEYS = new Set([
  'client.id',
  'acks',
  'batch.size',
  'linger.ms',
  'retries',
  'retry.backoff.ms',
  'retry.backoff.max.ms',
  'delivery.timeout.ms',
  'request.timeout.ms',
  'max.in.flight.requests.per.connection',
  'enable.idempotence',
  'max.request.size',
  'buffer.memory',
  'metadata.max.age.ms',
  'max.block.ms',
  'partitioner',
  'partitioner.adaptive.partitioning.enable',
  'partitioner.availability.timeout.ms',
  'partitioner.ignore.keys',
]);

function invalid(key: string, value: unknown, why: string): KafkaError {
  return new KafkaError('INVALID_CONFIG', `Invalid value ${String(value)} for configuration ${key}: ${why}`, {
    key,
    value,
  });
}

function intAtLeast(input: Record<string, unknown>, key: string, fallback: number, min: number): number {
  const v = input[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(key, v, 'must be an integer');
  if (v < min) throw invalid(key, v, `Value must be at least ${min}`);
  if (v > INT_MAX) throw invalid(key, v, `Value must be at most ${INT_MAX}`);
  return v;
}

function parseAcks(v: unknown): Acks {
  if (v === undefined) return PRODUCER_DEFAULTS.acks;
  const s = String(v).trim().toLowerCase();
  if (s === 'all' || s === '-1') return -1;
  if (s === '0') return 0;
  if (s === '1') return 1;
  throw invalid('acks', v, 'String must be one of: all, -1, 0, 1');
}

/**
 * Resolves and validates a producer configuration. Throws INVALID_CONFIG for an unknown key, a
 * value of the wrong type or range, or a combination Kafka refuses.
 */
export function resolveProducerConfig(input: ProducerConfigInput = {}, defaultClientId = 'producer-1'): ProducerConfig {
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) throw invalid(key, raw[key], 'unknown producer configuration');
  }
  const clientId = raw['client.id'] === undefined ? defaultClientId : String(raw['client.id']);
  const acks = parseAcks(raw.acks);
  const batchSize = intAtLeast(raw, 'batch.size', PRODUCER_DEFAULTS.batchSize, 0);
  const lingerMs = intAtLeast(raw, 'linger.ms', PRODUCER_DEFAULTS.lingerMs, 0);
  const retries = intAtLeast(raw, 'retries', PRODUCER_DEFAULTS.retries, 0);
  const retryBackoffMs = intAtLeast(raw, 'retry.backoff.ms', PRODUCER_DEFAULTS.retryBackoffMs, 0);
  const retryBackoffMaxMs = intAtLeast(raw, 'retry.backoff.max.ms', PRODUCER_DEFAULTS.retryBackoffMaxMs, 0);
  const requestTimeoutMs = intAtLeast(raw, 'request.timeout.ms', PRODUCER_DEFAULTS.requestTimeoutMs, 0);
  const maxInFlight = intAtLeast(
    raw,
    'max.in.flight.requests.per.connection',
    PRODUCER_DEFAULTS.maxInFlightRequestsPerConnection,
    1,
  );
  const maxRequestSize = intAtLeast(raw, 'max.request.size', PRODUCER_DEFAULTS.maxRequestSize, 0);
  const bufferMemory = intAtLeast(raw, 'buffer.memory', PRODUCER_DEFAULTS.bufferMemory, 0);
  const metadataMaxAgeMs = intAtLeast(raw, 'metadata.max.age.ms', PRODUCER_DEFAULTS.metadataMaxAgeMs, 0);
  const maxBlockMs = intAtLeast(raw, 'max.block.ms', PRODUCER_DEFAULTS.maxBlockMs, 0);
  const partitionAvailabilityTimeoutMs = intAtLeast(
    raw,
    'partitioner.availability.timeout.ms',
    PRODUCER_DEFAULTS.partitionAvailabilityTimeoutMs,
    0,
  );

  const partitioner = raw.partitioner ?? PRODUCER_DEFAULTS.partitioner;
  if (partitioner !== 'sticky' && partitioner !== 'sticky-2.4' && partitioner !== 'round-robin') {
    throw invalid('partitioner', partitioner, 'String must be one of: sticky, sticky-2.4, round-robin');
  }

  const adaptive = raw['partitioner.adaptive.partitioning.enable'];
  if (adaptive !== undefined && typeof adaptive !== 'boolean')
    throw invalid('partitioner.adaptive.partitioning.enable', adaptive, 'must be a boolean');
  const ignoreKeys = raw['partitioner.ignore.keys'];
  if (ignoreKeys !== undefined && typeof ignoreKeys !== 'boolean')
    throw invalid('partitioner.ignore.keys', ignoreKeys, 'must be a boolean');

  const idem = raw['enable.idempotence'];
  if (idem !== undefined && typeof idem !== 'boolean') throw invalid('enable.idempotence', idem, 'must be a boolean');
  const userConfiguredIdempotence = idem !== undefined;
  const warnings: string[] = [];
  let enableIdempotence = idem ?? PRODUCER_DEFAULTS.enableIdempotence;
  if (enableIdempotence) {
    // ProducerConfig.postProcessAndValidateIdempotenceConfigs
    if (retries === 0) {
      if (userConfiguredIdempotence) {
        throw invalid('retries', retries, 'Must set retries to non-zero when using the idempotent producer.');
      }
      enableIdempotence = false;
    }
    if (acks !== -1) {
      if (userConfiguredIdempotence) {
        throw invalid('acks', acks, 'Must set acks to all in order to use the idempotent producer.');
      }
      enableIdempotence = false;
    }
    if (maxInFlight > MAX_IN_FLIGHT_FOR_IDEMPOTENCE) {
      if (userConfiguredIdempotence) {
        throw invalid(
          'max.in.flight.requests.per.connection',
          maxInFlight,
          `Must set max.in.flight.requests.per.connection to at most ${MAX_IN_FLIGHT_FOR_IDEMPOTENCE} to use the idempotent producer.`,
        );
      }
      warnings.push(
        `Idempotence will be disabled because max.in.flight.requests.per.connection is set to ${maxInFlight}, which is greater than ${MAX_IN_FLIGHT_FOR_IDEMPOTENCE}. Please note that in v4.0.0 and onward, this will become an error.`,
      );
      enableIdempotence = false;
    }
  }

  // KafkaProducer.configureDeliveryTimeout: delivery.timeout.ms >= linger.ms + request.timeout.ms,
  // an error if the user set it, silently raised if it is the default.
  let deliveryTimeoutMs = intAtLeast(raw, 'delivery.timeout.ms', PRODUCER_DEFAULTS.deliveryTimeoutMs, 0);
  if (deliveryTimeoutMs < lingerMs + requestTimeoutMs) {
    if (raw['delivery.timeout.ms'] !== undefined) {
      throw invalid(
        'delivery.timeout.ms',
        deliveryTimeoutMs,
        'delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms',
      );
    }
    deliveryTimeoutMs = lingerMs + requestTimeoutMs;
  }

  return {
    clientId,
    acks,
    batchSize,
    lingerMs,
    retries,
    retryBackoffMs,
    retryBackoffMaxMs,
    deliveryTimeoutMs,
    requestTimeoutMs,
    maxInFlightRequestsPerConnection: maxInFlight,
    enableIdempotence,
    maxRequestSize,
    bufferMemory,
    metadataMaxAgeMs,
    maxBlockMs,
    partitioner,
    adaptivePartitioning: adaptive ?? PRODUCER_DEFAULTS.adaptivePartitioning,
    partitionerIgnoreKeys: ignoreKeys ?? PRODUCER_DEFAULTS.partitionerIgnoreKeys,
    partitionAvailabilityTimeoutMs,
    warnings,
  };
}
