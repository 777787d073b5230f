import { describe, expect, it } from 'vitest';
import { Rng } from '../Rng';
import { ProducerMetadata } from './ProducerMetadata';
import { metadataResponse } from './testing/FakeBrokers';

// apache/kafka 3.9 clients/.../Metadata.java: timeToAllowUpdate / timeToNextUpdate / failedUpdate,
// the refresh backoff of KIP-580 (ExponentialBackoff over retry.backoff.ms .. retry.backoff.max.ms,
// multiplier 2, jitter 0.2), and MetadataTest's cases named below.
function metadata() {
  return new ProducerMetadata([1], {
    retryBackoffMs: 100,
    retryBackoffMaxMs: 1000,
    metadataMaxAgeMs: 300000,
    rng: new Rng(3),
  });
}

function responseAtEpoch(epoch: number) {
  const r = metadataResponse([1], new Map([['t', [1]]]));
  for (const t of r.topics) for (const p of t.partitions) p.leaderEpoch = epoch;
  return r;
}

/** The wait after `now` before a refresh may go out (Metadata.timeToNextUpdate). */
const waitAt = (m: ProducerMetadata, now: number) => Math.max(0, m.nextUpdateMs(now) - now);

describe('ProducerMetadata: the refresh backoff (Kafka 3.9 Metadata, KIP-580)', () => {
  it('testUpdateMetadataAllowedImmediatelyAfterBootstrap', () => {
    expect(waitAt(metadata(), 0)).toBe(0);
  });

  it('testTimeToNextUpdateRetryBackoff: after a failed update the next waits retry.backoff.ms (+/-20 %), asked for or not', () => {
    const m = metadata();
    m.failedUpdate(10000);
    for (let i = 0; i < 20; i++) {
      expect(waitAt(m, 10000)).toBeGreaterThanOrEqual(80);
      expect(waitAt(m, 10000)).toBeLessThanOrEqual(120);
    }
    m.requestUpdate();
    expect(waitAt(m, 10000)).toBeGreaterThanOrEqual(80);
    expect(waitAt(m, 10000 + 100 + 120)).toBe(0);
  });

  it('testFailedUpdate, exponentially: each failure in a row doubles the wait up to retry.backoff.max.ms; a response starts again', () => {
    const m = metadata();
    m.update(responseAtEpoch(0), 0);
    let now = 0;
    for (let k = 1; k <= 6; k++) {
      now += 5000;
      m.requestUpdate();
      m.failedUpdate(now);
      const term = Math.min(100 * 2 ** (k - 1), 1000);
      const wait = waitAt(m, now);
      expect(wait, `failure ${k}`).toBeGreaterThanOrEqual(Math.trunc(term * 0.8));
      expect(wait, `failure ${k}`).toBeLessThanOrEqual(Math.min(Math.trunc(term * 1.2), 1000));
    }
    m.update(responseAtEpoch(1), now);
    expect(m.lastSuccessfulRefreshMs).toBe(now);
    m.requestUpdate();
    expect(waitAt(m, now + 121)).toBe(0); // a newer epoch: only the first step's backoff
  });

  it('Metadata.timeToAllowUpdate: responses that show no newer leader epoch back off exponentially; a newer epoch or a new topic asks at once', () => {
    const m = metadata();
    m.update(responseAtEpoch(5), 0);
    let now = 0;
    const waits: number[] = [];
    for (let k = 1; k <= 5; k++) {
      m.requestUpdate(); // a retry asked for it (requestUpdate(false))
      const at = m.nextUpdateMs(now);
      waits.push(at - now);
      now = Math.max(now, at);
      m.update(responseAtEpoch(5), now); // the same leader again
    }
    // The first wait is the base backoff after any response; then backoff(count - 1) per
    // equivalent response in a row.
    const terms = [100, 100, 200, 400, 800];
    waits.forEach((w, i) => {
      expect(w, `response ${i + 1}`).toBeGreaterThanOrEqual(Math.trunc((terms[i] as number) * 0.8));
      expect(w, `response ${i + 1}`).toBeLessThanOrEqual(Math.min(Math.trunc((terms[i] as number) * 1.2), 1000));
    });
    // A newer epoch is progress: the count starts again.
    m.update(responseAtEpoch(6), now);
    m.requestUpdate();
    expect(waitAt(m, now + 121)).toBe(0);
    // A new topic is asked about at once (requestUpdateForNewTopics).
    m.update(responseAtEpoch(6), now + 200);
    m.requestUpdateForNewTopics();
    expect(waitAt(m, now + 200)).toBe(0);
  });
});
