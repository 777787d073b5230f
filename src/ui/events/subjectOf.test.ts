import { describe, expect, it } from 'vitest';
import { subjectOf } from './subjectOf';

const entry = (kind: string, about: { partitions?: string[]; groups?: string[]; brokers?: number[] }) =>
  ({ kind, partitions: [], groups: [], brokers: [], ...about }) as Parameters<typeof subjectOf>[0];

describe('subjectOf: where a chosen event is drawn', () => {
  it("a commit or a rebalance: its group's card, in the board's groups tab", () => {
    expect(subjectOf(entry('commit', { groups: ['billing'], partitions: ['orders-1'] }))).toEqual({
      tab: 'groups',
      testid: 'group-billing',
    });
    expect(subjectOf(entry('rebalance', { groups: ['analytics'], brokers: [2] }))?.testid).toBe('group-analytics');
  });

  it("an election or an ISR change: the learner's partition first, never __consumer_offsets", () => {
    expect(subjectOf(entry('election', { partitions: ['__consumer_offsets-3', 'orders-2'], brokers: [3] }))).toEqual({
      tab: null,
      testid: 'partition-orders-2',
    });
    expect(subjectOf(entry('isr', { partitions: ['__consumer_offsets-3'], brokers: [1] }))).toEqual({
      tab: 'cluster',
      testid: 'broker-1',
    });
  });

  it("a broker or controller event: the broker's card in the cluster tab; nothing to show, null", () => {
    expect(subjectOf(entry('broker', { brokers: [2] }))).toEqual({ tab: 'cluster', testid: 'broker-2' });
    expect(subjectOf(entry('controller', {}))).toBeNull();
  });
});
