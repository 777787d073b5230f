/**
 * The Admin client's cluster APIs: CreateTopics (answered by the controller broker, as Kafka's
 * ZooKeeper mode does: it writes the topic's znodes and waits until this broker's metadata has a
 * leader for every partition), DescribeConfigs (from the broker's view of the topic and broker
 * configs) and DescribeCluster (the broker's metadata: live brokers, controller, cluster id).
 */
import {
  AUTHORIZED_OPERATIONS_OMITTED,
  CONFIG_RESOURCE_BROKER,
  CONFIG_RESOURCE_TOPIC,
  CONFIG_SOURCE,
  CONFIG_TYPE,
  type CreateTopicOptions,
  type DescribedConfig,
  describeBrokerConfigs,
  describeDefaultBrokerConfigs,
  describeTopicConfigs,
  type ErrorCode,
  isKafkaError,
  KafkaError,
  type MetadataRequest,
  type WireRequest,
  topicConfigEntries,
  ZERO_UUID,
} from '../engine/index';
import { type ApiHandler, type ClientConnection, handler } from './apiHandler';
import { wireBrokers } from './brokerHandlers';
import { errorNumber } from './errorNumber';
import { brokerRelay } from './relay';
import { topicIdOf } from './topicIds';

/** An engine error as a wire error code and message (ApiError.fromThrowable). */
export function apiError(e: unknown): { errorCode: number; errorMessage: string | null } {
  if (!isKafkaError(e)) throw e;
  return { errorCode: errorNumber(e.code), errorMessage: e.reason === '' ? null : e.reason };
}

// ---------------------------------------------------------------- CreateTopics

type CreatableTopic = WireRequest<'CreateTopics'>['topics'][number];

/** The request's topic as the engine's createTopic options; -1 means the broker's default (KIP-464). */
function creationOf(t: CreatableTopic): CreateTopicOptions {
  const configs: Record<string, string> = {};
  for (const c of t.configs) {
    if (c.value === null)
      throw new KafkaError('INVALID_CONFIG', `Null value not supported for topic configs: ${c.name}`, {});
    configs[c.name] = c.value;
  }
  const options: CreateTopicOptions = { name: t.name, configs };
  if (t.numPartitions !== -1) options.partitions = t.numPartitions;
  if (t.replicationFactor !== -1) options.replicationFactor = t.replicationFactor;
  if (t.assignments.length > 0) {
    // AdminZkClient.validateTopicCreate: partition indexes 0..n-1, each once.
    const assignment: number[][] = [];
    for (const a of t.assignments) assignment[a.partitionIndex] = a.brokerIds;
    // Spread, a missing index's hole reads undefined (every alone would skip it).
    const consecutive = assignment.length === t.assignments.length && [...assignment].every((a) => a !== undefined);
    if (!consecutive)
      throw new KafkaError(
        'INVALID_REPLICA_ASSIGNMENT',
        'partitions should be a consecutive 0-based integer sequence',
        {},
      );
    options.assignment = assignment;
  }
  return options;
}

/** Kafka's DelayedCreatePartitions: done once this broker's metadata has a leader for every partition. */
export function whenLeadersKnown(
  connection: ClientConnection,
  topics: string[],
  timeoutMs: number,
  done: (missing: Set<string>) => void,
): void {
  const deadline = Date.now() + timeoutMs;
  const check = () => {
    // A client that hung up waits for nothing.
    if (!connection.isOpen) return;
    const metadata = connection.engine.cluster.brokers.get(connection.brokerId)?.metadata;
    const known = metadata?.getTopicMetadata(topics) ?? [];
    const missing = new Set(
      known.filter((t) => t.errorCode !== 'NONE' || t.partitions.some((p) => p.leaderId < 0)).map((t) => t.name),
    );
    if (missing.size === 0 || Date.now() >= deadline) done(missing);
    else setTimeout(check, 5);
  };
  check();
}

