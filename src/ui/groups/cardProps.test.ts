import { describe, expect, it } from 'vitest';
import type { BoardConsumerView, BoardGroupView, BoardView } from '../../engine/apps/types';
import { boardFramePatch, initialBoardState, withKeptCards } from '../cluster/boardSlice';
import type { Session } from '../session';
import { type ChipProps, type GroupCardProps, sameChip, sameGroupCard } from './cardProps';

const session = {} as Session;
const onSelect = () => {};

function consumer(name: string, consumed: number): BoardConsumerView {
  return {
    name,
    group: 'g',
    lifecycle: 'running',
    memberState: 'running',
    memberId: `${name}-1`,
    generation: 1,
    partitions: ['orders-0'],
    positions: [{ topic: 'orders', partition: 0, position: consumed }],
    recordsConsumed: consumed,
    inHand: 0,
    truncation: null,
  };
}

function group(): BoardGroupView {
  return {
    groupId: 'g',
    assignor: 'range',
    protocol: 'coordinator',
    commitMode: 'auto',
    delivery: { processed: 0, duplicates: 0, skipped: 0 },
    state: 'Stable',
    generation: 1,
    coordinator: 1,
    offsetsPartition: 7,
    leader: 'c1',
    initialRebalanceDelayMs: null,
    members: [],
    awaitingCoordinator: null,
    lagNow: { fetch: 0, committed: 0 },
    generations: [],
    lag: {} as BoardGroupView['lag'],
  } as BoardGroupView;
}

function view(
  nowMs: number,
  change: (v: { groups: BoardGroupView[]; consumers: BoardConsumerView[] }) => void = () => {},
) {
  const v = { nowMs, groups: [group()], consumers: [consumer('c1', 5), consumer('c2', 5)] };
  change(v);
  return v as unknown as BoardView;
}

/** The views as the page keeps them: each frame's through boardFramePatch, which shares what did not change. */
function kept(...views: BoardView[]): BoardView[] {
  let s = initialBoardState;
  return views.map((v) => {
    s = { ...s, ...boardFramePatch(s, v, []) };
    return s.view as BoardView;
  });
}

/** A card's props as GroupsTab makes them each render (a new consumers array every time). */
function cardProps(v: BoardView): GroupCardProps {
  const g = v.groups[0] as BoardGroupView;
  return {
    session,
    groupIds: 'g',
    group: g,
    consumers: v.consumers.filter((c) => c.group === g.groupId),
    crash: undefined,
    selected: false,
    onSelect,
  };
}

function chipProps(v: BoardView, i: number): ChipProps {
  return { session, groupIds: 'g', consumer: v.consumers[i] as BoardConsumerView, leader: i === 0 };
}

describe('cards re-render from the snapshot, without a list of the fields they draw', () => {
  it('skips a frame where only the progress drawn elsewhere moved (positions, consumed, lag history)', () => {
    const [a, b] = kept(
      view(100),
      view(200, (v) => {
        for (const c of v.consumers) {
          c.recordsConsumed = 9;
          c.positions = [{ topic: 'orders', partition: 0, position: 9 }];
        }
        (v.groups[0] as BoardGroupView).lagNow = { fetch: 3, committed: 4 };
      }),
    ) as [BoardView, BoardView];
    expect(sameGroupCard(cardProps(a), cardProps(b))).toBe(true);
    expect(sameChip(chipProps(a, 0), chipProps(b, 0))).toBe(true);
  });

  it('redraws a group card when its coordinator is gone (awaitingCoordinator, a field the old comparer did not list)', () => {
    const [a, b] = kept(
      view(100),
      view(200, (v) => {
        (v.groups[0] as BoardGroupView).awaitingCoordinator = { offsetsPartition: 7, leader: null, leaderUp: false };
      }),
    ) as [BoardView, BoardView];
    expect(sameGroupCard(cardProps(a), cardProps(b))).toBe(false);
  });

  it("redraws the card when a member's state moves (the ZooKeeper group's body draws it)", () => {
    const [a, b] = kept(
      view(100),
      view(200, (v) => {
        (v.consumers[1] as BoardConsumerView).memberState = 'rebalancing';
      }),
    ) as [BoardView, BoardView];
    expect(sameGroupCard(cardProps(a), cardProps(b))).toBe(false);
    expect(sameChip(chipProps(a, 0), chipProps(b, 0))).toBe(true);
    expect(sameChip(chipProps(a, 1), chipProps(b, 1))).toBe(false);
  });

  it('redraws a card and a chip when a field new to the snapshot appears', () => {
    const [a, b] = kept(
      view(100),
      view(200, (v) => {
        Object.assign(v.groups[0] as BoardGroupView, { newField: 1 });
        Object.assign(v.consumers[0] as BoardConsumerView, { newField: 'x' });
      }),
    ) as [BoardView, BoardView];
    expect(sameGroupCard(cardProps(a), cardProps(b))).toBe(false);
    expect(sameChip(chipProps(a, 0), chipProps(b, 0))).toBe(false);
    expect(sameChip(chipProps(a, 1), chipProps(b, 1))).toBe(true);
  });

  it("keeps only the cards' parts: the partitions and messages stay each frame's own (the replication timelines take an unchanged object as no new view)", () => {
    const topics = [{ name: 't', partitions: [{ topic: 't', partition: 0 }] }];
    const messages = [{ id: 1 }];
    const a = { ...view(100), topics, messages } as unknown as BoardView;
    const b = {
      ...view(100),
      topics: structuredClone(topics),
      messages: structuredClone(messages),
    } as unknown as BoardView;
    const kept = withKeptCards(a, b);
    expect(kept.groups).toBe(a.groups);
    expect(kept.consumers).toBe(a.consumers);
    expect(kept.topics).toBe(b.topics);
    expect(kept.messages).toBe(b.messages);
  });
});
