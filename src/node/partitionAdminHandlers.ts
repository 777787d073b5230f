/**
 * The Admin APIs about partitions that exist: DeleteRecords (the leader's log start moves, the
 * answer waits for the replicas' low watermark as DelayedDeleteRecords), DescribeLogDirs (this
 * broker's log dirs and each replica's size in bytes), DescribeProducers (a leader's producer
 * state), ElectLeaders (preferred or unclean, by the active controller) and
 * AlterPartitionReassignments / ListPartitionReassignments (the controller's moves). Each acts
 * through the engine (`cluster/AdminOperations.ts`, `Engine.reassignPartitions`).
 */
import {
  type DeleteRecordsResult,
  deleteRecordsOnLeader,
  describeLogDirs,
  describeProducers,
  ELECTION_TYPE,
  type ErrorCode,
  electLeaders,
  listPartitionReassignments,
  lowWatermarkIfLeader,
} from '../engine/index';
import { type ApiHandler, handler } from './apiHandler';
import { errorNumber } from './errorNumber';
import { waitFor } from './topicAdminHandlers';

/** Results per partition, grouped by topic in the order the topics first appear. */
function byTopic<T extends { topic: string }, W>(items: T[], wire: (item: T) => W): { name: string; items: W[] }[] {
  const out = new Map<string, W[]>();
  for (const i of items) out.set(i.topic, [...(out.get(i.topic) ?? []), wire(i)]);
  return [...out].map(([name, list]) => ({ name, items: list }));
}

/** A request's topics with their partition indexes, flattened. */
function partitionsOf(topics: { name?: string; topic?: string; partitions?: number[]; partitionIndexes?: number[] }[]) {
  return topics.flatMap((t) =>
    (t.partitions ?? t.partitionIndexes ?? []).map((partition) => ({ topic: t.name ?? t.topic ?? '', partition })),
  );
}

// ---------------------------------------------------------------- DeleteRecords

const deleteRecords = handler('DeleteRecords', (ctx, reply) => {
  const b = ctx.body;
  const { connection } = ctx;
  const cluster = connection.engine.cluster;
  const results = b.topics.flatMap((t) =>
    t.partitions.map((p) => ({
      topic: t.name,
      partition: p.partitionIndex,
      ...deleteRecordsOnLeader(cluster, connection.brokerId, t.name, p.partitionIndex, p.offset),
    })),
  );
  const low = (r: DeleteRecordsResult & { topic: string; partition: number }) =>
    lowWatermarkIfLeader(cluster, connection.brokerId, r.topic, r.partition);
  const pending = () => results.filter((r) => r.errorCode === 'NONE' && low(r) < r.requestedOffset);
  const send = (timedOut: boolean) => {
    const late = new Set(timedOut ? pending() : []);
    reply({
      throttleTimeMs: 0,
      topics: byTopic(results, (r) => {
        const code: ErrorCode = late.has(r) ? 'REQUEST_TIMED_OUT' : r.errorCode;
        return {
          partitionIndex: r.partition,
          lowWatermark: code === 'NONE' ? low(r) : -1,
          errorCode: errorNumber(code),
        };
      }).map((t) => ({ name: t.name, partitions: t.items })),
    });
  };
  // DelayedDeleteRecords: every replica on a live broker has moved its log start that far.
  waitFor(connection, Math.max(0, b.timeoutMs), () => pending().length === 0, send);
  return undefined;
});

// ---------------------------------------------------------------- DescribeLogDirs

const describeLogDirsHandler = handler('DescribeLogDirs', (ctx, reply) => {
  const broker = ctx.connection.engine.cluster.brokers.get(ctx.connection.brokerId);
  const dirs = broker ? describeLogDirs(broker, ctx.body.topics) : [];
  reply({
    throttleTimeMs: 0,
    errorCode: 0,
    results: dirs.map((d) => ({
      errorCode: 0,
      logDir: d.logDir,
      topics: d.topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => ({ ...p, isFutureKey: false })),
      })),
      // The volume's space (KIP-827) is not the engine's to know: unknown, as Kafka says it.
      totalBytes: -1,
      usableBytes: -1,
    })),
  });
  return undefined;
});

// ---------------------------------------------------------------- DescribeProducers

const describeProducersHandler = handler('DescribeProducers', (ctx, reply) => {
  const { connection } = ctx;
  const topics = ctx.body.topics.map((t) => ({
    name: t.name,
    partitions: t.partitionIndexes.map((partition) => {
      const d = describeProducers(connection.engine.cluster, connection.brokerId, t.name, partition);
      return {
        partitionIndex: partition,
        errorCode: errorNumber(d.errorCode),
        errorMessage: d.errorMessage,
        // No transactions yet: no coordinator epoch, no open transaction.
        activeProducers: d.activeProducers.map((p) => ({ ...p, coordinatorEpoch: -1, currentTxnStartOffset: -1 })),
      };
    }),
  }));
  reply({ throttleTimeMs: 0, topics });
  return undefined;
});

// ---------------------------------------------------------------- ElectLeaders

