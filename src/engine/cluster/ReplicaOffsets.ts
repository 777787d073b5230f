import { SegmentNotLoadedError } from '../log/SegmentCache';
import { tpKey } from '../TopicPartition';
import type { BrokerServices } from './BrokerServices';
import type { Partition } from './Partition';
import type { ReplicaLog } from './ReplicaLog';
import {
  CONSUMER_REPLICA_ID,
  EARLIEST_LOCAL_TIMESTAMP,
  EARLIEST_TIMESTAMP,
  type ErrorCode,
  LATEST_TIERED_TIMESTAMP,
  LATEST_TIMESTAMP,
  LIST_OFFSETS_MAX_VERSION,
  LIST_OFFSETS_TIMESTAMP_MIN_VERSION,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
  type OffsetsForLeaderEpochRequest,
  type OffsetsForLeaderEpochResponse,
} from './requests';

// A leader's offset lookups (Kafka's ReplicaManager.lastOffsetForLeaderEpoch and
// fetchOffsetForTimestamp), over the broker's hosted partitions.

/**
 * The partition if this broker leads it at the requester's epoch, else the error to answer
 * (Kafka's getPartitionOrError with Partition's leader-epoch check): UNKNOWN_TOPIC_OR_PARTITION
 * for a partition the metadata cache does not know, NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH
 * for an older epoch and, where `rejectNewerEpoch`, UNKNOWN_LEADER_EPOCH for a newer one (-1:
 * the requester names no epoch).
 */
export function getPartitionOrError(
  partitions: ReadonlyMap<string, Partition>,
  services: BrokerServices,
  topic: string,
  partition: number,
  currentLeaderEpoch: number,
  rejectNewerEpoch: boolean,
): Partition | ErrorCode {
  const p = partitions.get(tpKey(topic, partition));
  if (!p)
    return services.metadataHasPartition(topic, partition) ? 'NOT_LEADER_OR_FOLLOWER' : 'UNKNOWN_TOPIC_OR_PARTITION';
  // Partition.getLocalLog: the epoch is checked first, so a client still naming the old epoch at
  // a deposed leader learns it is fenced (and refreshes metadata) rather than merely "not leader".
  if (currentLeaderEpoch >= 0 && currentLeaderEpoch < p.leaderEpoch) return 'FENCED_LEADER_EPOCH';
  if (rejectNewerEpoch && currentLeaderEpoch > p.leaderEpoch) return 'UNKNOWN_LEADER_EPOCH';
  if (!p.isLeader) return 'NOT_LEADER_OR_FOLLOWER';
  return p;
}

/** ReplicaManager.lastOffsetForLeaderEpoch: each partition's end offset for the asked epoch, at its leader. */
export function lastOffsetForLeaderEpoch(
  partitions: ReadonlyMap<string, Partition>,
  services: BrokerServices,
  request: OffsetsForLeaderEpochRequest,
): OffsetsForLeaderEpochResponse {
  return {
    api: 'OffsetsForLeaderEpoch',
    throttleTimeMs: 0,
    topics: request.topics.map((t) => ({
      topic: t.topic,
      partitions: t.partitions.map((rp) => {
        const p = getPartitionOrError(partitions, services, t.topic, rp.partition, rp.currentLeaderEpoch, true);
        if (typeof p === 'string') return { errorCode: p, partition: rp.partition, leaderEpoch: -1, endOffset: -1 };
        const { epoch, endOffset } = p.log.endOffsetForEpoch(rp.leaderEpoch);
        return { errorCode: 'NONE' as ErrorCode, partition: rp.partition, leaderEpoch: epoch, endOffset };
      }),
    })),
  };
}

/** ReplicaManager.fetchOffsetForTimestamp for a ListOffsets request. */
export function fetchOffsetForTimestamp(
  partitions: ReadonlyMap<string, Partition>,
  services: BrokerServices,
  request: ListOffsetsRequest,
): ListOffsetsResponse {
  const consumer = request.replicaId === CONSUMER_REPLICA_ID;
  return {
    api: 'ListOffsets',
    throttleTimeMs: 0,
    topics: request.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.map((lp) => ({
        partitionIndex: lp.partitionIndex,
        ...listOffset(partitions, services, t.name, lp, consumer, request.version ?? LIST_OFFSETS_MAX_VERSION),
      })),
    })),
  };
}

