/**
 * A transactional id's state at its coordinator (Kafka 3.9's TransactionMetadata and
 * TxnTransitMetadata, core/.../coordinator/transaction/TransactionMetadata.scala).
 *
 * Every change is two steps, because the coordinator must write it to `__transaction_state`
 * (acks=all) before it holds: a `prepare*` method checks the transition and returns the target
 * as an immutable TxnTransitMetadata, setting `pendingState` so no second transition can start;
 * once the record is replicated, `completeTransitionTo` checks the target against the current
 * metadata and applies it. A failed write clears `pendingState` instead.
 */
import { IllegalArgumentException, IllegalStateException } from '../../errors';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../../codec/batchLayout';
import { tpKey } from '../../TopicPartition';
import { type TransactionState, validPreviousStates } from './TransactionState';

/** Short.MaxValue: a producer epoch is an int16. */
const SHORT_MAX_VALUE = 32767;

export interface TxnTopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** A set of partitions keyed by `<topic>-<partition>`, in insertion order. */
export type TxnPartitionSet = ReadonlyMap<string, TxnTopicPartition>;

export function txnPartitionSet(partitions: Iterable<TxnTopicPartition>): Map<string, TxnTopicPartition> {
  const set = new Map<string, TxnTopicPartition>();
  for (const tp of partitions) set.set(tpKey(tp.topic, tp.partition), { topic: tp.topic, partition: tp.partition });
  return set;
}

/** The target of a transition, as `valueToBytes` writes it (Kafka's TxnTransitMetadata). */
export interface TxnTransitMetadata {
  readonly producerId: number;
  readonly lastProducerId: number;
  readonly producerEpoch: number;
  readonly lastProducerEpoch: number;
  readonly txnTimeoutMs: number;
  readonly txnState: TransactionState;
  readonly topicPartitions: TxnPartitionSet;
  readonly txnStartTimestamp: number;
  readonly txnLastUpdateTimestamp: number;
}

/** What prepareIncrementProducerEpoch answers instead of a transition: the producer is a zombie. */
export type EpochBumpResult = { readonly transit: TxnTransitMetadata } | { readonly error: 'PRODUCER_FENCED' };

export interface TransactionMetadataInit {
  transactionalId: string;
  producerId: number;
  lastProducerId?: number;
  producerEpoch: number;
  lastProducerEpoch?: number;
  txnTimeoutMs: number;
  state: TransactionState;
  topicPartitions?: Iterable<TxnTopicPartition>;
  txnStartTimestamp?: number;
  txnLastUpdateTimestamp: number;
}

/** TransactionMetadata.isEpochExhausted: Short.MaxValue stays free so a fence can always bump. */
export function isEpochExhausted(producerEpoch: number): boolean {
  return producerEpoch >= SHORT_MAX_VALUE - 1;
}

function isSubset(a: TxnPartitionSet, b: TxnPartitionSet): boolean {
  for (const key of a.keys()) if (!b.has(key)) return false;
  return true;
}

export class TransactionMetadata {
  readonly transactionalId: string;
  producerId: number;
  lastProducerId: number;
  producerEpoch: number;
  lastProducerEpoch: number;
  txnTimeoutMs: number;
  state: TransactionState;
  readonly topicPartitions: Map<string, TxnTopicPartition>;
  txnStartTimestamp: number;
  txnLastUpdateTimestamp: number;
  /** The state a prepared transition is heading for; blocks any other until it completes or fails. */
  pendingState: TransactionState | null = null;
  /** A fence whose bumped epoch may not have reached the log: the next fence does not bump again. */
  hasFailedEpochFence = false;

  constructor(init: TransactionMetadataInit) {
    this.transactionalId = init.transactionalId;
    this.producerId = init.producerId;
    this.lastProducerId = init.lastProducerId ?? NO_PRODUCER_ID;
    this.producerEpoch = init.producerEpoch;
    this.lastProducerEpoch = init.lastProducerEpoch ?? NO_PRODUCER_EPOCH;
    this.txnTimeoutMs = init.txnTimeoutMs;
    this.state = init.state;
    this.topicPartitions = txnPartitionSet(init.topicPartitions ?? []);
    this.txnStartTimestamp = init.txnStartTimestamp ?? -1;
    this.txnLastUpdateTimestamp = init.txnLastUpdateTimestamp;
  }

