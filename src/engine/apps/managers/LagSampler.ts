/**
 * Consumer lag: each group's committed lag per partition sampled every engine second for the lag
 * chart (the last 60 samples), and the two lags a group's card and records-lag-max read now.
 */
import type { Engine } from '../../index';
import { clientGroupIds } from '../clientGroups';
import { comparePartitions } from '../comparePartitions';
import type { LagHistoryView } from '../types';
import type { BoardRead } from './Board';
import { toScenarioMs } from '../scenarioTime';

/** How often each group's lag is sampled for the lag chart. */
const LAG_SAMPLE_MS = 1000;
const LAG_HISTORY = 60;

/** What the views and the metrics read of consumer lag. */
export interface LagRead {
  /** A group's sampled lag history, partitions in order. */
  historyOf(groupId: string): LagHistoryView;
  /**
   * The largest HW − fetch position over the partitions the group's running consumers own, each
   * from the HW its consumer's last fetch reported (SubscriptionState.partitionLag, which the
   * consumer's records-lag-max takes its max of); null while none has fetched.
   */
  fetchLag(groupId: string): number | null;
  /** The group's largest HW − committed offset over its partitions: kafka-consumer-groups --describe's LAG. */
  committedLag(groupId: string): number | null;
}

export class LagSampler implements LagRead {
  /** group -> `topic-partition` -> [engine ms since the scenario started, lag] samples. */
  private readonly history = new Map<string, Map<string, [number, number][]>>();
  private readonly task: { cancel(): void };

  constructor(
    private readonly engine: Engine,
    private readonly board: BoardRead,
    /** Whether real clients' groups (the Node host's) are sampled too. */
    private readonly clientGroups: boolean,
  ) {
    this.task = engine.cluster.scheduler.schedulePeriodic(LAG_SAMPLE_MS, LAG_SAMPLE_MS, () => this.sample());
  }

  dispose(): void {
    this.task.cancel();
  }

  historyOf(groupId: string): LagHistoryView {
    const byPartition = this.history.get(groupId) ?? new Map<string, [number, number][]>();
    return packLag([...byPartition].sort(([a], [b]) => comparePartitions(a, b)));
  }

  fetchLag(groupId: string): number | null {
    const groups = this.engine.groups;
    let max: number | null = null;
    for (const e of this.board.consumers.values()) {
      if (e.group !== groupId) continue;
      const consumer = groups.consumers.get(e.name);
      if (!consumer || !this.board.running(e.name)) continue;
      for (const a of groups.consumerSnapshot(consumer).assignment) {
        if (a.position === null || a.highWatermark === null) continue;
        const lag = Math.max(0, a.highWatermark - a.position);
        if (max === null || lag > max) max = lag;
      }
    }
    return max;
  }

  committedLag(groupId: string): number | null {
    let max: number | null = null;
    for (const r of this.engine.describeGroup(groupId))
      if (r.lag !== null && (max === null || r.lag > max)) max = r.lag;
    return max;
  }

  private sample(): void {
    const logEnds = new Map<string, number>();
    const nowMs = toScenarioMs(this.engine.now());
    for (const groupId of [
      ...this.board.groups.keys(),
      ...clientGroupIds(this.engine, this.board, this.clientGroups),
    ]) {
      const rows = this.engine.groups.describeGroup(groupId, logEnds);
      let byPartition = this.history.get(groupId);
      if (!byPartition) this.history.set(groupId, (byPartition = new Map()));
      for (const r of rows) {
        if (r.lag === null) continue;
        const key = `${r.topic}-${r.partition}`;
        const h = byPartition.get(key) ?? [];
        h.push([nowMs, r.lag]);
        if (h.length > LAG_HISTORY) h.shift();
        byPartition.set(key, h);
      }
    }
  }
}

/** (partition, samples) lists -> LagHistoryView. */
export function packLag(histories: [string, [number, number][]][]): LagHistoryView {
  const start = new Uint32Array(histories.length + 1);
  let n = 0;
  histories.forEach(([, h], i) => {
    start[i] = n;
    n += h.length;
  });
  start[histories.length] = n;
  const data = new Float64Array(n * 2);
  let k = 0;
  for (const [, h] of histories)
    for (const [t, lag] of h) {
      data[k++] = t;
      data[k++] = lag;
    }
  return { partitions: histories.map(([p]) => p), start, data };
}
