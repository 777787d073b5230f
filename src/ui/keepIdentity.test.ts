import { describe, expect, it } from 'vitest';
import { keepIdentity } from './keepIdentity';

describe('keepIdentity (structural sharing of the snapshots)', () => {
  const prev = {
    nowMs: 100,
    groups: [
      { groupId: 'a', state: 'Stable', delivery: { processed: 1 } },
      { groupId: 'b', state: 'Stable', delivery: { processed: 2 } },
    ],
    brokers: [{ id: 1, alive: true }],
  };

  it('gives back the previous object for a part that did not change, a new one for a part that did and for all above it', () => {
    const next = structuredClone(prev);
    next.nowMs = 200;
    const b = next.groups[1];
    if (b) b.delivery.processed = 3;
    const kept = keepIdentity(prev, next);
    expect(kept).not.toBe(prev);
    expect(kept.brokers).toBe(prev.brokers);
    expect(kept.groups).not.toBe(prev.groups);
    expect(kept.groups[0]).toBe(prev.groups[0]);
    expect(kept.groups[1]).not.toBe(prev.groups[1]);
    expect(kept.groups[1]?.delivery).toEqual({ processed: 3 });
    expect(kept).toEqual(next);
  });

  it('gives back the previous snapshot whole when nothing changed', () => {
    expect(keepIdentity(prev, structuredClone(prev))).toBe(prev);
  });

  it('makes an object new when a field is added to it or removed from it', () => {
    const added = structuredClone(prev) as typeof prev & { groups: Record<string, unknown>[] };
    (added.groups[0] as Record<string, unknown>).awaitingCoordinator = { leader: null };
    const kept = keepIdentity(prev, added);
    expect(kept.groups[0]).not.toBe(prev.groups[0]);
    expect(kept.groups[1]).toBe(prev.groups[1]);
    const removed = structuredClone(prev) as Record<string, unknown>;
    delete removed.brokers;
    expect(keepIdentity<Record<string, unknown>>(prev, removed)).not.toBe(prev);
  });

  it('takes the next snapshot as it is when there is no previous one', () => {
    const next = structuredClone(prev);
    expect(keepIdentity(null, next)).toBe(next);
  });
});
