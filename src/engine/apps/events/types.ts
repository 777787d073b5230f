/** The one event log's view: what happened in the cluster, oldest first, each with what it is about. */
export const EVENT_KINDS = [
  'broker',
  'controller',
  'election',
  'isr',
  'producer',
  'rebalance',
  'commit',
  'retention',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export interface EventLogEntry {
  /** Unique and increasing: the order things happened in. */
  n: number;
  kind: EventKind;
  /** The engine event it came from (the first one, when several at one instant were folded together). */
  type: string;
  /** Engine ms since the scenario started. */
  atMs: number;
  /** The latest event folded into this entry. */
  lastAtMs: number;
  /** How many engine events this entry stands for. */
  count: number;
  text: string;
  topics: string[];
  /** `<topic>-<partition>` of each partition it is about. */
  partitions: string[];
  groups: string[];
  brokers: number[];
}

export interface EventLogView {
  /** Bumps on every new or grown entry; the page redraws only a new version. */
  version: number;
  entries: EventLogEntry[];
}
