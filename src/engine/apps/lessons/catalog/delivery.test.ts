import { describe, expect, it } from 'vitest';
import { replayHeadless } from '../lessonBed.testing';
import { delivery } from './delivery';

/**
 * The delivery lesson's rebalance behind a cut-off follower of __consumer_offsets, acted right
 * after the crash cards instead of with c5 mid-batch: c5's commit is written at once and waits
 * longer than offsets.commit.timeout.ms (5 s) for broker 3 to leave the ISR, so it times out
 * (GroupMetadataManager.storeOffsets: the pending offset is dropped, the cache keeps the older
 * one) and the assignment's write after it times out too (storeGroup: the group rebalances
 * again). No commit is still being written when c6 fetches, so require_stable has nothing to hold
 * back, and c6 is handed the offset before c5's commit: the golden trace's other branch.
 */
describe('delivery lesson: a commit that times out behind the cut-off follower', () => {
  it('hands c6 the offset before c5’s commit, and says why', async () => {
    const question = delivery.steps.findIndex((s) => s.question?.prompt.includes('UNSTABLE_OFFSET_COMMIT'));
    expect(question).toBeGreaterThan(0);
    // Every step but the one that waits for c5 to be mid-batch.
    const steps = delivery.steps.filter((_, i) => i !== question - 1);
    const trace = await replayHeadless(delivery, steps);
    const asked = trace.steps[question - 1];
    expect(asked?.answer).toBe('the offset committed before it');
    expect(asked?.because).toContain('timed out after 5.0 s');
    expect(asked?.because).toContain('the assignment’s write timed out too');
    expect(asked?.because).toContain('c6 processes those records again');
    // It does: the group's duplicates grow past the crash's.
    const crash = Number(trace.steps[4]?.observed?.duplicates);
    expect(Number(trace.steps.at(-1)?.observed?.duplicates)).toBeGreaterThan(crash);
  }, 60_000);
});