  addPartitions(partitions: Iterable<TxnTopicPartition>): void {
    for (const [key, tp] of txnPartitionSet(partitions)) this.topicPartitions.set(key, tp);
  }

  /** A partition whose marker was written leaves the set; only while the markers are being written. */
  removePartition(tp: TxnTopicPartition): void {
    if (this.state !== 'PrepareCommit' && this.state !== 'PrepareAbort') {
      throw new IllegalStateException(
        `Transaction metadata's current state is ${this.state}, and its pending state is ${this.pendingState} ` +
          'while trying to remove partitions whose txn marker has been sent, this is not expected',
      );
    }
    this.topicPartitions.delete(tpKey(tp.topic, tp.partition));
  }

  get isProducerEpochExhausted(): boolean {
    return isEpochExhausted(this.producerEpoch);
  }

  get pendingTransitionInProgress(): boolean {
    return this.pendingState !== null;
  }

  /** The current metadata as a transit, without a pending state (Kafka: visible for tests). */
  prepareNoTransit(): TxnTransitMetadata {
    return {
      producerId: this.producerId,
      lastProducerId: this.lastProducerId,
      producerEpoch: this.producerEpoch,
      lastProducerEpoch: this.lastProducerEpoch,
      txnTimeoutMs: this.txnTimeoutMs,
      txnState: this.state,
      topicPartitions: new Map(this.topicPartitions),
      txnStartTimestamp: this.txnStartTimestamp,
      txnLastUpdateTimestamp: this.txnLastUpdateTimestamp,
    };
  }

  /** Fencing an older producer: bump the epoch (unless the last fence's write failed) and head for PrepareEpochFence. */
  prepareFenceProducerEpoch(): TxnTransitMetadata {
    if (this.producerEpoch === SHORT_MAX_VALUE) {
      throw new IllegalStateException(
        'Cannot fence producer with epoch equal to Short.MaxValue since this would overflow',
      );
    }
    const bumpedEpoch = this.hasFailedEpochFence ? this.producerEpoch : this.producerEpoch + 1;
    return this.prepareTransitionTo(
      'PrepareEpochFence',
      this.producerId,
      bumpedEpoch,
      NO_PRODUCER_EPOCH,
      this.txnTimeoutMs,
      this.topicPartitions,
      this.txnStartTimestamp,
      this.txnLastUpdateTimestamp,
    );
  }

  /**
   * InitProducerId on an existing transactional id: bump the epoch (KIP-360: a producer naming
   * its current epoch continues after an error; naming the last epoch is a retry of a bump that
   * succeeded; any other epoch is fenced).
   */
  prepareIncrementProducerEpoch(
    newTxnTimeoutMs: number,
    expectedProducerEpoch: number | null,
    updateTimestamp: number,
  ): EpochBumpResult {
    if (this.isProducerEpochExhausted) {
      throw new IllegalStateException(`Cannot allocate any more producer epochs for producerId ${this.producerId}`);
    }
    const bumpedEpoch = this.producerEpoch + 1;
    let next: [number, number];
    if (expectedProducerEpoch === null) {
      // A new producer (epoch -1 becomes 0) or one that does not know its epoch: no last epoch to keep.
      next = [bumpedEpoch, NO_PRODUCER_EPOCH];
    } else if (this.producerEpoch === NO_PRODUCER_EPOCH || expectedProducerEpoch === this.producerEpoch) {
      next = [bumpedEpoch, this.producerEpoch];
    } else if (expectedProducerEpoch === this.lastProducerEpoch) {
      // A retry of a bump that already succeeded: answer the current epoch again.
      next = [this.producerEpoch, this.lastProducerEpoch];
    } else {
      return { error: 'PRODUCER_FENCED' };
    }
    return {
      transit: this.prepareTransitionTo(
        'Empty',
        this.producerId,
        next[0],
        next[1],
        newTxnTimeoutMs,
        new Map(),
        -1,
        updateTimestamp,
      ),
    };
  }

