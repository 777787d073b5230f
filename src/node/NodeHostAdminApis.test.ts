/**
 * The Admin APIs that change the cluster, end to end over sockets, judged by real admin clients:
 * kafkajs 2.2.4's admin (CreatePartitions, DeleteTopics, AlterConfigs, DeleteRecords,
 * DeleteGroups, Alter/ListPartitionReassignments), @platformatic/kafka 1.35.0's Admin
 * (IncrementalAlterConfigs, DescribeLogDirs, OffsetDelete) and single requests in its own
 * encoding where no client API sends them (DescribeProducers; ElectLeaders, which neither client
 * has, in Kafka's layout written by the engine's schema). Each checks what the engine did, not
 * only what the client was told.
 */
import { Admin, deleteTopicsV6, describeProducersV0, Reader } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import {
  DeleteTopicsResponseData,
  DescribeConfigsRequestData,
  DescribeConfigsResponseData,
  decodeMessage,
  ElectLeadersRequestData,
  ElectLeadersResponseData,
  encodeMessage,
  IncrementalAlterConfigsRequestData,
  IncrementalAlterConfigsResponseData,
} from '../engine/index';
import { advertisedApis } from './apiHandlers';
import { exchange, sharedAdminHost, until } from './wireTesting';

const shared = await sharedAdminHost();
const BASE_PORT = shared.port;
const { client, withAdmin } = shared;

async function withPlatformatic<T>(use: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Admin({ clientId: 'platformatic-admin', bootstrapBrokers: [`127.0.0.1:${BASE_PORT}`] });
  try {
    return await use(admin);
  } finally {
    await admin.close();
  }
}

/** kafkajs' error of a refused call, as Kafka's error name, wherever kafkajs nests it. */
interface RefusalShape {
  type?: string;
  errors?: RefusalShape[];
  groups?: { error?: RefusalShape }[];
  partitions?: { error?: RefusalShape }[];
  cause?: RefusalShape;
}
function kafkaType(e: RefusalShape | undefined): string | undefined {
  if (!e) return undefined;
  if (e.type && e.type !== 'UNKNOWN') return e.type;
  return (
    kafkaType(e.errors?.[0]) ??
    kafkaType(e.groups?.[0]?.error) ??
    kafkaType(e.partitions?.[0]?.error) ??
    kafkaType(e.cause)
  );
}
async function refusedWith(p: Promise<unknown>): Promise<string> {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as RefusalShape | null;
  return (e && kafkaType(e)) ?? String(e);
}

/** kafkajs alterConfigs (legacy: the resource's dynamic configs replaced) of one config; type 2 a topic, 4 a broker. */
function alterConfig(type: number, name: string, configName: string, value: string) {
  return withAdmin((admin) =>
    admin.alterConfigs({
      validateOnly: false,
      resources: [{ type, name, configEntries: [{ name: configName, value }] }],
    }),
  );
}

async function produce(topic: string, partition: number, count: number): Promise<void> {
  const producer = client('admin-test-producer').producer({ idempotent: true });
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: Array.from({ length: count }, (_, i) => ({ partition, value: `v${i}` })),
  });
  await producer.disconnect();
}

describe('ApiVersions', () => {
  it("advertises each Admin API with Kafka 3.9's validVersions (clients/src/main/resources/common/message/*Request.json)", () => {
    const advertised = new Map(advertisedApis().map((a) => [a.apiKey, `${a.minVersion}-${a.maxVersion}`]));
    const kafka39: Record<number, string> = {
      20: '0-6', // DeleteTopics
      21: '0-2', // DeleteRecords
      33: '0-2', // AlterConfigs
      35: '0-4', // DescribeLogDirs
      37: '0-3', // CreatePartitions
      42: '0-2', // DeleteGroups
      43: '0-2', // ElectLeaders
      44: '0-1', // IncrementalAlterConfigs
      45: '0-0', // AlterPartitionReassignments
      46: '0-0', // ListPartitionReassignments
      47: '0-0', // OffsetDelete
      61: '0-0', // DescribeProducers
    };
    for (const [key, range] of Object.entries(kafka39))
      expect([key, advertised.get(Number(key))]).toEqual([key, range]);
    // Not served, so never advertised: CreateAcls (30), DescribeAcls (29), AddPartitionsToTxn (24).
    for (const key of [29, 30, 24]) expect(advertised.has(key)).toBe(false);
  });
});

