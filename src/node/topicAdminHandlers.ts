/**
 * The Admin APIs that change topics, answered as Kafka 3.9's ZooKeeper-mode broker answers them
 * (ZkAdminManager) and acting through the engine's own commands, so the page draws what they do:
 * CreatePartitions and DeleteTopics (only the active controller takes them, NOT_CONTROLLER
 * elsewhere; each answer waits, as DelayedCreatePartitions / DelayedDeleteTopics, until this
 * broker's metadata shows the change or `timeoutMs` passes), AlterConfigs (a resource's overrides
 * replaced) and IncrementalAlterConfigs (SET / DELETE / APPEND / SUBTRACT on them), which any
 * broker takes.
 */
import {
  ALTER_CONFIG_OP,
  brokerConfigOverrides,
  describeBrokerConfigs,
  CONFIG_RESOURCE_BROKER,
  CONFIG_RESOURCE_TOPIC,
  type ErrorCode,
  isInternalTopic,
  isKafkaError,
  KafkaError,
  type TopicConfigOverrides,
  ZERO_UUID,
} from '../engine/index';
import { apiError } from './adminHandlers';
import { type ApiHandler, type ClientConnection, handler } from './apiHandler';
import { errorNumber } from './errorNumber';
import { topicIdOf, topicNameOf } from './topicIds';

/** The topics this broker's metadata knows (what Kafka's MetadataCache.contains answers from). */
function knownTopics(connection: ClientConnection): Set<string> {
  return new Set(connection.engine.cluster.brokers.get(connection.brokerId)?.metadata.allTopics() ?? []);
}

function isController(connection: ClientConnection): boolean {
  return connection.engine.cluster.activeController()?.id === connection.brokerId;
}

/**
 * A topic purgatory's wait (DelayedCreatePartitions, DelayedDeleteTopics): `done(false)` once
 * `ready()` holds, `done(true)` when `timeoutMs` passed first. A client that hung up waits for nothing.
 */
export function waitFor(
  connection: ClientConnection,
  timeoutMs: number,
  ready: () => boolean,
  done: (timedOut: boolean) => void,
): void {
  const deadline = Date.now() + timeoutMs;
  const check = () => {
    if (!connection.isOpen) return;
    if (ready()) done(false);
    else if (Date.now() >= deadline) done(true);
    else setTimeout(check, 5);
  };
  check();
}

// ---------------------------------------------------------------- CreatePartitions

const createPartitions = handler('CreatePartitions', (ctx, reply) => {
  const { topics, timeoutMs, validateOnly } = ctx.body;
  const result = (name: string, code: ErrorCode, errorMessage: string | null = null) => ({
    name,
    errorCode: errorNumber(code),
    errorMessage,
  });
  if (!isController(ctx.connection)) {
    reply({ throttleTimeMs: 0, results: topics.map((t) => result(t.name, 'NOT_CONTROLLER')) });
    return undefined;
  }
  const engine = ctx.connection.engine;
  const grown = new Map<string, number>();
  const results = topics.map((t) => {
    // KafkaApis: a topic named twice is refused, both times.
    if (topics.filter((o) => o.name === t.name).length > 1)
      return result(t.name, 'INVALID_REQUEST', 'Duplicate topic in request.');
    try {
      const current = engine.cluster.assignment(t.name);
      if (current.length === 0)
        throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `The topic '${t.name}' does not exist.`, {});
      if (
        engine.cluster.brokers
          .get(ctx.connection.brokerId)
          ?.controller.reassignmentsInProgress()
          .some((r) => r.topic === t.name)
      )
        throw new KafkaError(
          'REASSIGNMENT_IN_PROGRESS',
          `A partition reassignment is in progress for the topic '${t.name}'.`,
          {},
        );
      // ZkAdminManager.createPartitions' messages for a count that does not grow.
      if (t.count < current.length)
        throw new KafkaError(
          'INVALID_PARTITIONS',
          `Topic currently has ${current.length} partitions, which is higher than the requested ${t.count}.`,
          {},
        );
      if (t.count === current.length)
        throw new KafkaError('INVALID_PARTITIONS', `Topic already has ${current.length} partitions.`, {});
      const assignment = t.assignments?.map((a) => a.brokerIds);
      if (assignment && assignment.length !== t.count - current.length)
        throw new KafkaError(
          'INVALID_REPLICA_ASSIGNMENT',
          `Increasing the number of partitions by ${t.count - current.length} but ${assignment.length} assignments provided.`,
          {},
        );
      if (validateOnly) {
        const known = new Set(engine.cluster.brokers.keys());
        const unknown = [...new Set((assignment ?? []).flat().filter((id) => !known.has(id)))];
        if (unknown.length > 0)
          throw new KafkaError(
            'INVALID_REPLICA_ASSIGNMENT',
            `Unknown broker(s) in replica assignment: ${unknown.join(', ')}.`,
            {},
          );
      } else {
        engine.createPartitions(t.name, t.count, assignment);
        grown.set(t.name, t.count);
      }
      return result(t.name, 'NONE');
    } catch (e) {
      return { name: t.name, ...apiError(e) };
    }
  });
  const send = (timedOut: boolean) =>
    reply({
      throttleTimeMs: 0,
      results: results.map((r) => (timedOut && grown.has(r.name) ? result(r.name, 'REQUEST_TIMED_OUT') : r)),
    });
  // A zero timeout answers at once, the grown topics as timed out (ZkAdminManager.createPartitions).
  if (grown.size === 0) send(false);
  else if (timeoutMs <= 0) send(true);
  else {
    const metadata = () => engine.cluster.brokers.get(ctx.connection.brokerId)?.metadata;
    waitFor(
      ctx.connection,
      timeoutMs,
      () =>
        [...grown].every(([topic, count]) => {
          const t = metadata()?.getTopicMetadata([topic])[0];
          return t !== undefined && t.partitions.length >= count && t.partitions.every((p) => p.leaderId >= 0);
        }),
      send,
    );
  }
  return undefined;
});

