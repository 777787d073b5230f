import { describe, expect, it } from 'vitest';
import { type FetchPosition, SubscriptionState } from './SubscriptionState';

/**
 * Position validation (KIP-320), case for case from Kafka 3.9's SubscriptionStateTest
 * (clients/src/test/java/org/apache/kafka/clients/consumer/internals/SubscriptionStateTest.java):
 * the same offsets and epochs, the same expectations, against SubscriptionState.seekUnvalidated,
 * maybeValidatePositionForCurrentLeader and maybeCompleteValidation.
 */

const tp0 = { topic: 'test', partition: 0 };
const tp1 = { topic: 'test', partition: 1 };
const broker1 = 1;

/** Kafka's fixture: position 10 read at epoch 5, the leader at epoch 10. */
const currentEpoch = 10;
const initialOffset = 10;
const initialOffsetEpoch = 5;

function assigned(strategy: 'earliest' | 'latest' | 'none' = 'earliest'): SubscriptionState {
  const state = new SubscriptionState(strategy);
  state.assignManually([tp0]);
  return state;
}

const initialPosition: FetchPosition = {
  offset: initialOffset,
  offsetEpoch: initialOffsetEpoch,
  currentLeader: { leader: broker1, epoch: currentEpoch },
};

/** tp0 assigned and at `initialPosition`, awaiting validation (seekUnvalidated), as most tests start. */
function seekedUnvalidated(strategy: 'earliest' | 'latest' | 'none' = 'earliest'): SubscriptionState {
  const state = assigned(strategy);
  state.seekUnvalidated(tp0, initialPosition);
  return state;
}

/** The leader's answer in Kafka's tests: the position's epoch ends 5 offsets past it. */
const endOffsetPastPosition = { leaderEpoch: initialOffsetEpoch, endOffset: initialOffset + 5 };

