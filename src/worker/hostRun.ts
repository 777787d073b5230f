/** The host's live run: the cluster and everything the worker keeps beside it. */
import type { DataPath, ManualClock, Store, StoreWriter, UnifiedLog } from '../engine';
import type { ClusterApps, ProducerApp } from '../engine/apps';

export interface Running {
  store: Store;
  writer: StoreWriter;
  clock: ManualClock;
  plane: ClusterApps;
  data: DataPath;
  producer: ProducerApp;
  recovered: Map<string, UnifiedLog>;
  /** Topics the preset creates (a scenario check does not count them as the user's). */
  presetTopics: ReadonlySet<string>;
  /** Records sent from the producer panel (one by one or as jobs): no replay brings them back. */
  userRecords: number;
}