// ---------------------------------------------------------------- DeleteTopics

/** A DeleteTopics answer for one topic, filled in as the deletion goes. */
interface DeletableTopicResult {
  name: string | null;
  topicId: string;
  errorCode: number;
  errorMessage: string | null;
}

const deleteTopics = handler('DeleteTopics', (ctx, reply) => {
  const b = ctx.body;
  // v6 names each topic by name or by id (KIP-516); older versions by name.
  const asked = ctx.version >= 6 ? b.topics : b.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
  const timeoutMs = b.timeoutMs;
  const engine = ctx.connection.engine;
  const results = asked.map(
    (t): DeletableTopicResult => ({ name: t.name, topicId: t.topicId, errorCode: 0, errorMessage: null }),
  );
  const refuseAll = (code: ErrorCode) => {
    reply({ throttleTimeMs: 0, responses: results.map((r) => ({ ...r, errorCode: errorNumber(code) })) });
    return undefined;
  };
  if (!isController(ctx.connection)) return refuseAll('NOT_CONTROLLER');
  // delete.topic.enable=false: v0-2 knew no TOPIC_DELETION_DISABLED.
  if (!engine.cluster.config['delete.topic.enable'])
    return refuseAll(ctx.version < 3 ? 'INVALID_REQUEST' : 'TOPIC_DELETION_DISABLED');
  // KafkaApis throws InvalidRequestException for the whole request: every topic answers it.
  if (results.some((r) => r.name !== null && r.topicId !== ZERO_UUID)) return refuseAll('INVALID_REQUEST');
  const known = knownTopics(ctx.connection);
  const deleting = new Set<string>();
  for (const r of results) {
    if (r.topicId !== ZERO_UUID) {
      r.name = topicNameOf(engine, r.topicId);
      if (r.name !== null && !known.has(r.name)) r.name = null;
      if (r.name === null) {
        r.errorCode = errorNumber('UNKNOWN_TOPIC_ID');
        continue;
      }
    } else r.topicId = r.name !== null && known.has(r.name) ? topicIdOf(engine, r.name) : ZERO_UUID;
    const name = r.name ?? '';
    if (!known.has(name)) r.errorCode = errorNumber('UNKNOWN_TOPIC_OR_PARTITION');
    else if (isInternalTopic(name)) {
      // AdminZkClient.deleteTopic: internal topics are not deleted.
      r.errorCode = errorNumber('INVALID_TOPIC_EXCEPTION');
      r.errorMessage = `Internal topics cannot be deleted: ${name}`;
    } else {
      try {
        engine.deleteTopic(name);
        deleting.add(name);
      } catch (e) {
        if (!isKafkaError(e)) throw e;
        Object.assign(r, apiError(e));
      }
    }
  }
  const send = (timedOut: boolean) =>
    reply({
      throttleTimeMs: 0,
      responses: results.map((r) =>
        timedOut && r.name !== null && deleting.has(r.name) ? { ...r, errorCode: errorNumber('REQUEST_TIMED_OUT') } : r,
      ),
    });
  if (deleting.size === 0) send(false);
  else if (timeoutMs <= 0) send(true);
  else {
    // DelayedDeleteTopics: done once this broker's metadata no longer has the topics.
    waitFor(ctx.connection, timeoutMs, () => [...deleting].every((t) => !knownTopics(ctx.connection).has(t)), send);
  }
  return undefined;
});

