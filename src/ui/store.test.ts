import { describe, expect, it } from 'vitest';
import { createUiStore, sliceOf } from './store';

describe('the page store and its slices', () => {
  it('writes one slice through sliceOf, leaving the other slices the same objects (narrow selectors see no change)', () => {
    const store = createUiStore();
    const before = store.getState();
    sliceOf('slow', store).setState({ on: false });
    const after = store.getState();
    expect(after.slow).toEqual({ ...before.slow, on: false });
    expect(after.board).toBe(before.board);
    expect(after.replication).toBe(before.replication);
    expect(after.phases).toBe(before.phases);
    expect(after.welcome).toBe(before.welcome);
  });

  it('gives each store its own replication working state (the schedule and timelines are mutated in place)', () => {
    const a = createUiStore().getState().replication;
    const b = createUiStore().getState().replication;
    expect(a.tokens).not.toBe(b.tokens);
    expect(a.timelines).not.toBe(b.timelines);
  });

  it('applies a patch made from the slice as it is now', () => {
    const store = createUiStore();
    const phases = sliceOf('phases', store);
    phases.setState((s) => ({ queues: { ...s.queues } }));
    expect(store.getState().phases.queues).toEqual({});
    sliceOf('slow', store).setState((s) => ({ electionUntilMs: s.electionUntilMs + 10 }));
    expect(store.getState().slow.electionUntilMs).toBe(9);
  });
});
