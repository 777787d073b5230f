/**
 * The APIs the Node host serves, by api key: ApiVersions, answered here as Kafka's KafkaApis
 * answers it from the broker's own table, and the handlers of each family of APIs.
 */
import { inRange, WIRE_APIS, type WireApi } from '../engine/index';
import { ADMIN_HANDLERS } from './adminHandlers';
import type { ApiHandler } from './apiHandler';
import { BROKER_HANDLERS } from './brokerHandlers';
import { errorNumber } from './errorNumber';
import { GROUP_DELETION_HANDLERS } from './groupDeletionHandlers';
import { GROUP_HANDLERS } from './groupHandlers';
import { PARTITION_ADMIN_HANDLERS } from './partitionAdminHandlers';
import { TOPIC_ADMIN_HANDLERS } from './topicAdminHandlers';

const apiVersions: ApiHandler<'ApiVersions'> = {
  api: 'ApiVersions',
  handle(ctx, reply) {
    // KIP-511: a version this broker does not know is answered UNSUPPORTED_VERSION, in v0.
    const known = inRange(WIRE_APIS.ApiVersions.request.valid, ctx.header.apiVersion);
    reply({
      errorCode: known ? 0 : errorNumber('UNSUPPORTED_VERSION'),
      apiKeys: advertisedApis(),
      throttleTimeMs: 0,
    });
    return undefined;
  },
};

/** What ApiVersions advertises: exactly the served versions. */
export function advertisedApis(): { apiKey: number; minVersion: number; maxVersion: number }[] {
  return [...SERVED.values()]
    .map(({ api }) => {
      const { apiKey, valid } = WIRE_APIS[api].request;
      return { apiKey, minVersion: valid.lo, maxVersion: valid.hi };
    })
    .sort((a, b) => a.apiKey - b.apiKey);
}

/** Served APIs by api key. */
export const SERVED: ReadonlyMap<number, ApiHandler> = new Map(
  [
    apiVersions,
    ...BROKER_HANDLERS,
    ...GROUP_HANDLERS,
    ...ADMIN_HANDLERS,
    ...TOPIC_ADMIN_HANDLERS,
    ...PARTITION_ADMIN_HANDLERS,
    ...GROUP_DELETION_HANDLERS,
  ].map((h) => [WIRE_APIS[h.api].request.apiKey, h]),
);

/**
 * The APIs whose answer acknowledges a write: a Produce's append, a commit's or a group's records
 * in `__consumer_offsets`, a topic's or a producer id block's znodes. Their answers leave only once
 * every file write issued so far is in the files (WireGateway's `written`), so nothing a client saw
 * acknowledged lives only in this process's memory. Reads are answered at once.
 */
export const ACKNOWLEDGES_WRITES: ReadonlySet<WireApi> = new Set<WireApi>([
  'Produce',
  'OffsetCommit',
  'JoinGroup',
  'LeaveGroup',
  'SyncGroup',
  'CreateTopics',
  'InitProducerId',
]);
