import { describe, expect, it } from 'vitest';
import { isKafkaError, type KafkaError } from '../errors';
import { type ProducerConfigInput, resolveProducerConfig } from './ProducerConfig';

function rejects(input: ProducerConfigInput, key: string): KafkaError {
  try {
    resolveProducerConfig(input);
  } catch (e) {
    expect(isKafkaError(e, 'INVALID_CONFIG')).toBe(true);
    expect((e as KafkaError).details.key).toBe(key);
    return e as KafkaError;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('ProducerConfig', () => {
  it('has Kafka 3.9 defaults (apache/kafka 3.9 clients/.../producer/ProducerConfig.java CONFIG definitions: linger.ms 0, 5 only from 4.0 by KIP-1030)', () => {
    const c = resolveProducerConfig();
    expect(c).toMatchObject({
      acks: -1,
      batchSize: 16384,
      lingerMs: 0,
      retries: 2147483647,
      retryBackoffMs: 100,
      retryBackoffMaxMs: 1000, // CommonClientConfigs.DEFAULT_RETRY_BACKOFF_MAX_MS (KIP-580)
      deliveryTimeoutMs: 120000,
      requestTimeoutMs: 30000,
      maxInFlightRequestsPerConnection: 5,
      enableIdempotence: true,
      maxRequestSize: 1048576,
      bufferMemory: 33554432,
      partitioner: 'sticky',
    });
  });

  it('parses acks like ProducerConfig.parseAcks ("all" == -1)', () => {
    expect(resolveProducerConfig({ acks: 'all' }).acks).toBe(-1);
    expect(resolveProducerConfig({ acks: '-1' }).acks).toBe(-1);
    expect(resolveProducerConfig({ acks: 1, 'enable.idempotence': false }).acks).toBe(1);
    expect(resolveProducerConfig({ acks: '0', 'enable.idempotence': false }).acks).toBe(0);
    rejects({ acks: '2' as never }, 'acks');
  });

  it('quietly disables default idempotence when acks != all or retries = 0', () => {
    expect(resolveProducerConfig({ acks: 1 }).enableIdempotence).toBe(false);
    expect(resolveProducerConfig({ retries: 0 }).enableIdempotence).toBe(false);
  });

  it('refuses the same conflicts when idempotence was asked for explicitly', () => {
    rejects({ acks: 1, 'enable.idempotence': true }, 'acks');
    rejects({ retries: 0, 'enable.idempotence': true }, 'retries');
    expect(
      rejects(
        { 'max.in.flight.requests.per.connection': 6, 'enable.idempotence': true },
        'max.in.flight.requests.per.connection',
      ).message,
    ).toContain('Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer.');
    expect(
      resolveProducerConfig({ 'max.in.flight.requests.per.connection': 6, 'enable.idempotence': false })
        .maxInFlightRequestsPerConnection,
    ).toBe(6);
  });

  // KafkaProducerTest.testInflightRequestsAndIdempotenceForIdempotentProducers (3.9) and
  // ProducerConfig.postProcessAndValidateIdempotenceConfigs: 6 in flight with idempotence left at
  // its default turns idempotence off with a warning; 4.0 makes it an error.
  it('quietly disables default idempotence, with a warning, when max.in.flight.requests.per.connection > 5 (Kafka 3.9)', () => {
    const c = resolveProducerConfig({ 'max.in.flight.requests.per.connection': 6 });
    expect(c.enableIdempotence).toBe(false);
    expect(c.maxInFlightRequestsPerConnection).toBe(6);
    expect(c.warnings).toEqual([
      'Idempotence will be disabled because max.in.flight.requests.per.connection is set to 6, which is greater than 5. Please note that in v4.0.0 and onward, this will become an error.',
    ]);
    const five = resolveProducerConfig({ 'max.in.flight.requests.per.connection': 5 });
    expect(five.enableIdempotence).toBe(true);
    expect(five.warnings).toEqual([]);
  });

  it('checks delivery.timeout.ms >= linger.ms + request.timeout.ms (KafkaProducer.configureDeliveryTimeout)', () => {
    rejects({ 'delivery.timeout.ms': 1000, 'linger.ms': 10, 'request.timeout.ms': 1000 }, 'delivery.timeout.ms');
    // Not set by the user: raised to the sum instead.
    expect(resolveProducerConfig({ 'linger.ms': 100, 'request.timeout.ms': 130000 }).deliveryTimeoutMs).toBe(130100);
  });

  it('rejects bad ranges, types and unknown keys', () => {
    rejects({ 'batch.size': -1 }, 'batch.size');
    rejects({ 'linger.ms': 1.5 }, 'linger.ms');
    rejects({ 'max.in.flight.requests.per.connection': 0 }, 'max.in.flight.requests.per.connection');
    rejects({ 'enable.idempotence': 'yes' as never }, 'enable.idempotence');
    rejects({ partitioner: 'random' as never }, 'partitioner');
    rejects({ 'bogus.key': 1 } as never, 'bogus.key');
  });
});
