/** What replacing the running cluster (by a preset, a guide or a link) would throw away. */
import type { DataPath } from '../index';
import type { ClusterApps } from './ClusterApps';
import type { DiscardView } from './types';

export function discardView(
  apps: ClusterApps,
  data: DataPath,
  presetTopics: ReadonlySet<string>,
  userRecords: number,
  replaces: boolean,
): DiscardView {
  const topics = storedTopics(data, data.topics());
  const added = topics.some((t) => !presetTopics.has(t.name));
  const onlyPreset = apps.actions.length === 0 && !added && userRecords === 0;
  return { replaces, onlyPreset, topics, actions: apps.actions.length, replay: null };
}

/** Each topic named with its partitions and records (log end minus log start, summed), as a question names it. */
export function storedTopics(data: DataPath, names: readonly string[]): DiscardView['topics'] {
  return names.map((name) => {
    const n = data.partitionCount(name);
    let records = 0;
    for (let p = 0; p < n; p++) {
      const log = data.replica(name, p)?.log;
      if (log) records += log.logEndOffset - log.logStartOffset;
    }
    return { name, partitions: n, records };
  });
}