describe('CreatePartitions and DeleteTopics from kafkajs admin', () => {
  it('grows a topic, answered once every new partition has a leader; a count that does not grow is INVALID_PARTITIONS', async () => {
    await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'grow', numPartitions: 2 }] }));
    await withAdmin((admin) => admin.createPartitions({ topicPartitions: [{ topic: 'grow', count: 5 }] }));
    const grown = shared.host().engine.topicState('grow').partitions;
    expect(grown.map((p) => p.partition)).toEqual([0, 1, 2, 3, 4]);
    expect(grown.every((p) => p.leader >= 0 && p.replicas.length === 3)).toBe(true);
    expect(
      await refusedWith(
        withAdmin((admin) => admin.createPartitions({ topicPartitions: [{ topic: 'grow', count: 3 }] })),
      ),
    ).toBe('INVALID_PARTITIONS');
    expect(shared.host().engine.topicState('grow').partitions).toHaveLength(5);
  });

  it('ZkAdminManager.createTopics checks no broker id of a manual assignment: a broker never registered is accepted, its partition offline', async () => {
    const replicaAssignment = [
      { partition: 0, replicas: [1, 9] },
      { partition: 1, replicas: [9, 8] },
    ];
    const checked = await withAdmin((admin) =>
      admin.createTopics({
        validateOnly: true,
        waitForLeaders: false,
        topics: [{ topic: 'stranded', replicaAssignment }],
      }),
    );
    expect(checked).toBe(true);
    // Partition 1 never gets a leader, so the answer is REQUEST_TIMED_OUT once the timeout passes.
    await withAdmin((admin) =>
      admin.createTopics({ timeout: 300, topics: [{ topic: 'stranded', replicaAssignment }] }),
    ).catch(() => undefined);
    const cluster = shared.host().engine.cluster;
    await until(() => cluster.partitionState('stranded', 0)?.leader === 1, 20_000);
    expect(cluster.assignment('stranded')).toEqual([
      [1, 9],
      [9, 8],
    ]);
    expect(cluster.partitionState('stranded', 1)?.leader ?? -1).toBe(-1);
  });

  it('deletes a topic through the controller (its znodes and every replica go) and refuses an unknown one', async () => {
    await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'doomed', numPartitions: 2 }] }));
    await withAdmin((admin) => admin.deleteTopics({ topics: ['doomed'], timeout: 5_000 }));
    // DelayedDeleteTopics answers once the controller's broker dropped the topic from its metadata
    // (UpdateMetadata with leader -2); the znodes go once every StopReplica is answered
    // (TopicDeletionManager), as DeleteTopicTest's verifyTopicDeletion waits for.
    await until(() => !shared.host().engine.topicNames().includes('doomed'), 5_000);
    expect(
      shared
        .host()
        .engine.znodes()
        .some((z) => z.path.includes('doomed')),
    ).toBe(false);
    // kafkajs retries UNKNOWN_TOPIC_OR_PARTITION for seconds; @platformatic/kafka reports it at once.
    const unknown = await withPlatformatic((admin) => admin.deleteTopics({ topics: ['never-was'] })).then(
      () => 'deleted',
      (e: { errors?: { apiCode?: number; response?: unknown }[] }) => JSON.stringify(e.errors?.[0] ?? e),
    );
    expect(unknown).toContain('"errorCode":3');
    // v6 naming a topic by both name and id: the whole request is INVALID_REQUEST, nothing deleted.
    const controller = shared.host().engine.controllerState().id ?? 1;
    const both = deleteTopicsV6.createRequest([{ name: 'grow', topicId: '0123456789abcdef0123456789abcdef' }], 1_000);
    const answer = decodeMessage(
      DeleteTopicsResponseData,
      6,
      await exchange(BASE_PORT + controller - 1, {
        apiKey: 20,
        apiVersion: 6,
        flexible: true,
        body: new Uint8Array(both.buffer),
      }),
    ) as { responses: { errorCode: number }[] };
    expect(answer.responses.map((r) => r.errorCode)).toEqual([42]);
    expect(shared.host().engine.topicNames()).toContain('grow');
  });
});

