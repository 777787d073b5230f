/** Builds the LessonWorld a lesson's conditions read, from one ClusterApps and its DataPath. */
import { type DataPath, lookupView, murmur2, segmentDump, toPositive } from '../../index';
import type { ClusterApps } from '../ClusterApps';
import type { LessonJournal } from './journal';
import type { LessonWorld } from './types';

const utf8 = new TextEncoder();

export function lessonWorld(apps: ClusterApps, data: DataPath, journal: LessonJournal): LessonWorld {
  const topics = new Set(data.topics());
  return {
    view: apps.view(),
    panel: { acked: apps.panel?.acked ?? 0, failed: apps.panel?.failed ?? 0, lastError: apps.panel?.lastError ?? null },
    journal: journal.entries,
    offsets: journal.offsets,
    logs: data.views().filter((v) => !v.topic.startsWith('__')),
    lookup: (topic, partition, target) => lookupView(topic, partition, data.log(topic, partition), target),
    batchCount(topic, partition, fromOffset = 0) {
      if (!topics.has(topic)) return 0;
      const log = data.log(topic, partition);
      let n = 0;
      for (const s of log.logSegments)
        n += segmentDump(topic, partition, log, s.baseOffset, false).batches.filter(
          (b) => b.baseOffset >= fromOffset,
        ).length;
      return n;
    },
    partitionForKey: (key, partitions) => toPositive(murmur2(utf8.encode(key))) % partitions,
  };
}
