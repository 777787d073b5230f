import type { ReplicaLog } from './ReplicaLog';

/** One replica's log on this broker's disk, in one of its log dirs. */
export interface HostedLog {
  topic: string;
  partition: number;
  dir: string;
  log: ReplicaLog;
  /** replication-offset-checkpoint: the HW last written to disk. */
  checkpointedHighWatermark: number;
}
