/** Time travel: seeking the run by deterministic replay, with checkpoints; the moments to step between. */
export { CHECKPOINT_EVERY_MS, MAX_CHECKPOINTS, TimeMachine, type TimeMachineOptions } from './TimeMachine';
export { Replica, type ReplaySource } from './Replica';
export { SegmentRolls } from './SegmentRolls';
export { MOMENT_KINDS, MOMENT_LABELS, type MomentKind, nextMoment } from './moments';
export type { ForkView, TravelView } from './types';
export { type ShownPast, TimeTravel } from './TimeTravel';