// ---------------------------------------------------------------- AlterConfigs, IncrementalAlterConfigs

interface ConfigResource {
  resourceType: number;
  resourceName: string;
}

/** ZkAdminManager's wrapping of a ConfigException: INVALID_CONFIG naming the resource. */
function invalidConfig(r: ConfigResource, e: unknown): never {
  if (isKafkaError(e, 'INVALID_CONFIG')) {
    const type = r.resourceType === CONFIG_RESOURCE_TOPIC ? 'TOPIC' : 'BROKER';
    throw new KafkaError(
      'INVALID_CONFIG',
      `Invalid config value for resource ConfigResource(type=${type}, name='${r.resourceName}'): ${e.reason}`,
      {},
    );
  }
  throw e;
}

/**
 * ZkAdminManager.alterTopicConfigs: the topic's overrides become `next`, validated first
 * (INVALID_CONFIG, nothing written), written unless validate-only.
 */
function alterTopicOverrides(
  connection: ClientConnection,
  r: ConfigResource,
  next: TopicConfigOverrides,
  validateOnly: boolean,
): void {
  const cluster = connection.engine.cluster;
  try {
    cluster.topicConfigWith(next);
  } catch (e) {
    invalidConfig(r, e);
  }
  if (validateOnly) return;
  // The engine merges changes over the current overrides: what is not in `next` is removed.
  const changes: Record<string, string | number | boolean | string[] | null> = {};
  for (const k of Object.keys(cluster.topicOverrides(r.resourceName))) changes[k] = null;
  Object.assign(changes, next);
  connection.engine.alterTopicConfig(r.resourceName, changes);
}

/** The checks both APIs make before touching a resource. */
function checkResource(connection: ClientConnection, r: ConfigResource): void {
  if (r.resourceType === CONFIG_RESOURCE_TOPIC) {
    if (r.resourceName === '') throw new KafkaError('INVALID_REQUEST', 'Default topic resources are not allowed.', {});
    if (!knownTopics(connection).has(r.resourceName))
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `The topic '${r.resourceName}' does not exist.`, {});
    return;
  }
  if (r.resourceType === CONFIG_RESOURCE_BROKER) {
    if (r.resourceName !== '' && !/^-?\d+$/.test(r.resourceName))
      throw new KafkaError('INVALID_REQUEST', `Broker id must be an integer, but it is: ${r.resourceName}`, {});
    if (r.resourceName !== '' && Number(r.resourceName) !== connection.brokerId)
      throw new KafkaError(
        'INVALID_REQUEST',
        `Unexpected broker id, expected ${connection.brokerId}, but received ${r.resourceName}`,
        {},
      );
    return;
  }
  throw new KafkaError(
    'INVALID_REQUEST',
    `AlterConfigs is only supported for topics and brokers, but resource type is ${r.resourceType}`,
    {},
  );
}

/**
 * ZkAdminManager.alterBrokerConfigs: the broker's dynamic configs (an empty name: the cluster-wide
 * default) become `next`, checked first as DynamicBrokerConfig.validateConfigs checks them
 * (INVALID_CONFIG, nothing written), then written to `/config/brokers` unless validate-only; the
 * brokers apply them when they process the `/config/changes` notification.
 */
function alterBrokerConfigs(
  connection: ClientConnection,
  r: ConfigResource,
  next: Record<string, string>,
  validateOnly: boolean,
): void {
  const cluster = connection.engine.cluster;
  const broker = r.resourceName === '' ? null : Number(r.resourceName);
  try {
    cluster.alterBrokerConfig(broker, next, true);
  } catch (e) {
    invalidConfig(r, e);
  }
  if (!validateOnly) cluster.alterBrokerConfig(broker, next);
}

/** Each resource's answer: its error, or none once `alter` went through. */
function resourceResults<R extends ConfigResource>(
  connection: ClientConnection,
  resources: R[],
  alter: (r: R) => void,
) {
  return resources.map((r) => {
    const resource = { resourceType: r.resourceType, resourceName: r.resourceName };
    try {
      checkResource(connection, r);
      alter(r);
      return { errorCode: 0, errorMessage: null, ...resource };
    } catch (e) {
      return { ...apiError(e), ...resource };
    }
  });
}

const alterConfigs = handler('AlterConfigs', (ctx, reply) => {
  const { resources, validateOnly } = ctx.body;
  const responses = resourceResults(ctx.connection, resources, (r) => {
    // AlterConfigs replaces: the entries with a value are the resource's overrides from now on.
    const next: TopicConfigOverrides = {};
    for (const c of r.configs) if (c.value !== null) next[c.name] = c.value;
    if (r.resourceType === CONFIG_RESOURCE_BROKER)
      alterBrokerConfigs(ctx.connection, r, next as Record<string, string>, validateOnly);
    else alterTopicOverrides(ctx.connection, r, next, validateOnly);
  });
  reply({ throttleTimeMs: 0, responses });
  return undefined;
});

