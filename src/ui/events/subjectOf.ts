/**
 * Where an event log entry's subject is drawn, so choosing the entry can bring it into view: a
 * commit or a rebalance is about its group's card (the board's groups tab); an election, an ISR
 * change, a retention pass or a refused produce about its partition's log in the topic's list
 * (the learner's own topics; an internal partition's broker instead); a broker or controller event
 * about the broker's card (the board's cluster tab). Pure, so it is tested in Node.
 */
import type { EventLogEntry } from '../../engine/apps/types';
import type { BoardTab } from '../cluster/boardSlice';

export interface Subject {
  /** The board's tab the element is in (null: it is outside the board, in the topic's list). */
  tab: BoardTab | null;
  /** The element's data-testid. */
  testid: string;
}

export function subjectOf(e: Pick<EventLogEntry, 'kind' | 'partitions' | 'groups' | 'brokers'>): Subject | null {
  const group = e.groups[0];
  const partition = e.partitions.find((p) => !p.startsWith('__'));
  const broker = e.brokers[0];
  const onGroup = group !== undefined ? { tab: 'groups' as const, testid: `group-${group}` } : null;
  const onPartition = partition !== undefined ? { tab: null, testid: `partition-${partition}` } : null;
  const onBroker = broker !== undefined ? { tab: 'cluster' as const, testid: `broker-${broker}` } : null;
  switch (e.kind) {
    case 'commit':
    case 'rebalance':
      return onGroup ?? onPartition ?? onBroker;
    case 'election':
    case 'isr':
    case 'retention':
    case 'producer':
      return onPartition ?? onBroker ?? onGroup;
    default:
      return onBroker ?? onPartition ?? onGroup;
  }
}