const electLeadersHandler = handler('ElectLeaders', (ctx, reply) => {
  const b = ctx.body;
  // v0 knows only preferred elections.
  const type = ctx.version >= 1 && b.electionType === ELECTION_TYPE.UNCLEAN ? 'UNCLEAN' : 'PREFERRED';
  const asked = b.topicPartitions === null ? null : partitionsOf(b.topicPartitions);
  const { connection } = ctx;
  const cluster = connection.engine.cluster;
  const results = electLeaders(cluster, connection.brokerId, type, asked);
  // DelayedElectLeader: each elected partition is answered once this broker's metadata names
  // the leader the election chose, or REQUEST_TIMED_OUT when `timeoutMs` passes first.
  const elected = results
    .filter((r) => r.errorCode === 'NONE')
    .map((r) => ({ ...r, leader: cluster.partitionState(r.topic, r.partition)?.leader ?? -1 }));
  const leaderKnown = (e: (typeof elected)[number]) =>
    cluster.brokers
      .get(connection.brokerId)
      ?.metadata.getTopicMetadata([e.topic])[0]
      ?.partitions.find((p) => p.partitionIndex === e.partition)?.leaderId === e.leader;
  const send = (timedOut: boolean) => {
    const late = new Set(
      timedOut ? elected.filter((e) => !leaderKnown(e)).map((e) => `${e.topic}-${e.partition}`) : [],
    );
    reply({
      throttleTimeMs: 0,
      errorCode: 0,
      replicaElectionResults: byTopic(results, (r) => {
        const code: ErrorCode = late.has(`${r.topic}-${r.partition}`) ? 'REQUEST_TIMED_OUT' : r.errorCode;
        return {
          partitionId: r.partition,
          errorCode: errorNumber(code),
          errorMessage: code === r.errorCode ? r.errorMessage : null,
        };
      }).map((t) => ({ topic: t.name, partitionResult: t.items })),
    });
  };
  waitFor(connection, Math.max(0, b.timeoutMs), () => elected.every(leaderKnown), send);
  return undefined;
});

// ---------------------------------------------------------------- reassignments

const alterPartitionReassignments = handler('AlterPartitionReassignments', (ctx, reply) => {
  const { connection } = ctx;
  const cluster = connection.engine.cluster;
  const asked = ctx.body.topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, ...p })));
  const ongoing = listPartitionReassignments(cluster, connection.brokerId, null);
  if (ongoing === null) {
    reply({ throttleTimeMs: 0, errorCode: errorNumber('NOT_CONTROLLER'), errorMessage: null, responses: [] });
    return undefined;
  }
  const live = new Set(cluster.liveBrokerIds());
  // KafkaController.validateReplicas; cancelling (null) is checked by the controller.
  const checked = asked.map(
    (p): { topic: string; partition: number; code: ErrorCode; message: string | null; replicas: number[] | null } => {
      const at = (code: ErrorCode, message: string | null = null) => ({
        topic: p.topic,
        partition: p.partitionIndex,
        code,
        message,
        replicas: p.replicas,
      });
      if (!cluster.assignment(p.topic)[p.partitionIndex]) return at('UNKNOWN_TOPIC_OR_PARTITION');
      if (p.replicas === null) return at('NONE');
      if (p.replicas.length === 0)
        return at('INVALID_REPLICA_ASSIGNMENT', 'Empty replica list specified in partition reassignment.');
      if (new Set(p.replicas).size !== p.replicas.length)
        return at(
          'INVALID_REPLICA_ASSIGNMENT',
          `Duplicate replica ids in partition reassignment replica list: ${p.replicas.join(',')}`,
        );
      if (p.replicas.some((r) => !live.has(r)))
        return at(
          'INVALID_REPLICA_ASSIGNMENT',
          `Replica assignment has brokers that are not alive. Replica list: ${p.replicas.join(',')}, live broker list: ${[...live].join(',')}`,
        );
      return at('NONE');
    },
  );
  // processApiPartitionReassignment: a move in progress is replaced, or cancelled by null replicas.
  const moves = checked.filter((c) => c.code === 'NONE');
  if (moves.length > 0) {
    const codes = cluster.alterPartitionReassignments(
      moves.map((m) => ({ topic: m.topic, partition: m.partition, replicas: m.replicas })),
    );
    moves.forEach((m, i) => {
      m.code = codes[i] ?? 'NONE';
    });
  }
  reply({
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    responses: byTopic(checked, (c) => ({
      partitionIndex: c.partition,
      errorCode: errorNumber(c.code),
      errorMessage: c.message,
    })).map((t) => ({ name: t.name, partitions: t.items })),
  });
  return undefined;
});

const listPartitionReassignmentsHandler = handler('ListPartitionReassignments', (ctx, reply) => {
  const { topics } = ctx.body;
  const asked = topics === null ? null : partitionsOf(topics);
  const ongoing = listPartitionReassignments(ctx.connection.engine.cluster, ctx.connection.brokerId, asked);
  const answer =
    ongoing === null
      ? { throttleTimeMs: 0, errorCode: errorNumber('NOT_CONTROLLER'), errorMessage: null, topics: [] }
      : {
          throttleTimeMs: 0,
          errorCode: 0,
          errorMessage: null,
          topics: byTopic(ongoing, (r) => ({
            partitionIndex: r.partition,
            replicas: r.replicas,
            addingReplicas: r.addingReplicas,
            removingReplicas: r.removingReplicas,
          })).map((t) => ({ name: t.name, partitions: t.items })),
        };
  reply(answer);
  return undefined;
});

export const PARTITION_ADMIN_HANDLERS: readonly ApiHandler[] = [
  deleteRecords,
  describeLogDirsHandler,
  describeProducersHandler,
  electLeadersHandler,
  alterPartitionReassignments,
  listPartitionReassignmentsHandler,
];