describe('AlterConfigs (kafkajs) and IncrementalAlterConfigs (@platformatic/kafka)', () => {
  it('AlterConfigs replaces the overrides; a bad value is INVALID_CONFIG and changes nothing', async () => {
    await withAdmin((admin) =>
      admin.createTopics({
        topics: [{ topic: 'configured', configEntries: [{ name: 'retention.ms', value: '5000' }] }],
      }),
    );
    await alterConfig(2, 'configured', 'cleanup.policy', 'compact');
    // Replaced: retention.ms is no longer overridden.
    expect(shared.host().engine.cluster.topicOverrides('configured')).toEqual({ 'cleanup.policy': 'compact' });
    expect(await refusedWith(alterConfig(2, 'configured', 'segment.bytes', '-5'))).toBe('INVALID_CONFIG');
    expect(shared.host().engine.cluster.topicOverrides('configured')).toEqual({ 'cleanup.policy': 'compact' });
  });

  it('IncrementalAlterConfigs SETs, APPENDs to a list config and DELETEs, keeping the rest', async () => {
    await withPlatformatic((admin) =>
      admin.incrementalAlterConfigs({
        resources: [
          {
            resourceType: 2,
            resourceName: 'configured',
            configs: [
              { name: 'retention.ms', configOperation: 0, value: '60000' },
              { name: 'cleanup.policy', configOperation: 2, value: 'delete' },
            ],
          },
        ],
      }),
    );
    expect(shared.host().engine.cluster.topicOverrides('configured')).toEqual({
      'cleanup.policy': 'compact,delete',
      'retention.ms': '60000',
    });
    await withPlatformatic((admin) =>
      admin.incrementalAlterConfigs({
        resources: [
          { resourceType: 2, resourceName: 'configured', configs: [{ name: 'retention.ms', configOperation: 1 }] },
        ],
      }),
    );
    expect(shared.host().engine.cluster.topicOverrides('configured')).toEqual({ 'cleanup.policy': 'compact,delete' });
  });
});

describe('dynamic broker configs: IncrementalAlterConfigs and AlterConfigs of a broker, read back by DescribeConfigs', () => {
  it('librdkafka 0081: a per-broker dynamic config goes to /config/brokers/<id> (ZkAdminManager.incrementalAlterConfigs), reaches the broker through /config/changes and is described as DYNAMIC_BROKER_CONFIG', async () => {
    const name = 'sasl.kerberos.min.time.before.relogin';
    await withPlatformatic((admin) =>
      admin.incrementalAlterConfigs({
        resources: [{ resourceType: 4, resourceName: '1', configs: [{ name, configOperation: 0, value: '58000' }] }],
      }),
    );
    expect(shared.host().engine.cluster.zk.getData('/config/brokers/1').data).toEqual({
      version: 1,
      config: { [name]: '58000' },
    });
    await until(
      () => shared.host().engine.cluster.broker(1).dynamicConfig.currentDynamicBrokerConfigs[name] === '58000',
    );
    const described = await withAdmin((admin) =>
      admin.describeConfigs({ includeSynonyms: true, resources: [{ type: 4, name: '1', configNames: [name] }] }),
    );
    // ConfigSource 2: DYNAMIC_BROKER_CONFIG; a dynamic config is not read-only.
    expect(described.resources[0]?.configEntries).toEqual([
      expect.objectContaining({ configName: name, configValue: '58000', configSource: 2, readOnly: false }),
    ]);
  });

  it('DynamicBrokerConfig.validateConfigs: a non-dynamic config is INVALID_CONFIG; a cluster-wide default is DYNAMIC_DEFAULT_BROKER_CONFIG on every broker', async () => {
    expect(await refusedWith(alterConfig(4, '2', 'num.partitions', '7'))).toBe('INVALID_CONFIG');
    expect(shared.host().engine.cluster.zk.exists('/config/brokers/2')).toBeNull();
    // The cluster-wide default (an empty name): kafkajs refuses to send one, so in Kafka's layout.
    const alter = await exchange(BASE_PORT, {
      apiKey: 44,
      apiVersion: 1,
      flexible: true,
      body: encodeMessage(IncrementalAlterConfigsRequestData, 1, {
        resources: [
          {
            resourceType: 4,
            resourceName: '',
            configs: [{ name: 'log.retention.ms', configOperation: 0, value: '3600000' }],
          },
        ],
        validateOnly: false,
      }),
    });
    const altered = decodeMessage(IncrementalAlterConfigsResponseData, 1, alter) as {
      responses: { errorCode: number }[];
    };
    expect(altered.responses.map((r) => r.errorCode)).toEqual([0]);
    await until(() => shared.host().engine.cluster.broker(3).dynamicConfig.logDefaults()['retention.ms'] === '3600000');
    const describe = await exchange(BASE_PORT + 2, {
      apiKey: 32,
      apiVersion: 4,
      flexible: true,
      body: encodeMessage(DescribeConfigsRequestData, 4, {
        resources: [{ resourceType: 4, resourceName: '', configurationKeys: null }],
        includeSynonyms: false,
        includeDocumentation: false,
      }),
    });
    const described = decodeMessage(DescribeConfigsResponseData, 4, describe) as {
      results: { configs: { name: string; value: string; configSource: number }[] }[];
    };
    // ConfigSource 3: DYNAMIC_DEFAULT_BROKER_CONFIG.
    expect(described.results[0]?.configs).toEqual([
      expect.objectContaining({ name: 'log.retention.ms', value: '3600000', configSource: 3 }),
    ]);
  });
});

