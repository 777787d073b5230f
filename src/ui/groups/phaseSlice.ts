/** The group cards' rebalance phases: a slice of the page's one store (store.ts), driven by phaseBoard.ts. */
import type { PhaseQueue } from './phaseQueue';

export interface PhaseBoardState {
  queues: Record<string, PhaseQueue>;
}

export const initialPhaseBoardState: PhaseBoardState = { queues: {} };
