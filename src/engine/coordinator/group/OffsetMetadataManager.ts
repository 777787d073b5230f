import type { ClassicGroup } from './ClassicGroup';
import type { CoordinatorContext, OffsetsRecord } from './CoordinatorContext';
import type {
  GroupErrorCode,
  OffsetCommitRequest,
  OffsetFetchRequest,
  OffsetFetchResponse,
} from '../../clients/consumer/groupProtocol';
import {
  encodeOffsetCommitKey,
  encodeOffsetCommitValue,
  type OffsetCommitValue,
} from '../../clients/consumer/offsetsSchema';

/** A committed offset as the coordinator holds it (Kafka's OffsetAndMetadata). */
export interface OffsetAndMetadata {
  offset: number;
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** A v1 record's own expiry time (OffsetAndMetadata.expireTimestampMs); null: none (-1 in the record). */
  expireTimestamp: number | null;
}

export interface OffsetCommitValidation {
  errorCode: GroupErrorCode;
  /** Records to write and apply when the commit is accepted. */
  records: OffsetsRecord[];
  /** Per partition result for the response. */
  topics: { name: string; partitions: { partitionIndex: number; errorCode: GroupErrorCode }[] }[];
}

/**
 * Committed offsets of the groups in one `__consumer_offsets` partition
 * (group-coordinator/.../OffsetMetadataManager.java). A commit is validated against the group
 * (member, generation, state), turned into OffsetCommit records, and — once those records are
 * committed to the partition — applied by replay(), the very method that rebuilds the offsets
 * when another broker loads the partition. So "live" and "loaded" state cannot drift apart.
 */
export class OffsetMetadataManager {
  /** groupId -> "topic\u0000partition" -> offset. */
  readonly offsets = new Map<string, Map<string, OffsetAndMetadata>>();
  /**
   * Commits written but not yet committed to the offsets partition (GroupMetadata's
   * pendingOffsetCommits): groupId -> partition -> the latest such commit.
   */
  private readonly pendingCommits = new Map<string, Map<string, PendingCommit>>();

  constructor(private readonly ctx: CoordinatorContext) {}

