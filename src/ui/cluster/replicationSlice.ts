/**
 * Replication in lock-step with its tokens: the slice of the page's one store (store.ts) that
 * replicationHold.ts drives. What the components draw (each partition's drawn state, the
 * messages whose tokens fly) sits beside the hold's working state: the one token schedule, the
 * partitions' timelines and the messages already taken in.
 */
import type { BoardMessageView, BoardPartitionView } from '../../engine/apps/types';
import type { Timeline } from './partitionTimeline';
import { newSchedule, type TokenSchedule } from './tokenSchedule';

export interface ReplicationState {
  /** By `<topic>-<partition>`: the state each partition with a timeline draws now. */
  drawn: Record<string, BoardPartitionView>;
  /** Whether the tokens play in step now. */
  inStep: boolean;
  /** The topic the partition rows draw (their tokens), or null. */
  rowTopic: string | null;
  /** True while the brokers board is on the page drawing the messages. */
  drawing: boolean;
  /**
   * The messages whose tokens are drawn: the last view's, plus those gone from it (their linger
   * over) whose tokens have not landed yet, in engine order. A token leaves the screen when it
   * lands, not when the worker stops listing its message.
   */
  messages: readonly BoardMessageView[];
  /** By `<topic>-<partition>`: when its ISR last changed (engine ms since the scenario started). */
  isrChangedAt: Record<string, number>;
  /** The one token schedule: the board's and the rows' tokens and the timelines read it (mutated as views come). */
  tokens: TokenSchedule;
  /** By `<topic>-<partition>`: the partitions drawn in step (mutated as tokens land). */
  timelines: Map<string, Timeline>;
  /** Messages of the last view that had arrived (their changes are in the timelines already). */
  taken: ReadonlySet<number>;
  /** The LeaderAndIsr requests seen lately: when a new leader may be drawn. */
  leaderAndIsr: readonly { id: number; to: number; sentAtMs: number }[];
  /** The last view's engine time (ms since the scenario started), or null before one. */
  lastNowMs: number | null;
  /** The wake at the next landing. */
  timer: ReturnType<typeof setTimeout> | null;
}

/** Nothing queued, a new schedule: the page's start and a replaced cluster. */
export function initialReplicationState(): ReplicationState {
  return {
    drawn: {},
    inStep: false,
    rowTopic: null,
    drawing: false,
    messages: [],
    isrChangedAt: {},
    tokens: newSchedule(),
    timelines: new Map(),
    taken: new Set(),
    leaderAndIsr: [],
    lastNowMs: null,
    timer: null,
  };
}
