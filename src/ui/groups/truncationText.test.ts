import { describe, expect, it } from 'vitest';
import { truncationText } from './truncationText';

/**
 * The card's words for each outcome of Kafka 3.9's SubscriptionState.maybeCompleteValidation:
 * a seek to the divergent offset (reset policy), a reset for an unknown epoch, and
 * LogTruncationException (auto.offset.reset none).
 */
const base = { topic: 'payments', partition: 0, fetchOffset: 30, offsetEpoch: 1, atMs: 0 };

describe('truncationText', () => {
  it('says where the truncation was found and where the consumer went', () => {
    expect(truncationText({ ...base, divergentOffset: 10, outcome: 'seek' })).toBe(
      'log truncation detected on payments-0 at offset 30 (epoch 1): reset to 10',
    );
    expect(truncationText({ ...base, divergentOffset: 10, outcome: 'LogTruncationException' })).toBe(
      'log truncation detected on payments-0 at offset 30 (epoch 1): LogTruncationException (diverges at 10)',
    );
    expect(truncationText({ ...base, offsetEpoch: null, divergentOffset: null, outcome: 'reset' })).toBe(
      'log truncation detected on payments-0 at offset 30: the leader has no such epoch, reset per auto.offset.reset',
    );
  });
});
