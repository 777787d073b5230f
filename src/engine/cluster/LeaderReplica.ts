import type { UnifiedLog } from '../log/UnifiedLog';

/** A partition as its leader's replica serves it: the log produce appends to and fetch reads from. */
export interface LeaderReplica {
  broker: number;
  log: UnifiedLog;
  highWatermark: number;
  isr: number[];
  leaderEpoch: number;
}
