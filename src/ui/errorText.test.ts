import { describe, expect, it } from 'vitest';
import { errorText } from './errorText';

describe('errorText names the Kafka error once', () => {
  it('a KafkaError that crossed from the worker is shown as its message, not "<code>: <code>: ..."', () => {
    // A WorkerError as serializeError sent it for a KafkaError: the message already begins with the code.
    const e = Object.assign(new Error(), {
      name: 'KafkaError',
      code: 'INVALID_REPLICATION_FACTOR',
      message: 'INVALID_REPLICATION_FACTOR: Replication factor: 5 larger than available brokers: 4.',
    });
    expect(errorText(e)).toBe('INVALID_REPLICATION_FACTOR: Replication factor: 5 larger than available brokers: 4.');
  });

  it('adds the code to a message that lacks it, and the name of a non-Kafka error', () => {
    expect(errorText({ code: 'INVALID_CONFIG', name: 'KafkaError', message: 'bad' })).toBe('INVALID_CONFIG: bad');
    expect(errorText({ code: null, name: 'QuotaExceededError', message: 'full' })).toBe('QuotaExceededError: full');
    expect(errorText(new Error('plain'))).toBe('plain');
  });
});