/**
 * One partition's ListOffsets answer (KafkaApis.handleListOffsetRequestV1AndAbove over
 * Partition.fetchOffsetForTimestamp and UnifiedLog.fetchOffsetByTimestamp). A consumer sees
 * only committed records: its "latest" is the high watermark, and while a new leader's high
 * watermark still lags the start of its epoch, "latest" (and a search past the high watermark)
 * is OFFSET_NOT_AVAILABLE (LEADER_NOT_AVAILABLE before v5). A special timestamp the request's
 * version does not know is UNSUPPORTED_VERSION. An answer with no offset carries epoch -1.
 */
function listOffset(
  partitions: ReadonlyMap<string, Partition>,
  services: BrokerServices,
  topic: string,
  lp: ListOffsetsRequest['topics'][number]['partitions'][number],
  consumer: boolean,
  version: number,
): { errorCode: ErrorCode; timestamp: number; offset: number; leaderEpoch: number } {
  const answer = (errorCode: ErrorCode, timestamp: number, offset: number, leaderEpoch: number) => ({
    errorCode,
    timestamp,
    offset,
    leaderEpoch,
  });
  const minVersion = LIST_OFFSETS_TIMESTAMP_MIN_VERSION.get(lp.timestamp);
  if (lp.timestamp < 0 && (minVersion === undefined || version < minVersion))
    return answer('UNSUPPORTED_VERSION', -1, -1, -1);
  const p = getPartitionOrError(partitions, services, topic, lp.partitionIndex, lp.currentLeaderEpoch, true);
  if (typeof p === 'string') return answer(p, -1, -1, -1);
  if (lp.timestamp === EARLIEST_TIMESTAMP || lp.timestamp === EARLIEST_LOCAL_TIMESTAMP) {
    // The earliest epoch entry's epoch, if it starts at or before the log start (it usually does).
    const logStart = p.log.logStartOffset();
    const earliest = p.log.epochEntries()[0];
    return answer('NONE', -1, logStart, earliest && earliest.startOffset <= logStart ? earliest.epoch : -1);
  }
  // No tiered storage here: no offset in remote storage.
  if (lp.timestamp === LATEST_TIERED_TIMESTAMP) return answer('NONE', -1, -1, -1);
  const limit = consumer ? p.highWatermark : p.logEndOffset();
  const offsetsError: ErrorCode | null =
    consumer && p.leaderEpochStartOffset > p.highWatermark
      ? version >= 5
        ? 'OFFSET_NOT_AVAILABLE'
        : 'LEADER_NOT_AVAILABLE'
      : null;
  if (lp.timestamp === LATEST_TIMESTAMP) {
    if (offsetsError) return answer(offsetsError, -1, -1, -1);
    return answer('NONE', -1, limit, p.leaderEpoch);
  }
  const notFound = () => (offsetsError ? answer(offsetsError, -1, -1, -1) : answer('NONE', -1, -1, -1));
  // First offset whose timestamp >= the target, among the records the asker may see.
  let exact: ReturnType<NonNullable<ReplicaLog['offsetForTimestamp']>> | undefined;
  try {
    exact = p.log.offsetForTimestamp?.(lp.timestamp);
  } catch (e) {
    // The answer is in a segment being read back from the store: a retriable error (Kafka's
    // KafkaStorageException is retriable too); the client asks again.
    if (!(e instanceof SegmentNotLoadedError)) throw e;
    return answer('KAFKA_STORAGE_ERROR', -1, -1, -1);
  }
  if (exact !== undefined) {
    if (exact === null || exact.offset >= limit) return notFound();
    return answer('NONE', exact.timestamp, exact.offset, exact.leaderEpoch ?? -1);
  }
  const hit = p.log.batchHeaders().find((h) => h.maxTimestamp >= lp.timestamp && h.baseOffset < limit);
  if (!hit) return notFound();
  return answer('NONE', hit.maxTimestamp, hit.baseOffset, hit.partitionLeaderEpoch);
}