  /**
   * ClassicGroup.validateOffsetCommit: a commit from outside the group protocol (generation -1,
   * no member id) is accepted for an Empty or unknown group, as for assign()-only consumers and
   * admin tools; a member's commit needs its member id and current generation, and is refused
   * while the group awaits its assignment (CompletingRebalance). Commits during
   * PreparingRebalance are accepted: that is what lets onPartitionsRevoked commit.
   */
  prepareCommit(req: OffsetCommitRequest, group: ClassicGroup | undefined): OffsetCommitValidation {
    const partitionsWith = (errorCode: GroupErrorCode) =>
      req.topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode })),
      }));
    const reject = (errorCode: GroupErrorCode): OffsetCommitValidation => ({
      errorCode,
      records: [],
      topics: partitionsWith(errorCode),
    });
    const simple = req.generationIdOrMemberEpoch < 0 && req.memberId === '' && req.groupInstanceId === null;
    if (group) {
      // GroupCoordinator.validateOffsetCommit, in its order.
      if (group.is('Dead')) return reject('COORDINATOR_NOT_AVAILABLE');
      if (req.generationIdOrMemberEpoch < 0 && group.is('Empty')) {
        // An admin client or a consumer outside group management commits for an Empty group.
      } else if (!simple) {
        const invalid = group.validateCurrentMember(req.memberId, req.groupInstanceId);
        if (invalid) return reject(invalid);
        if (req.generationIdOrMemberEpoch !== group.generationId) return reject('ILLEGAL_GENERATION');
        if (group.is('CompletingRebalance')) return reject('REBALANCE_IN_PROGRESS');
      } else if (!group.is('Empty')) {
        return reject('UNKNOWN_MEMBER_ID');
      }
    } else if (req.generationIdOrMemberEpoch >= 0) {
      // GroupCoordinator.handleCommitOffsets: no group, yet a generation: a stale member.
      return reject('ILLEGAL_GENERATION');
    }
    const records: OffsetsRecord[] = [];
    const topics = req.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.map((p) => {
        const metadata = p.committedMetadata ?? '';
        if (metadata.length > this.ctx.config['offset.metadata.max.bytes']) {
          return { partitionIndex: p.partitionIndex, errorCode: 'OFFSET_METADATA_TOO_LARGE' as GroupErrorCode };
        }
        const value: OffsetCommitValue = {
          version: 3,
          offset: p.committedOffset,
          leaderEpoch: p.committedLeaderEpoch,
          metadata,
          commitTimestamp: this.ctx.now(),
          expireTimestamp: -1,
        };
        records.push({
          key: encodeOffsetCommitKey(req.groupId, t.name, p.partitionIndex),
          value: encodeOffsetCommitValue(value),
        });
        return { partitionIndex: p.partitionIndex, errorCode: 'NONE' as GroupErrorCode };
      }),
    }));
    return { errorCode: 'NONE', records, topics };
  }

  /**
   * GroupMetadata.prepareOffsetCommit: the commit's partitions are pending until its write
   * completes (completeCommit), committed or failed.
   */
  prepareOffsetCommit(
    groupId: string,
    topics: readonly { name: string; partitions: readonly { partitionIndex: number }[] }[],
  ): PendingCommit {
    const commit: PendingCommit = { groupId, partitions: [] };
    let byGroup = this.pendingCommits.get(groupId);
    if (!byGroup) {
      byGroup = new Map();
      this.pendingCommits.set(groupId, byGroup);
    }
    for (const t of topics) {
      for (const p of t.partitions) {
        const key = tpKey(t.name, p.partitionIndex);
        commit.partitions.push(key);
        byGroup.set(key, commit);
      }
    }
    return commit;
  }

  /**
   * GroupMetadata.onOffsetCommitAppend / failPendingOffsetWrite: a partition stops being pending
   * unless a later commit for it is still being written.
   */
  completeCommit(commit: PendingCommit): void {
    const byGroup = this.pendingCommits.get(commit.groupId);
    if (!byGroup) return;
    for (const key of commit.partitions) if (byGroup.get(key) === commit) byGroup.delete(key);
    if (byGroup.size === 0) this.pendingCommits.delete(commit.groupId);
  }

  /**
   * GroupMetadataManager.getOffsets: each partition's committed offset (-1 when none); with
   * require_stable, a partition whose commit is still being written is UNSTABLE_OFFSET_COMMIT.
   */
  fetchOffsets(req: OffsetFetchRequest): OffsetFetchResponse {
    const pending = req.requireStable ? this.pendingCommits.get(req.groupId) : undefined;
    const byGroup = this.offsets.get(req.groupId);
    const topics =
      req.topics ?? [...groupByTopic(byGroup)].map(([name, partitionIndexes]) => ({ name, partitionIndexes }));
    return {
      api: 'OffsetFetch',
      errorCode: 'NONE',
      topics: topics.map((t) => ({
        name: t.name,
        partitions: t.partitionIndexes.map((partitionIndex) => {
          if (pending?.has(tpKey(t.name, partitionIndex))) {
            return {
              partitionIndex,
              committedOffset: -1,
              committedLeaderEpoch: -1,
              metadata: '',
              errorCode: 'UNSTABLE_OFFSET_COMMIT' as GroupErrorCode,
            };
          }
          const o = byGroup?.get(tpKey(t.name, partitionIndex));
          return {
            partitionIndex,
            committedOffset: o ? o.offset : -1,
            committedLeaderEpoch: o ? o.leaderEpoch : -1,
            metadata: o ? o.metadata : '',
            errorCode: 'NONE' as GroupErrorCode,
          };
        }),
      })),
    };
  }

  committed(groupId: string, topic: string, partition: number): OffsetAndMetadata | undefined {
    return this.offsets.get(groupId)?.get(tpKey(topic, partition));
  }

  /** Applies an OffsetCommit record (null value: the offset was deleted). */
  replay(group: string, topic: string, partition: number, value: OffsetCommitValue | null): void {
    let byGroup = this.offsets.get(group);
    if (value === null) {
      byGroup?.delete(tpKey(topic, partition));
      if (byGroup && byGroup.size === 0) this.offsets.delete(group);
      return;
    }
    if (!byGroup) {
      byGroup = new Map();
      this.offsets.set(group, byGroup);
    }
    byGroup.set(tpKey(topic, partition), {
      offset: value.offset,
      leaderEpoch: value.leaderEpoch,
      metadata: value.metadata,
      commitTimestamp: value.commitTimestamp,
      expireTimestamp: value.expireTimestamp === -1 ? null : value.expireTimestamp,
    });
  }

  clear(): void {
    this.offsets.clear();
    this.pendingCommits.clear();
  }
}

/** One OffsetCommit being written: its group and partitions. */
export interface PendingCommit {
  groupId: string;
  partitions: string[];
}

export function tpKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

function groupByTopic(byGroup: Map<string, OffsetAndMetadata> | undefined): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (!byGroup) return out;
  for (const key of [...byGroup.keys()].sort()) {
    const [topic, p] = key.split('\u0000') as [string, string];
    const list = out.get(topic) ?? [];
    list.push(Number(p));
    out.set(topic, list);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
