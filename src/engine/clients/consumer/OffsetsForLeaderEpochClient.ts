import type { ConsumerContext } from './ConsumerCoordinator';
import type { Fetcher } from './Fetcher';
import type { ConsumerOffsetsForLeaderEpochResponse } from './fetchProtocol';
import { type FetchPosition, type LogTruncation, type SubscriptionState, sameFetchPosition } from './SubscriptionState';

/** Errors after which the leader is asked again once metadata is fresh (OffsetsForLeaderEpochUtils' retriable ones). */
const RETRY_AFTER_METADATA = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'KAFKA_STORAGE_ERROR',
  'REPLICA_NOT_AVAILABLE',
]);

/** What validation found for one partition whose log was truncated under the consumer. */
export interface TruncationReport {
  truncation: LogTruncation;
  outcome: 'seek' | 'reset' | 'LogTruncationException';
}

/**
 * Position validation after a leader change (KIP-320; Kafka's OffsetFetcher.validatePositionsIfNeeded
 * with OffsetsForLeaderEpochClient). Every poll first compares each position's leader and epoch
 * with the metadata's (maybeValidatePositionForCurrentLeader); a position that now awaits
 * validation is not fetched from, and one OffsetsForLeaderEpoch per leader asks where the
 * position's epoch ends on the new leader. SubscriptionState.maybeCompleteValidation decides:
 * keep the position, seek back to the divergence point, reset, or report a truncation that
 * poll() throws as LogTruncationException.
 */
export class OffsetsForLeaderEpochClient {
  constructor(
    private readonly ctx: ConsumerContext,
    private readonly subscriptions: SubscriptionState,
    private readonly fetcher: Fetcher,
    private readonly onTruncation: (report: TruncationReport) => void,
  ) {}

  validatePositionsIfNeeded(): void {
    const now = this.ctx.scheduler.now();
    const byLeader = new Map<number, { topic: string; partition: number; position: FetchPosition }[]>();
    for (const s of this.subscriptions.states()) {
      const leader = this.fetcher.currentLeader(s.topic, s.partition);
      if (!this.subscriptions.maybeValidatePositionForCurrentLeader(s, leader)) continue;
      if (s.nextValidationRetryMs !== null && now < s.nextValidationRetryMs) continue;
      const position = this.subscriptions.fetchPosition(s);
      const to = position?.currentLeader.leader ?? null;
      if (!position || to === null) continue;
      // Kafka's setNextAllowedRetry(now + request.timeout.ms): one request at a time per position.
      s.nextValidationRetryMs = now + this.ctx.config['request.timeout.ms'];
      const list = byLeader.get(to) ?? [];
      list.push({ topic: s.topic, partition: s.partition, position });
      byLeader.set(to, list);
    }
    for (const [leader, asked] of byLeader) this.send(leader, asked);
  }

  private send(leader: number, asked: { topic: string; partition: number; position: FetchPosition }[]): void {
    this.ctx.network.send(
      this.ctx.clientId,
      leader,
      {
        api: 'OffsetsForLeaderEpoch',
        partitions: asked.map((a) => ({
          topic: a.topic,
          partition: a.partition,
          currentLeaderEpoch: a.position.currentLeader.epoch ?? -1,
          leaderEpoch: a.position.offsetEpoch ?? -1,
        })),
      },
      (r) => {
        const answers =
          r?.api === 'OffsetsForLeaderEpoch' ? (r as ConsumerOffsetsForLeaderEpochResponse).partitions : [];
        for (const a of asked) {
          const s = this.subscriptions.state(a);
          const p = answers.find((x) => x.topic === a.topic && x.partition === a.partition);
          if (p?.errorCode !== 'NONE') {
            // Disconnected, or the leader moved again: fresh metadata, and the next poll asks again.
            if (s) s.nextValidationRetryMs = this.ctx.scheduler.now() + this.ctx.config['retry.backoff.ms'];
            if (!p || RETRY_AFTER_METADATA.has(p.errorCode)) this.fetcher.requestMetadataUpdate();
            continue;
          }
          // Only an answer for the position still awaiting validation counts (it may have moved since).
          const current = this.subscriptions.fetchPosition(a);
          const applies = s?.awaitingValidation === true && current !== null && sameFetchPosition(current, a.position);
          const truncation = this.subscriptions.maybeCompleteValidation(a, a.position, p);
          if (!applies) continue;
          if (truncation) {
            this.onTruncation({ truncation, outcome: 'LogTruncationException' });
            continue;
          }
          const unknownEpoch = p.endOffset < 0 || p.leaderEpoch < 0;
          if (unknownEpoch || p.endOffset < a.position.offset)
            this.onTruncation({
              truncation: {
                topic: a.topic,
                partition: a.partition,
                fetchPosition: a.position,
                divergentOffset: unknownEpoch ? null : { offset: p.endOffset, leaderEpoch: p.leaderEpoch },
              },
              outcome: unknownEpoch ? 'reset' : 'seek',
            });
        }
      },
    );
  }
}