describe('DeleteRecords (kafkajs) and DescribeLogDirs (@platformatic/kafka)', () => {
  it('moves the log start of the leader and its followers; reads start there; sizes are the segment bytes', async () => {
    await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'trimmed', numPartitions: 1 }] }));
    await produce('trimmed', 0, 100);
    await until(() =>
      shared
        .host()
        .engine.partitionState('trimmed', 0)
        .replicaStates.every((r) => r.highWatermark === 100),
    );
    // kafkajs sends DeleteRecords to the leaders its metadata names: load it first.
    const trim = (offset: string) =>
      withAdmin(async (admin) => {
        await admin.fetchTopicMetadata({ topics: ['trimmed'] });
        await admin.deleteTopicRecords({ topic: 'trimmed', partitions: [{ partition: 0, offset }] });
      });
    await trim('40');
    // The answer waited for the low watermark: every replica starts at 40.
    const replicas = shared
      .host()
      .engine.snapshot()
      .replicas.filter((r) => r.topic === 'trimmed');
    expect(replicas.map((r) => r.logStartOffset)).toEqual([40, 40, 40]);
    const offsets = await withAdmin((admin) => admin.fetchTopicOffsets('trimmed'));
    expect(offsets[0]).toMatchObject({ partition: 0, low: '40', high: '100' });
    // Past the high watermark: OFFSET_OUT_OF_RANGE, nothing moved.
    expect(await refusedWith(trim('500'))).toBe('OFFSET_OUT_OF_RANGE');

    const dirs = await withPlatformatic((admin) =>
      admin.describeLogDirs({ topics: [{ name: 'trimmed', partitions: [0] }] }),
    );
    expect(dirs.map((d) => d.broker).sort()).toEqual([1, 2, 3]);
    for (const d of dirs) {
      const replica = replicas.find((r) => r.broker === d.broker);
      const bytes = replica?.segments.reduce((n, s) => n + s.sizeInBytes, 0) ?? -1;
      const described = d.results.flatMap((r) => r.topics).find((t) => t.name === 'trimmed');
      expect(described?.partitions).toEqual([
        { partitionIndex: 0, partitionSize: BigInt(bytes), offsetLag: 0n, isFutureKey: false },
      ]);
      expect(bytes).toBeGreaterThan(0);
    }
  });

  it('DescribeProducers (@platformatic/kafka encoding) names the idempotent producer on the leader', async () => {
    const leader = shared.host().engine.partitionState('trimmed', 0).leader;
    const body = await exchange(BASE_PORT + leader - 1, {
      apiKey: 61,
      apiVersion: 0,
      flexible: true,
      body: new Uint8Array(describeProducersV0.createRequest([{ name: 'trimmed', partitionIndexes: [0] }]).buffer),
    });
    const parsed = describeProducersV0.parseResponse(1, 61, 0, Reader.from(Buffer.from(body)));
    const producers = parsed.topics[0]?.partitions[0]?.activeProducers ?? [];
    expect(producers).toHaveLength(1);
    expect(producers[0]?.lastSequence).toBe(99);
  });
});

