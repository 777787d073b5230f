import type { TopicPartition } from './assignors/types';
import type { ConsumerRequest, ConsumerResponse } from './fetchProtocol';
import type { GroupErrorCode, OffsetCommitResponse, OffsetFetchResponse } from './groupProtocol';
import { tpString } from './SubscriptionState';

export interface CommitResult {
  done: boolean;
  /** 'NONE' on success; otherwise Kafka's error name (ILLEGAL_GENERATION = CommitFailedException...). */
  error: GroupErrorCode | null;
}

/** What a commit writes per partition; `leaderEpoch` is the position's offsetEpoch (null or absent: -1). */
export type OffsetsToCommit = Map<
  string,
  { topic: string; partition: number; offset: number; leaderEpoch?: number | null }
>;

/** Each partition's committed offset and the leader epoch committed with it (-1: none). */
export type CommittedOffsets = Map<string, { offset: number; leaderEpoch: number }>;

/** What the commit path uses of the ConsumerCoordinator it belongs to. */
export interface CommitPath {
  readonly clientId: string;
  readonly groupId: string;
  readonly groupInstanceId: string | null;
  withCoordinator(fn: (coordinator: number) => void): void;
  /** The answer, or null on a disconnect or after request.timeout.ms. */
  send(to: number, body: ConsumerRequest, onResponse: (r: ConsumerResponse | null) => void): void;
  markCoordinatorUnknown(reason: string): void;
  resetGeneration(reason: string): void;
  requestRejoin(reason: string): void;
}

/**
 * ConsumerCoordinator.sendOffsetCommitRequest and its OffsetCommitResponseHandler: one OffsetCommit
 * for these offsets under this generation; `done` gets NONE or the first partition error.
 */
export function sendOffsetCommitRequest(
  host: CommitPath,
  generationId: number,
  memberId: string,
  offsets: OffsetsToCommit,
  done: (error: GroupErrorCode) => void,
): void {
  const byTopic = new Map<
    string,
    { partitionIndex: number; committedOffset: number; committedLeaderEpoch: number }[]
  >();
  for (const o of offsets.values()) {
    const list = byTopic.get(o.topic) ?? [];
    list.push({ partitionIndex: o.partition, committedOffset: o.offset, committedLeaderEpoch: o.leaderEpoch ?? -1 });
    byTopic.set(o.topic, list);
  }
  host.withCoordinator((coordinator) => {
    host.send(
      coordinator,
      {
        api: 'OffsetCommit',
        groupId: host.groupId,
        generationIdOrMemberEpoch: generationId,
        memberId,
        groupInstanceId: host.groupInstanceId,
        topics: [...byTopic].map(([name, ps]) => ({
          name,
          partitions: ps.map((p) => ({ ...p, committedMetadata: '' })),
        })),
      },
      (r) => {
        if (r?.api !== 'OffsetCommit') {
          host.markCoordinatorUnknown('commit disconnected');
          done('NETWORK_EXCEPTION');
          return;
        }
        const err = (r as OffsetCommitResponse).topics
          .flatMap((t) => t.partitions.map((p) => p.errorCode))
          .find((e) => e !== 'NONE');
        if (err === 'NOT_COORDINATOR' || err === 'COORDINATOR_NOT_AVAILABLE') host.markCoordinatorUnknown(err);
        if (err === 'ILLEGAL_GENERATION' || err === 'UNKNOWN_MEMBER_ID') {
          host.resetGeneration(err);
          host.requestRejoin(`commit failed: ${err}`);
        }
        if (err === 'REBALANCE_IN_PROGRESS') host.requestRejoin('commit: REBALANCE_IN_PROGRESS');
        done(err ?? 'NONE');
      },
    );
  });
}

/**
 * ConsumerCoordinator.sendOffsetFetchRequest and its OffsetFetchResponseHandler; `done` gets null
 * when the offsets are to be asked again later.
 */
export function sendOffsetFetchRequest(
  host: CommitPath,
  partitions: TopicPartition[],
  done: (result: CommittedOffsets | null) => void,
): void {
  const byTopic = new Map<string, number[]>();
  for (const tp of partitions) byTopic.set(tp.topic, [...(byTopic.get(tp.topic) ?? []), tp.partition]);
  host.withCoordinator((coordinator) => {
    host.send(
      coordinator,
      {
        api: 'OffsetFetch',
        groupId: host.groupId,
        topics: [...byTopic].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
        // ConsumerCoordinator.sendOffsetFetchRequest always asks for stable offsets (KIP-447).
        requireStable: true,
      },
      (r) => {
        if (r?.api !== 'OffsetFetch' || (r as OffsetFetchResponse).errorCode !== 'NONE') {
          // COORDINATOR_LOAD_IN_PROGRESS: the same coordinator, asked again at the next poll.
          const code = r?.api === 'OffsetFetch' ? (r as OffsetFetchResponse).errorCode : 'disconnected';
          if (code !== 'COORDINATOR_LOAD_IN_PROGRESS') host.markCoordinatorUnknown(code);
          done(null);
          return;
        }
        // OffsetFetchResponseHandler: a commit still being written (UNSTABLE_OFFSET_COMMIT) fails
        // the fetch with the retriable UnstableOffsetCommitException; it is asked again later,
        // never answered with the offset before that commit.
        const unstable = (r as OffsetFetchResponse).topics.some((t) =>
          t.partitions.some((p) => p.errorCode === 'UNSTABLE_OFFSET_COMMIT'),
        );
        if (unstable) {
          done(null);
          return;
        }
        const out: CommittedOffsets = new Map();
        for (const t of (r as OffsetFetchResponse).topics) {
          for (const p of t.partitions)
            out.set(tpString({ topic: t.name, partition: p.partitionIndex }), {
              offset: p.committedOffset,
              leaderEpoch: p.committedLeaderEpoch,
            });
        }
        done(out);
      },
    );
  });
}
