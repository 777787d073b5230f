/**
 * The states of a transactional id at its coordinator (Kafka 3.9's TransactionState, in
 * core/.../coordinator/transaction/TransactionMetadata.scala): each state's id is the
 * TransactionStatus byte `__transaction_state` records carry, its name is what
 * DescribeTransactions and ListTransactions answer, and its valid previous states are the
 * only states a transition to it may start from.
 */
import { IllegalStateException } from '../../errors';

export type TransactionState =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'Dead'
  | 'PrepareEpochFence';

interface StateFacts {
  readonly id: number;
  readonly validPreviousStates: readonly TransactionState[];
  /** Whether the transactional id may expire in this state (no transaction in flight). */
  readonly isExpirationAllowed: boolean;
}

const STATES: Readonly<Record<TransactionState, StateFacts>> = {
  // Not started yet; AddPartitionsToTxn or AddOffsetsToTxn moves it to Ongoing.
  Empty: { id: 0, validPreviousStates: ['Empty', 'CompleteCommit', 'CompleteAbort'], isExpirationAllowed: true },
  // Started; EndTxn moves it to PrepareCommit or PrepareAbort.
  Ongoing: {
    id: 1,
    validPreviousStates: ['Ongoing', 'Empty', 'CompleteCommit', 'CompleteAbort'],
    isExpirationAllowed: false,
  },
  // Committing: the markers are being written; once every partition acknowledged, CompleteCommit.
  PrepareCommit: { id: 2, validPreviousStates: ['Ongoing'], isExpirationAllowed: false },
  PrepareAbort: { id: 3, validPreviousStates: ['Ongoing', 'PrepareEpochFence'], isExpirationAllowed: false },
  CompleteCommit: { id: 4, validPreviousStates: ['PrepareCommit'], isExpirationAllowed: true },
  CompleteAbort: { id: 5, validPreviousStates: ['PrepareAbort'], isExpirationAllowed: true },
  // The transactional id expired and is about to leave the cache.
  Dead: { id: 6, validPreviousStates: ['Empty', 'CompleteAbort', 'CompleteCommit'], isExpirationAllowed: false },
  // Bumping the epoch to fence an older producer; always followed by PrepareAbort.
  PrepareEpochFence: { id: 7, validPreviousStates: ['Ongoing'], isExpirationAllowed: false },
};

/** TransactionState.AllStates, in id order. */
export const ALL_TRANSACTION_STATES: readonly TransactionState[] = (Object.keys(STATES) as TransactionState[]).sort(
  (a, b) => STATES[a].id - STATES[b].id,
);

/** The TransactionStatus byte of `__transaction_state` values. */
export function transactionStateId(state: TransactionState): number {
  return STATES[state].id;
}

/** TransactionState.fromId: an unknown id is an IllegalStateException, as in Kafka. */
export function transactionStateFromId(id: number): TransactionState {
  const state = ALL_TRANSACTION_STATES[id];
  if (!Number.isInteger(id) || state === undefined) {
    throw new IllegalStateException(`Unknown transaction state id ${id} from the transaction status message`);
  }
  return state;
}

/** TransactionState.fromName. */
export function transactionStateFromName(name: string): TransactionState | undefined {
  return ALL_TRANSACTION_STATES.find((s) => s === name);
}

export function validPreviousStates(state: TransactionState): readonly TransactionState[] {
  return STATES[state].validPreviousStates;
}

export function isExpirationAllowed(state: TransactionState): boolean {
  return STATES[state].isExpirationAllowed;
}