describe('DeleteGroups (kafkajs) and OffsetDelete (@platformatic/kafka)', () => {
  async function commitAndLeave(groupId: string, topic: string): Promise<void> {
    const consumer = client(`${groupId}-member`).consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let seen = 0;
    await consumer.run({ eachMessage: async () => void seen++ });
    await until(() => seen >= 60, 20_000);
    await consumer.commitOffsets([{ topic, partition: 0, offset: '60' }]);
    await consumer.disconnect();
  }

  it("OffsetDelete removes an Empty group's offsets of a partition; DeleteGroups removes the group", async () => {
    await commitAndLeave('deletable', 'trimmed');
    const before = await withAdmin((admin) => admin.fetchOffsets({ groupId: 'deletable', topics: ['trimmed'] }));
    expect(before[0]?.partitions[0]?.offset).toBe('60');
    await withPlatformatic((admin) =>
      admin.deleteConsumerGroupOffsets({ groupId: 'deletable', topics: [{ name: 'trimmed', partitionIndexes: [0] }] }),
    );
    const after = await withAdmin((admin) => admin.fetchOffsets({ groupId: 'deletable', topics: ['trimmed'] }));
    expect(after[0]?.partitions[0]?.offset).toBe('-1');
    await withAdmin((admin) => admin.deleteGroups(['deletable']));
    const groups = await withAdmin((admin) => admin.listGroups());
    expect(groups.groups.map((g) => g.groupId)).not.toContain('deletable');
    expect(await refusedWith(withAdmin((admin) => admin.deleteGroups(['deletable'])))).toBe('GROUP_ID_NOT_FOUND');
  });
});

describe('Reassignments (kafkajs) and ElectLeaders', () => {
  it('moves a partition to two replicas and lists it while it moves', async () => {
    await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'moved', numPartitions: 1 }] }));
    const original = shared.host().engine.partitionState('moved', 0).replicas;
    const target = original.slice(0, 2);
    await withAdmin((admin) =>
      admin.alterPartitionReassignments({
        topics: [{ topic: 'moved', partitionAssignment: [{ partition: 0, replicas: target }] }],
      }),
    );
    await until(() => shared.host().engine.cluster.assignment('moved')[0]?.length === 2, 20_000);
    expect(shared.host().engine.cluster.assignment('moved')[0]).toEqual(target);
    const listed = await withAdmin((admin) =>
      admin.listPartitionReassignments({ topics: [{ topic: 'moved', partitions: [0] }] }),
    );
    expect(listed.topics).toEqual([]);
  });

  it('ElectLeaders v2 PREFERRED: NONE where the preferred replica took over, ELECTION_NOT_NEEDED where it leads', async () => {
    const controller = shared.host().engine.controllerState().id ?? -1;
    const request = encodeMessage(ElectLeadersRequestData, 2, {
      electionType: 0,
      topicPartitions: [{ topic: 'demo', partitions: [0] }],
      timeoutMs: 5_000,
    });
    const body = await exchange(BASE_PORT + controller - 1, {
      apiKey: 43,
      apiVersion: 2,
      flexible: true,
      body: request,
    });
    const answer = decodeMessage(ElectLeadersResponseData, 2, body) as {
      replicaElectionResults: { topic: string; partitionResult: { partitionId: number; errorCode: number }[] }[];
    };
    expect(answer.replicaElectionResults).toEqual([
      {
        topic: 'demo',
        partitionResult: [
          { partitionId: 0, errorCode: 84, errorMessage: 'Leader election not needed for topic partition' },
        ],
      },
    ]);
    // Off the controller: NOT_CONTROLLER (41).
    const other = [1, 2, 3].find((b) => b !== controller) ?? 1;
    const refused = decodeMessage(
      ElectLeadersResponseData,
      2,
      await exchange(BASE_PORT + other - 1, { apiKey: 43, apiVersion: 2, flexible: true, body: request }),
    ) as typeof answer;
    expect(refused.replicaElectionResults[0]?.partitionResult[0]?.errorCode).toBe(41);
  });
});
