/**
 * DeleteGroups (KIP-229) and OffsetDelete (KIP-496), sent by the Admin client to the group's
 * coordinator: an Empty group's metadata and committed offsets go, or some of a group's offsets,
 * as tombstones in `__consumer_offsets` written by the engine's GroupCoordinator
 * (`ConsumerGroups.deleteGroup`, `deleteOffsets`). NOT_COORDINATOR on a broker that does not lead
 * the group's offsets partition, NON_EMPTY_GROUP while it has members (OffsetDelete: of another
 * protocol than `consumer`; a consumer group's subscribed topics are GROUP_SUBSCRIBED_TO_TOPIC),
 * GROUP_ID_NOT_FOUND for a group the coordinator does not know.
 */
import { type ErrorCode, groupCoordinatorPartition, isKafkaError } from '../engine/index';
import { type ApiHandler, type ClientConnection, handler } from './apiHandler';
import { errorCodeOf, errorNumber } from './errorNumber';

/** Whether this connection's broker leads the group's `__consumer_offsets` partition. */
function coordinates(connection: ClientConnection, groupId: string): boolean {
  const { cluster, groups } = connection.engine;
  const partition = groupCoordinatorPartition(groupId, groups.config['offsets.topic.num.partitions']);
  return cluster.partitionState('__consumer_offsets', partition)?.leader === connection.brokerId;
}

const deleteGroups = handler('DeleteGroups', (ctx, reply) => {
  const groups = ctx.body.groupsNames;
  const results = new Map<number, ErrorCode>();
  const settle = (i: number, code: ErrorCode) => {
    results.set(i, code);
    if (results.size < groups.length) return;
    reply({
      throttleTimeMs: 0,
      results: groups.map((groupId, j) => ({ groupId, errorCode: errorNumber(results.get(j) ?? 'NONE') })),
    });
  };
  if (groups.length === 0) reply({ throttleTimeMs: 0, results: [] });
  groups.forEach((groupId, i) => {
    if (groupId === '') settle(i, 'INVALID_GROUP_ID');
    else if (!coordinates(ctx.connection, groupId)) settle(i, 'NOT_COORDINATOR');
    else
      try {
        ctx.connection.engine.groups.deleteGroup(groupId, (error) => settle(i, errorCodeOf(error)));
      } catch (e) {
        if (!isKafkaError(e)) throw e;
        settle(i, e.code);
      }
  });
  return undefined;
});

const offsetDelete = handler('OffsetDelete', (ctx, reply) => {
  const { groupId, topics } = ctx.body;
  const asked = topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionIndex })));
  const answer = (groupError: ErrorCode, errors: ErrorCode[]) => {
    // A group-level error answers no partitions (OffsetDeleteResponse).
    const topics = new Map<string, { partitionIndex: number; errorCode: number }[]>();
    if (groupError === 'NONE')
      for (const [i, p] of asked.entries()) {
        const list = topics.get(p.topic) ?? [];
        list.push({ partitionIndex: p.partition, errorCode: errorNumber(errors[i] ?? 'NONE') });
        topics.set(p.topic, list);
      }
    reply({
      errorCode: errorNumber(groupError),
      throttleTimeMs: 0,
      topics: [...topics].map(([name, partitions]) => ({ name, partitions })),
    });
  };
  if (groupId === '') answer('INVALID_GROUP_ID', []);
  else if (!coordinates(ctx.connection, groupId)) answer('NOT_COORDINATOR', []);
  else
    try {
      ctx.connection.engine.groups.deleteOffsets(groupId, asked, (groupError, errors) =>
        answer(errorCodeOf(groupError), errors.map(errorCodeOf)),
      );
    } catch (e) {
      if (!isKafkaError(e)) throw e;
      answer(e.code, []);
    }
  return undefined;
});

export const GROUP_DELETION_HANDLERS: readonly ApiHandler[] = [deleteGroups, offsetDelete];
