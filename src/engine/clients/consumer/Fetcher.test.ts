import { describe, expect, it } from 'vitest';
import type { KafkaErrorCode } from '../../errors';
import type { ClusterPort } from './ClusterPort';
import { consumerConfig } from './ConsumerConfig';
import type { ConsumerContext } from './ConsumerCoordinator';
import type { ConsumerNetworkClient } from './ConsumerNetworkClient';
import { Fetcher } from './Fetcher';
import type { ConsumerFetchResponse } from './fetchProtocol';
import { SubscriptionState } from './SubscriptionState';

/**
 * How a partition error in a Fetch answer moves the consumer's metadata. Kafka 3.9
 * FetchCollector.handleInitializeErrors: FENCED_LEADER_EPOCH (like NOT_LEADER_OR_FOLLOWER) asks for
 * a metadata update; UNKNOWN_LEADER_EPOCH (the leader is behind the consumer's epoch) is only
 * logged and the partition fetched again from the same leader. FetcherTest.testFetchFencedLeaderEpoch
 * and FetcherTest.testFetchUnknownLeaderEpoch.
 */
function fetcherAnswering(errorCode: KafkaErrorCode | 'NONE') {
  let lookups = 0;
  let now = 0;
  const port = {
    leaderOf: () => {
      lookups++;
      return 1;
    },
    leaderEpochOf: () => 4,
  } as unknown as ClusterPort;
  const network = {
    send: (_from: string, _to: number, _body: unknown, onResponse: (r: ConsumerFetchResponse) => void) =>
      onResponse({
        api: 'Fetch',
        partitions: [{ topic: 't', partition: 0, errorCode, highWatermark: 100, logStartOffset: 0, records: [] }],
      }),
  } as unknown as ConsumerNetworkClient;
  const ctx = {
    clientId: 'c',
    config: consumerConfig(),
    scheduler: { now: () => now },
    network,
    port,
    emit: () => {},
  } as unknown as ConsumerContext;
  const subscriptions = new SubscriptionState();
  subscriptions.assignManually([{ topic: 't', partition: 0 }]);
  subscriptions.seekValidated(
    { topic: 't', partition: 0 },
    { offset: 0, offsetEpoch: null, currentLeader: { leader: 1, epoch: 4 } },
  );
  const fetcher = new Fetcher(ctx, subscriptions);
  return {
    fetcher,
    lookups: () => lookups,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('Fetcher: partition errors and metadata (FetchCollector.handleInitializeErrors)', () => {
  it.each([
    [
      'FENCED_LEADER_EPOCH requests a metadata update (FetcherTest.testFetchFencedLeaderEpoch)',
      'FENCED_LEADER_EPOCH',
      2,
    ],
    [
      'UNKNOWN_LEADER_EPOCH is only logged: no metadata update (FetcherTest.testFetchUnknownLeaderEpoch)',
      'UNKNOWN_LEADER_EPOCH',
      1,
    ],
  ] as const)('%s', (_name, errorCode, lookupsAfter) => {
    const f = fetcherAnswering(errorCode);
    f.fetcher.sendFetches();
    expect(f.lookups()).toBe(1);
    expect(f.fetcher.completed).toEqual([]);
    f.advance(1);
    f.fetcher.leaderFor('t', 0);
    expect(f.lookups()).toBe(lookupsAfter);
  });
});