describe('SubscriptionState: position validation (Kafka 3.9 SubscriptionStateTest)', () => {
  // Kafka 3.9 SubscriptionStateTest.testSeekUnvalidatedWithNoEpochClearsAwaitingValidation
  it('a position without an epoch needs no validation', () => {
    const state = seekedUnvalidated();
    expect(state.state(tp0)?.awaitingValidation).toBe(true);
    state.seekUnvalidated(tp0, { ...initialPosition, offsetEpoch: null });
    expect(state.state(tp0)?.awaitingValidation).toBe(false);
    expect(state.hasValidPosition(tp0)).toBe(true);
  });

  // Kafka 3.9 SubscriptionStateTest.testMaybeCompleteValidation
  it('an end offset past the position completes validation and keeps the position', () => {
    const state = seekedUnvalidated();
    expect(state.state(tp0)?.awaitingValidation).toBe(true);
    expect(state.maybeCompleteValidation(tp0, initialPosition, endOffsetPastPosition)).toBeNull();
    expect(state.state(tp0)?.awaitingValidation).toBe(false);
    expect(state.fetchPosition(tp0)).toEqual(initialPosition);
  });

  // Kafka 3.9 SubscriptionStateTest.testMaybeValidatePositionForCurrentLeader (the current API part)
  it('a position is validated when checked against the current leader, and a partition not assigned is skipped', () => {
    const state = seekedUnvalidated();
    expect(state.maybeValidatePositionForCurrentLeader(tp0, { leader: broker1, epoch: 10 })).toBe(true);
    expect(state.hasValidPosition(tp0)).toBe(false);
    expect(state.maybeValidatePositionForCurrentLeader(tp1, { leader: broker1, epoch: 10 })).toBe(false);
    expect(state.isAssigned(tp1)).toBe(false);
  });

  // Kafka 3.9 SubscriptionState.FetchState.maybeValidatePosition / validatePosition
  it('a validated position awaits validation again when the metadata names a new leader epoch', () => {
    const state = assigned();
    state.seekValidated(tp0, initialPosition);
    expect(state.maybeValidatePositionForCurrentLeader(tp0, initialPosition.currentLeader)).toBe(false);
    expect(state.maybeValidatePositionForCurrentLeader(tp0, { leader: 2, epoch: 11 })).toBe(true);
    expect(state.fetchPosition(tp0)).toEqual({ ...initialPosition, currentLeader: { leader: 2, epoch: 11 } });
    // Without an epoch for the position the new leader is taken as it is.
    state.seekValidated(tp0, { ...initialPosition, offsetEpoch: null });
    expect(state.maybeValidatePositionForCurrentLeader(tp0, { leader: 3, epoch: 12 })).toBe(false);
    expect(state.fetchPosition(tp0)?.currentLeader).toEqual({ leader: 3, epoch: 12 });
  });

  // Kafka 3.9 SubscriptionStateTest.testMaybeCompleteValidationAfterPositionChange
  it('an answer for a position that has moved since is ignored', () => {
    const state = seekedUnvalidated();
    const updatePosition: FetchPosition = {
      offset: 20,
      offsetEpoch: 8,
      currentLeader: { leader: broker1, epoch: currentEpoch },
    };
    state.seekUnvalidated(tp0, updatePosition);
    expect(state.maybeCompleteValidation(tp0, initialPosition, endOffsetPastPosition)).toBeNull();
    expect(state.state(tp0)?.awaitingValidation).toBe(true);
    expect(state.fetchPosition(tp0)).toEqual(updatePosition);
  });

  // Kafka 3.9 SubscriptionStateTest.testMaybeCompleteValidationAfterOffsetReset
  it('an answer after an offset reset was requested is ignored', () => {
    const state = seekedUnvalidated();
    state.requestOffsetReset(tp0);
    expect(state.maybeCompleteValidation(tp0, initialPosition, endOffsetPastPosition)).toBeNull();
    expect(state.state(tp0)?.awaitingValidation).toBe(false);
    expect(state.state(tp0)?.resetStrategy).toBe('earliest');
    expect(state.fetchPosition(tp0)).toBeNull();
  });

  // Kafka 3.9 SubscriptionStateTest.testTruncationDetectionWithResetPolicy
  it('truncation with a reset policy: the position moves back to the first offset known to diverge', () => {
    const state = seekedUnvalidated('earliest');
    const truncation = state.maybeCompleteValidation(tp0, initialPosition, { leaderEpoch: 7, endOffset: 5 });
    expect(truncation).toBeNull();
    expect(state.state(tp0)?.awaitingValidation).toBe(false);
    expect(state.fetchPosition(tp0)).toEqual({
      offset: 5,
      offsetEpoch: 7,
      currentLeader: { leader: broker1, epoch: currentEpoch },
    });
  });

  // Kafka 3.9 SubscriptionStateTest.testTruncationDetectionWithoutResetPolicy
  it('truncation without a reset policy: a LogTruncation with the divergent offset, still awaiting validation', () => {
    const state = seekedUnvalidated('none');
    const truncation = state.maybeCompleteValidation(tp0, initialPosition, { leaderEpoch: 7, endOffset: 5 });
    expect(truncation).toEqual({
      topic: 'test',
      partition: 0,
      fetchPosition: initialPosition,
      divergentOffset: { offset: 5, leaderEpoch: 7 },
    });
    expect(state.state(tp0)?.awaitingValidation).toBe(true);
  });

  // Kafka 3.9 SubscriptionStateTest.testTruncationDetectionUnknownDivergentOffsetWithResetPolicy
  it('an unknown epoch with a reset policy: an offset reset is requested', () => {
    const state = seekedUnvalidated('earliest');
    const truncation = state.maybeCompleteValidation(tp0, initialPosition, { leaderEpoch: -1, endOffset: -1 });
    expect(truncation).toBeNull();
    expect(state.state(tp0)?.awaitingValidation).toBe(false);
    // isOffsetResetNeeded, with resetStrategy EARLIEST
    expect(state.state(tp0)?.resetStrategy).toBe('earliest');
  });

  // Kafka 3.9 SubscriptionStateTest.testTruncationDetectionUnknownDivergentOffsetWithoutResetPolicy
  it('an unknown epoch without a reset policy: a LogTruncation with no divergent offset', () => {
    const state = seekedUnvalidated('none');
    const truncation = state.maybeCompleteValidation(tp0, initialPosition, { leaderEpoch: -1, endOffset: -1 });
    expect(truncation).toEqual({ topic: 'test', partition: 0, fetchPosition: initialPosition, divergentOffset: null });
    expect(state.state(tp0)?.awaitingValidation).toBe(true);
  });

  // Kafka 3.9 SubscriptionState.allConsumed: OffsetAndMetadata(position.offset, position.offsetEpoch, "")
  it('commits carry the position epoch', () => {
    const state = assigned();
    state.seekValidated(tp0, initialPosition);
    expect([...state.allConsumed().values()]).toEqual([
      { topic: 'test', partition: 0, offset: initialOffset, leaderEpoch: initialOffsetEpoch },
    ]);
  });
});
