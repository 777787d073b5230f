import type { ManualClock, Store, StoreWriter } from '../index';
import type { ClusterApps } from './ClusterApps';
import type { EngineEvent } from './types';

/**
 * A cluster that runs on its own (the Node host's, on wall-clock time, the engine real Kafka
 * clients talk to), which a page's EngineHost serves instead of building one: it never ticks it
 * (the host does), never replaces it (a scenario, a reset, time travel are refused) and writes no
 * scenario link for it. Several pages may watch one: each has its own event queue.
 */
export interface HostedRun {
  apps: ClusterApps;
  store: Store;
  writer: StoreWriter;
  clock: ManualClock;
  /** This page's animated board events since it last took them. */
  takeEvents(): EngineEvent[];
  /** Whether what the engine writes reaches files that outlive the process (`--data`). */
  durable: boolean;
}