  /** A new producer id once the epochs of this one are exhausted (epoch 0 again). */
  prepareProducerIdRotation(
    newProducerId: number,
    newTxnTimeoutMs: number,
    updateTimestamp: number,
    recordLastEpoch: boolean,
  ): TxnTransitMetadata {
    if (this.hasPendingTransaction) {
      throw new IllegalStateException('Cannot rotate producer ids while a transaction is still pending');
    }
    return this.prepareTransitionTo(
      'Empty',
      newProducerId,
      0,
      recordLastEpoch ? this.producerEpoch : NO_PRODUCER_EPOCH,
      newTxnTimeoutMs,
      new Map(),
      -1,
      updateTimestamp,
    );
  }

  /** AddPartitionsToTxn / AddOffsetsToTxn: a transaction starts (its start time) or grows. */
  prepareAddPartitions(added: Iterable<TxnTopicPartition>, updateTimestamp: number): TxnTransitMetadata {
    const startsNow = this.state === 'Empty' || this.state === 'CompleteAbort' || this.state === 'CompleteCommit';
    const partitions = new Map(this.topicPartitions);
    for (const [key, tp] of txnPartitionSet(added)) partitions.set(key, tp);
    return this.prepareTransitionOfSameProducer(
      'Ongoing',
      partitions,
      startsNow ? updateTimestamp : this.txnStartTimestamp,
      updateTimestamp,
    );
  }

  /** EndTxn: PrepareCommit or PrepareAbort, the partitions kept for the markers. */
  prepareAbortOrCommit(newState: TransactionState, updateTimestamp: number): TxnTransitMetadata {
    return this.prepareTransitionOfSameProducer(
      newState,
      new Map(this.topicPartitions),
      this.txnStartTimestamp,
      updateTimestamp,
    );
  }

  /** Every marker written: CompleteCommit or CompleteAbort, with no partitions left. */
  prepareComplete(updateTimestamp: number): TxnTransitMetadata {
    const newState: TransactionState = this.state === 'PrepareCommit' ? 'CompleteCommit' : 'CompleteAbort';
    // The prepare state reached the log, so a failed fence before it no longer matters.
    this.hasFailedEpochFence = false;
    return this.prepareTransitionOfSameProducer(newState, new Map(), this.txnStartTimestamp, updateTimestamp);
  }

  /** The transactional id expired (transactional.id.expiration.ms). */
  prepareDead(): TxnTransitMetadata {
    return this.prepareTransitionOfSameProducer('Dead', new Map(), this.txnStartTimestamp, this.txnLastUpdateTimestamp);
  }

  /**
   * prepareTransitionTo with this producer's id, epochs and timeout kept, as Kafka's
   * prepareAddPartitions, prepareAbortOrCommit, prepareComplete and prepareDead pass them.
   */
  private prepareTransitionOfSameProducer(
    newState: TransactionState,
    newTopicPartitions: TxnPartitionSet,
    newTxnStartTimestamp: number,
    updateTimestamp: number,
  ): TxnTransitMetadata {
    return this.prepareTransitionTo(
      newState,
      this.producerId,
      this.producerEpoch,
      this.lastProducerEpoch,
      this.txnTimeoutMs,
      newTopicPartitions,
      newTxnStartTimestamp,
      updateTimestamp,
    );
  }

  private get hasPendingTransaction(): boolean {
    return this.state === 'Ongoing' || this.state === 'PrepareAbort' || this.state === 'PrepareCommit';
  }

  private prepareTransitionTo(
    newState: TransactionState,
    newProducerId: number,
    newEpoch: number,
    newLastEpoch: number,
    newTxnTimeoutMs: number,
    newTopicPartitions: TxnPartitionSet,
    newTxnStartTimestamp: number,
    updateTimestamp: number,
  ): TxnTransitMetadata {
    if (this.pendingState !== null) {
      throw new IllegalStateException(
        `Preparing transaction state transition to ${newState} while it already a pending state ${this.pendingState}`,
      );
    }
    if (newProducerId < 0) throw new IllegalArgumentException(`Illegal new producer id ${newProducerId}`);
    // A metadata created with epoch -1 may stay so until it goes Dead.
    if (newState !== 'Dead' && newEpoch < 0)
      throw new IllegalArgumentException(`Illegal new producer epoch ${newEpoch}`);
    if (!validPreviousStates(newState).includes(this.state)) {
      throw new IllegalStateException(
        `Preparing transaction state transition to ${newState} failed since the target state ${newState} ` +
          `is not a valid previous state of the current state ${this.state}`,
      );
    }
    this.pendingState = newState;
    return {
      producerId: newProducerId,
      // Kafka records the current producer id as the last one, whichever transition this is.
      lastProducerId: this.producerId,
      producerEpoch: newEpoch,
      lastProducerEpoch: newLastEpoch,
      txnTimeoutMs: newTxnTimeoutMs,
      txnState: newState,
      topicPartitions: newTopicPartitions,
      txnStartTimestamp: newTxnStartTimestamp,
      txnLastUpdateTimestamp: updateTimestamp,
    };
  }