const createTopics = handler('CreateTopics', ({ connection, body, version }, reply) => {
  const { topics, timeoutMs, validateOnly } = body;
  const cluster = connection.engine.cluster;
  const answer = (name: string, errorCode: ErrorCode | number, errorMessage: string | null = null) => ({
    name,
    // The id Metadata and Fetch use for it (a refused topic has none: the zero UUID, as in Kafka).
    topicId: errorCode === 'NONE' || errorCode === 0 ? topicIdOf(connection.engine, name) : ZERO_UUID,
    errorCode: typeof errorCode === 'number' ? errorCode : errorNumber(errorCode),
    errorMessage,
    numPartitions: -1,
    replicationFactor: -1,
    configs: [],
  });
  // ZooKeeper mode: only the active controller creates topics.
  if (cluster.activeController()?.id !== connection.brokerId) {
    reply({ throttleTimeMs: 0, topics: topics.map((t) => answer(t.name, 'NOT_CONTROLLER')) });
    return undefined;
  }
  const created: string[] = [];
  const results = topics.map((t) => {
    if (topics.filter((o) => o.name === t.name).length > 1)
      return answer(t.name, 'INVALID_REQUEST', 'Found multiple entries for this topic.');
    try {
      const options = creationOf(t);
      const assignment = validateOnly ? cluster.validateCreateTopic(options) : connection.engine.createTopic(options);
      if (!validateOnly) created.push(t.name);
      return {
        ...answer(t.name, 'NONE'),
        // v5+ (KIP-525): what the topic got, its defaults filled in.
        ...(version >= 5
          ? {
              numPartitions: assignment.length,
              replicationFactor: assignment[0]?.length ?? -1,
              configs: topicConfigEntries(cluster, options.configs ?? {}).map((c) => ({
                name: c.name,
                value: c.value,
                readOnly: c.readOnly,
                configSource: CONFIG_SOURCE[c.source],
                isSensitive: c.isSensitive,
              })),
            }
          : {}),
      };
    } catch (e) {
      return { ...answer(t.name, 'NONE'), ...apiError(e) };
    }
  });
  const send = (missing: Set<string>) =>
    reply({
      throttleTimeMs: 0,
      topics: results.map((r) =>
        missing.has(r.name) ? { ...r, errorCode: errorNumber('REQUEST_TIMED_OUT'), errorMessage: null } : r,
      ),
    });
  // A zero timeout answers at once, the created topics as timed out (ZkAdminManager.createTopics).
  if (timeoutMs <= 0) send(new Set(created));
  else if (created.length === 0) send(new Set());
  else whenLeadersKnown(connection, created, timeoutMs, send);
  return undefined;
});

// ---------------------------------------------------------------- DescribeConfigs

interface ConfigResourceRequest {
  resourceType: number;
  resourceName: string;
  configurationKeys: string[] | null;
}

/** ConfigHelper.describeConfigs for one resource. */
function configsOf(connection: ClientConnection, r: ConfigResourceRequest): DescribedConfig[] {
  const cluster = connection.engine.cluster;
  if (r.resourceType === CONFIG_RESOURCE_TOPIC) {
    const known = cluster.brokers.get(connection.brokerId)?.metadata.allTopics() ?? [];
    return describeTopicConfigs(cluster, r.resourceName, known, connection.brokerId);
  }
  if (r.resourceType === CONFIG_RESOURCE_BROKER) {
    // The cluster-wide dynamic defaults ('') from /config/brokers/<default>.
    if (r.resourceName === '') return describeDefaultBrokerConfigs(cluster, connection.brokerId);
    if (!/^-?\d+$/.test(r.resourceName))
      throw new KafkaError('INVALID_REQUEST', `Broker id must be an integer, but it is: ${r.resourceName}`, {});
    if (Number(r.resourceName) !== connection.brokerId)
      throw new KafkaError(
        'INVALID_REQUEST',
        `Unexpected broker id, expected ${connection.brokerId} or empty string, but received ${r.resourceName}`,
        {},
      );
    return describeBrokerConfigs(cluster, connection.brokerId);
  }
  throw new KafkaError('INVALID_REQUEST', `Unsupported resource type: ${r.resourceType}`, {});
}