interface AlterableConfig {
  name: string;
  configOperation: number;
  value: string | null;
}

/** A list config's items (cleanup.policy): comma-separated, blanks dropped. */
function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The topic configs of list type (APPEND and SUBTRACT apply only to them). */
const LIST_TOPIC_CONFIGS: ReadonlySet<string> = new Set(['cleanup.policy']);
/** The dynamic broker configs of list type (KafkaConfig's ConfigDef.Type.LIST). */
const LIST_BROKER_CONFIGS: ReadonlySet<string> = new Set([
  'log.cleanup.policy',
  'metric.reporters',
  'listeners',
  'advertised.listeners',
  'listener.security.protocol.map',
  'sasl.enabled.mechanisms',
  'ssl.cipher.suites',
  'ssl.enabled.protocols',
  'sasl.kerberos.principal.to.local.rules',
]);

/**
 * ConfigAdminManager.prepareIncrementalConfigs: each operation on the current overrides; APPEND
 * and SUBTRACT only on a list config (INVALID_CONFIG otherwise), APPEND starting from the
 * effective value when there is no override.
 */
function applyIncremental(
  current: TopicConfigOverrides,
  effective: Record<string, unknown>,
  ops: AlterableConfig[],
  resource: ConfigResource,
  lists: ReadonlySet<string> = LIST_TOPIC_CONFIGS,
): TopicConfigOverrides {
  const next: TopicConfigOverrides = { ...current };
  const seen = new Set<string>();
  for (const op of ops) {
    if (seen.has(op.name))
      throw new KafkaError('INVALID_REQUEST', `Error due to duplicate config keys: ${op.name}`, {});
    seen.add(op.name);
  }
  for (const op of ops) {
    switch (op.configOperation) {
      case ALTER_CONFIG_OP.SET:
        if (op.value === null) throw new KafkaError('INVALID_REQUEST', `Null value not supported for : ${op.name}`, {});
        next[op.name] = op.value;
        break;
      case ALTER_CONFIG_OP.DELETE:
        delete next[op.name];
        break;
      case ALTER_CONFIG_OP.APPEND:
      case ALTER_CONFIG_OP.SUBTRACT: {
        const verb = op.configOperation === ALTER_CONFIG_OP.APPEND ? 'append' : 'subtract';
        if (!lists.has(op.name))
          invalidConfig(
            resource,
            new KafkaError('INVALID_CONFIG', `Config value ${verb} is not allowed for config key: ${op.name}`, {}),
          );
        const items = listOf(next[op.name] ?? effective[op.name]);
        const change = listOf(op.value);
        next[op.name] =
          op.configOperation === ALTER_CONFIG_OP.APPEND
            ? [...items, ...change.filter((c) => !items.includes(c))].join(',')
            : items.filter((i) => !change.includes(i)).join(',');
        break;
      }
      default:
        throw new KafkaError('INVALID_REQUEST', `Unknown alter config operation ${op.configOperation}`, {});
    }
  }
  return next;
}

const incrementalAlterConfigs = handler('IncrementalAlterConfigs', (ctx, reply) => {
  const { resources, validateOnly } = ctx.body;
  const cluster = ctx.connection.engine.cluster;
  const responses = resourceResults(ctx.connection, resources, (r) => {
    if (r.resourceType === CONFIG_RESOURCE_BROKER) {
      // ZkAdminManager.incrementalAlterConfigs: the operations apply to what /config/brokers holds;
      // APPEND with nothing there starts from the config's default.
      const broker = r.resourceName === '' ? null : Number(r.resourceName);
      const defaults = Object.fromEntries(
        describeBrokerConfigs(cluster).map((c) => [c.name, c.synonyms[c.synonyms.length - 1]?.value]),
      );
      const current = brokerConfigOverrides(cluster.zk, broker);
      const next = applyIncremental(current, defaults, r.configs, r, LIST_BROKER_CONFIGS);
      alterBrokerConfigs(ctx.connection, r, next as Record<string, string>, validateOnly);
      return;
    }
    const current = cluster.topicOverrides(r.resourceName);
    const next = applyIncremental(current, { ...cluster.topicConfig(r.resourceName) }, r.configs, r);
    alterTopicOverrides(ctx.connection, r, next, validateOnly);
  });
  reply({ throttleTimeMs: 0, responses });
  return undefined;
});

export const TOPIC_ADMIN_HANDLERS: readonly ApiHandler[] = [
  createPartitions,
  deleteTopics,
  alterConfigs,
  incrementalAlterConfigs,
];