  /** Applies a transit once its record is in the log, after checking it is the one prepared. */
  completeTransitionTo(transit: TxnTransitMetadata): void {
    const toState = this.pendingState;
    if (toState === null) {
      throw new IllegalStateException(
        `TransactionalId ${this.transactionalId} completing transaction state transition while it does not have a pending state`,
      );
    }
    if (toState !== transit.txnState) this.throwStateTransitionFailure(transit);
    switch (toState) {
      case 'Empty': // InitProducerId
        if (
          (this.producerEpoch !== transit.producerEpoch && !this.validProducerEpochBump(transit)) ||
          transit.topicPartitions.size > 0 ||
          transit.txnStartTimestamp !== -1
        ) {
          this.throwStateTransitionFailure(transit);
        }
        this.txnTimeoutMs = transit.txnTimeoutMs;
        this.producerEpoch = transit.producerEpoch;
        this.lastProducerEpoch = transit.lastProducerEpoch;
        this.producerId = transit.producerId;
        this.lastProducerId = transit.lastProducerId;
        break;
      case 'Ongoing': // AddPartitionsToTxn
        if (
          !this.validProducerEpoch(transit) ||
          !isSubset(this.topicPartitions, transit.topicPartitions) ||
          this.txnTimeoutMs !== transit.txnTimeoutMs
        ) {
          this.throwStateTransitionFailure(transit);
        }
        this.txnStartTimestamp = transit.txnStartTimestamp;
        this.addPartitions(transit.topicPartitions.values());
        break;
      case 'PrepareAbort':
      case 'PrepareCommit': // EndTxn
        if (
          !this.validProducerEpoch(transit) ||
          this.topicPartitions.size !== transit.topicPartitions.size ||
          !isSubset(this.topicPartitions, transit.topicPartitions) ||
          this.txnTimeoutMs !== transit.txnTimeoutMs ||
          this.txnStartTimestamp !== transit.txnStartTimestamp
        ) {
          this.throwStateTransitionFailure(transit);
        }
        break;
      case 'CompleteAbort':
      case 'CompleteCommit': // the markers are written
        if (
          !this.validProducerEpoch(transit) ||
          this.txnTimeoutMs !== transit.txnTimeoutMs ||
          transit.txnStartTimestamp === -1
        ) {
          this.throwStateTransitionFailure(transit);
        }
        this.txnStartTimestamp = transit.txnStartTimestamp;
        this.topicPartitions.clear();
        break;
      case 'PrepareEpochFence':
        // A fence is always followed by PrepareAbort, which replaces its pending state: never completed.
        this.throwStateTransitionFailure(transit);
        break;
      case 'Dead':
        // An expired id leaves the cache; Dead is never written as its state.
        throw new IllegalStateException(
          `TransactionalId ${this.transactionalId} is trying to complete a transition to ${toState}. This means that ` +
            'the transactionalId was being expired, and the only acceptable completion of this operation is to remove ' +
            `the transaction metadata from the cache, not to persist the ${toState} in the log.`,
        );
    }
    this.txnLastUpdateTimestamp = transit.txnLastUpdateTimestamp;
    this.pendingState = null;
    this.state = toState;
  }

  private validProducerEpoch(transit: TxnTransitMetadata): boolean {
    return transit.producerEpoch === this.producerEpoch && transit.producerId === this.producerId;
  }

  private validProducerEpochBump(transit: TxnTransitMetadata): boolean {
    return (
      transit.producerEpoch === this.producerEpoch + 1 ||
      (transit.producerEpoch === 0 && transit.producerId !== this.producerId)
    );
  }

  private throwStateTransitionFailure(transit: TxnTransitMetadata): never {
    throw new IllegalStateException(
      `TransactionalId ${this.transactionalId} failed transition to state ${transit.txnState} due to unexpected metadata`,
    );
  }
}