const describeConfigs = handler('DescribeConfigs', (ctx, reply) => {
  const b = ctx.body;
  const results = b.resources.map((r) => {
    const resource = { resourceType: r.resourceType, resourceName: r.resourceName };
    try {
      const wanted = r.configurationKeys;
      const configs = configsOf(ctx.connection, r).filter((c) => wanted === null || wanted.includes(c.name));
      return {
        errorCode: 0,
        errorMessage: null,
        ...resource,
        configs: configs.map((c) => ({
          name: c.name,
          value: c.value,
          readOnly: c.readOnly,
          isDefault: c.source === 'DEFAULT_CONFIG',
          configSource: CONFIG_SOURCE[c.source],
          isSensitive: c.isSensitive,
          synonyms: b.includeSynonyms
            ? c.synonyms.map((s) => ({ name: s.name, value: s.value, source: CONFIG_SOURCE[s.source] }))
            : [],
          configType: CONFIG_TYPE[c.type],
          // Kafka's documentation strings are its prose; glassbox does not carry them.
          documentation: null,
        })),
      };
    } catch (e) {
      return { ...apiError(e), ...resource, configs: [] };
    }
  });
  reply({ throttleTimeMs: 0, results });
  return undefined;
});

// ---------------------------------------------------------------- DescribeCluster

/** EndpointType: what a ZooKeeper-mode broker describes. */
const ENDPOINT_BROKER = 1;
const ENDPOINT_CONTROLLER = 2;
/** AclOperation bits the cluster resource supports (CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE). */
const CLUSTER_OPERATIONS = [5, 7, 8, 9, 10, 11, 12].reduce((bits, op) => bits | (1 << op), 0);

const describeCluster = brokerRelay(
  'DescribeCluster',
  // The broker's metadata, with no topics.
  (): MetadataRequest => ({ api: 'Metadata', topics: [], allowAutoTopicCreation: false }),
  (res, ctx) => {
    const b = ctx.body;
    const endpointType = b.endpointType;
    // AuthHelper.computeDescribeClusterResponse: v0 says INVALID_REQUEST for either mismatch.
    const refuse = (code: ErrorCode, errorMessage: string) => ({
      errorCode: errorNumber(ctx.version === 0 ? 'INVALID_REQUEST' : code),
      errorMessage,
      clusterId: '',
      brokers: [],
    });
    if (endpointType !== ENDPOINT_BROKER && endpointType !== ENDPOINT_CONTROLLER)
      return refuse('UNSUPPORTED_ENDPOINT_TYPE', `Unsupported endpoint type ${endpointType}`);
    if (endpointType === ENDPOINT_CONTROLLER)
      return refuse(
        'MISMATCHED_ENDPOINT_TYPE',
        'The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER',
      );
    const brokers = wireBrokers(res, ctx.connection).map((n) => ({
      brokerId: n.nodeId,
      host: n.host,
      port: n.port,
      rack: n.rack,
    }));
    return {
      throttleTimeMs: 0,
      errorCode: 0,
      endpointType: ENDPOINT_BROKER,
      clusterId: res.clusterId ?? '',
      // A controller this broker does not list as alive is not named (-1).
      controllerId: brokers.some((n) => n.brokerId === res.controllerId) ? res.controllerId : -1,
      brokers,
      // No authorizer: every operation the cluster resource supports.
      clusterAuthorizedOperations: b.includeClusterAuthorizedOperations
        ? CLUSTER_OPERATIONS
        : AUTHORIZED_OPERATIONS_OMITTED,
    };
  },
);

export const ADMIN_HANDLERS: readonly ApiHandler[] = [createTopics, describeConfigs, describeCluster];
