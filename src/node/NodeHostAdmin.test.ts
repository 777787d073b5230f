/**
 * The Admin side of the Node host judged by real clients over sockets: kafkajs 2.2.4's admin
 * (CreateTopics v3, DescribeGroups v2, ListGroups v2, DescribeConfigs v2, all negotiated through
 * ApiVersions), and single requests written and read by the clients' own protocol code where no
 * client API sends them (DescribeCluster v1 and OffsetForLeaderEpoch v4 from @platformatic/kafka,
 * CreateTopics to a broker that is not the controller from kafkajs).
 */
import { createRequire } from 'node:module';
import { describeClusterV1, offsetForLeaderEpochV4, Reader } from '@platformatic/kafka';
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  OffsetCommitRequestData,
  OffsetCommitResponseData,
  OffsetForLeaderEpochResponseData,
} from '../engine/index';
import { exchange, sharedAdminHost, until } from './wireTesting';

const require = createRequire(import.meta.url);
const shared = await sharedAdminHost();
const BASE_PORT = shared.port;
const { client, withAdmin } = shared;

/** The error types of a refused kafkajs createTopics (KafkaJSAggregateError of KafkaJSCreateTopicError). */
async function refusal(p: Promise<unknown>): Promise<{ type: string; message: string }[]> {
  const e = (await p.then(
    () => null,
    (err: unknown) => err,
  )) as { errors?: { type: string; message: string }[] } | null;
  return (e?.errors ?? []).map((x) => ({ type: x.type, message: x.message }));
}

describe('CreateTopics from kafkajs admin', () => {
  it('creates a topic with its configs, on the controller, and answers once every partition has a leader', async () => {
    const created = await withAdmin((admin) =>
      admin.createTopics({
        topics: [
          {
            topic: 'orders',
            numPartitions: 4,
            replicationFactor: 3,
            configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
          },
        ],
      }),
    );
    expect(created).toBe(true);
    const orders = shared.host().engine.topicState('orders');
    expect(orders.partitions.map((p) => p.replicas.length)).toEqual([3, 3, 3, 3]);
    expect(orders.partitions.every((p) => p.leader >= 0)).toBe(true);
    expect(orders.cleanupPolicy).toBe('compact');
  });

  it('-1 partitions and replication factor take the broker defaults num.partitions and default.replication.factor', async () => {
    expect(await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'defaults' }] }))).toBe(true);
    expect(
      shared
        .host()
        .engine.topicState('defaults')
        .partitions.map((p) => p.replicas.length),
    ).toEqual([3, 3]);
  });

  it('validateOnly checks the topic and creates nothing', async () => {
    // kafkajs must not wait for leaders of a topic that will not exist (it would ask Metadata for it).
    const names = shared.host().engine.topicNames();
    expect(
      await withAdmin((admin) =>
        admin.createTopics({
          validateOnly: true,
          waitForLeaders: false,
          topics: [{ topic: 'dry-run', numPartitions: 5 }],
        }),
      ),
    ).toBe(true);
    expect(shared.host().engine.topicNames()).toEqual(names);
    // A validate-only request is refused for the same reasons a real one is.
    const refused = await refusal(
      withAdmin((admin) =>
        admin.createTopics({ validateOnly: true, topics: [{ topic: 'dry-run', replicationFactor: 4 }] }),
      ),
    );
    expect(refused.map((r) => r.type)).toEqual(['INVALID_REPLICATION_FACTOR']);
  });

  it('refuses as Kafka does: an existing topic, too many replicas, no partitions, an illegal name', async () => {
    // kafkajs reads TOPIC_ALREADY_EXISTS alone as "not created", not as a failure.
    expect(await withAdmin((admin) => admin.createTopics({ topics: [{ topic: 'demo' }] }))).toBe(false);
    const refused = await refusal(
      withAdmin((admin) =>
        admin.createTopics({
          topics: [
            { topic: 'too-many', numPartitions: 1, replicationFactor: 5 },
            { topic: 'none', numPartitions: 0, replicationFactor: 1 },
            { topic: 'bad name!', numPartitions: 1, replicationFactor: 1 },
            { topic: 'bad-config', configEntries: [{ name: 'retention.ms', value: 'soon' }] },
          ],
        }),
      ),
    );
    expect(refused.map((r) => r.type).sort()).toEqual([
      'INVALID_CONFIG',
      'INVALID_PARTITIONS',
      'INVALID_REPLICATION_FACTOR',
      'INVALID_TOPIC_EXCEPTION',
    ]);
    for (const name of ['too-many', 'none', 'bad name!', 'bad-config'])
      expect(shared.host().engine.topicNames()).not.toContain(name);
  });

  it("answers each refusal with Kafka's message (CreateTopics v3 read by kafkajs' decoder)", async () => {
    const controller = shared.host().engine.controllerState().id as number;
    const decoded = await kafkajsExchange<{
      topicErrors: { topic: string; errorCode: number; errorMessage: string }[];
    }>(BASE_PORT + controller - 1, 'createTopics', 19, 3, {
      topics: [
        { topic: 'too-many', numPartitions: 1, replicationFactor: 5 },
        { topic: 'none', numPartitions: 0, replicationFactor: 1 },
        { topic: 'twice', numPartitions: 1, replicationFactor: 1 },
        { topic: 'twice', numPartitions: 1, replicationFactor: 1 },
        { topic: 'demo', numPartitions: 1, replicationFactor: 1 },
      ],
      validateOnly: false,
      timeout: 5_000,
    });
    // kafkajs sorts its answer by topic name.
    expect(decoded.topicErrors).toEqual([
      { topic: 'demo', errorCode: 36, errorMessage: "Topic 'demo' already exists." },
      { topic: 'none', errorCode: 37, errorMessage: 'Number of partitions must be larger than 0.' },
      { topic: 'too-many', errorCode: 38, errorMessage: 'Replication factor: 5 larger than available brokers: 3.' },
      { topic: 'twice', errorCode: 42, errorMessage: 'Found multiple entries for this topic.' },
      { topic: 'twice', errorCode: 42, errorMessage: 'Found multiple entries for this topic.' },
    ]);
    expect(shared.host().engine.topicNames()).not.toContain('twice');
  });

  it('a broker that is not the controller answers NOT_CONTROLLER (ZooKeeper mode) and creates nothing', async () => {
    const controller = shared.host().engine.controllerState().id as number;
    const other = [1, 2, 3].find((b) => b !== controller) as number;
    const decoded = await kafkajsExchange<{ topicErrors: { topic: string; errorCode: number }[] }>(
      BASE_PORT + other - 1,
      'createTopics',
      19,
      3,
      { topics: [{ topic: 'elsewhere', numPartitions: 1, replicationFactor: 1 }], validateOnly: false, timeout: 5_000 },
    );
    expect(decoded.topicErrors).toEqual([{ topic: 'elsewhere', errorCode: 41, errorMessage: null }]);
    expect(shared.host().engine.topicNames()).not.toContain('elsewhere');
  });
});

describe('DescribeGroups and ListGroups after a kafkajs consumer group ran', () => {
  it('describes the Stable group with its member, subscription and the assignment its leader computed', async () => {
    const consumer = client('glassbox-watcher').consumer({ groupId: 'watchers' });
    let joined = false;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      joined = true;
    });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: ['demo'], fromBeginning: true });
      await consumer.run({ eachMessage: async () => undefined });
      await until(() => joined, 20_000);
      const described = await withAdmin((admin) => admin.describeGroups(['watchers']));
      const group = described.groups[0];
      expect(group).toMatchObject({
        groupId: 'watchers',
        state: 'Stable',
        protocolType: 'consumer',
        protocol: 'RoundRobinAssigner',
      });
      expect(group?.members.map((m) => m.clientId)).toEqual(['glassbox-watcher']);
      const assignment = kafkajs.AssignerProtocol.MemberAssignment.decode(
        group?.members[0]?.memberAssignment as Buffer,
      );
      expect(assignment?.assignment).toEqual({ demo: [0, 1, 2] });
      const subscription = kafkajs.AssignerProtocol.MemberMetadata.decode(group?.members[0]?.memberMetadata as Buffer);
      expect(subscription?.topics).toEqual(['demo']);
      const listed = await withAdmin((admin) => admin.listGroups());
      expect(listed.groups).toContainEqual({ groupId: 'watchers', protocolType: 'consumer' });
    } finally {
      await consumer.disconnect();
    }
  });
});

/** One request with kafkajs' own encoder for `api` vN, its answer read with kafkajs' own decoder. */
async function kafkajsExchange<T>(port: number, api: string, apiKey: number, v: number, args: unknown): Promise<T> {
  const request = require(`kafkajs/src/protocol/requests/${api}/v${v}/request`)(args) as {
    encode: () => Promise<{ buffer: Buffer }>;
  };
  const body = new Uint8Array((await request.encode()).buffer);
  const answer = await exchange(port, { apiKey, apiVersion: v, flexible: false, body });
  const response = require(`kafkajs/src/protocol/requests/${api}/v${v}/response`) as {
    decode: (b: Buffer) => Promise<T>;
  };
  return response.decode(Buffer.from(answer));
}

describe('JoinGroup v0 (before KIP-394) from kafkajs’ encoder', () => {
  it('a new member is given its id and joins in one request: no MEMBER_ID_REQUIRED round trip', async () => {
    const found = await kafkajsExchange<{ errorCode: number; coordinator: { port: number } }>(
      BASE_PORT,
      'findCoordinator',
      10,
      0,
      { groupId: 'old-client' },
    );
    expect(found.errorCode).toBe(0);
    const metadata = kafkajs.AssignerProtocol.MemberMetadata.encode({
      version: 0,
      topics: ['demo'],
      userData: Buffer.alloc(0),
    });
    const joined = await kafkajsExchange<{
      errorCode: number;
      generationId: number;
      leaderId: string;
      memberId: string;
      members: unknown[];
    }>(found.coordinator.port, 'joinGroup', 11, 0, {
      groupId: 'old-client',
      // v0 has no rebalance timeout: the coordinator waits this session timeout for the join phase.
      sessionTimeout: 10_000,
      memberId: '',
      protocolType: 'consumer',
      groupProtocols: [{ name: 'range', metadata }],
    });
    expect(joined).toMatchObject({ errorCode: 0, generationId: 1 });
    expect(joined.memberId.startsWith('raw-test-')).toBe(true);
    expect(joined.leaderId).toBe(joined.memberId);
    expect(joined.members).toHaveLength(1);
  });
});

describe('DescribeConfigs from kafkajs admin', () => {
  it("answers a topic's and a broker's configs with their sources and synonyms", async () => {
    await until(() => shared.host().engine.topicNames().includes('orders'), 20_000);
    const { resources } = await withAdmin((admin) =>
      admin.describeConfigs({
        includeSynonyms: true,
        resources: [
          { type: kafkajs.ConfigResourceTypes.TOPIC, name: 'orders' },
          { type: kafkajs.ConfigResourceTypes.BROKER, name: '1' },
        ],
      }),
    );
    const topic = new Map(
      resources.find((r) => r.resourceName === 'orders')?.configEntries.map((c) => [c.configName, c]),
    );
    expect(topic.get('cleanup.policy')).toMatchObject({
      configValue: 'compact',
      configSource: kafkajs.ConfigSource.TOPIC_CONFIG,
    });
    expect(topic.get('retention.ms')).toMatchObject({
      configValue: '604800000',
      isDefault: true,
      configSource: kafkajs.ConfigSource.DEFAULT_CONFIG,
    });
    const broker = new Map(resources.find((r) => r.resourceName === '1')?.configEntries.map((c) => [c.configName, c]));
    expect(broker.get('num.partitions')).toMatchObject({
      configValue: '2',
      readOnly: true,
      configSource: kafkajs.ConfigSource.STATIC_BROKER_CONFIG,
    });
    expect(broker.get('num.partitions')?.configSynonyms).toEqual([
      { configName: 'num.partitions', configValue: '2', configSource: kafkajs.ConfigSource.STATIC_BROKER_CONFIG },
      { configName: 'num.partitions', configValue: '1', configSource: kafkajs.ConfigSource.DEFAULT_CONFIG },
    ]);
  });
});

describe('requests no client API sends here, written and read by the clients’ protocol code', () => {
  it('DescribeCluster v1 (@platformatic/kafka): the brokers where they listen, the controller, the cluster id', async () => {
    const body = new Uint8Array(describeClusterV1.createRequest(false, 1).buffer);
    const answer = await exchange(BASE_PORT, { apiKey: 60, apiVersion: 1, flexible: true, body });
    const parsed = describeClusterV1.parseResponse(7, 60, 1, Reader.from(Buffer.from(answer))) as {
      clusterId: string;
      controllerId: number;
      brokers: { brokerId: number; host: string; port: number }[];
    };
    expect(parsed.clusterId).toBe('glassbox-cluster');
    expect(parsed.controllerId).toBe(shared.host().engine.controllerState().id);
    expect(parsed.brokers.map((b) => [b.brokerId, b.host, b.port]).sort()).toEqual([
      [1, '127.0.0.1', BASE_PORT],
      [2, '127.0.0.1', BASE_PORT + 1],
      [3, '127.0.0.1', BASE_PORT + 2],
    ]);
  });

  it('OffsetForLeaderEpoch v4 (@platformatic/kafka): the end of the current epoch on the leader, fenced elsewhere', async () => {
    const p = shared.host().engine.topicState('demo').partitions[0];
    const leader = shared.host().engine.leaderReplica('demo', 0);
    if (!p || !leader) throw new Error('demo-0 has no leader');
    const ask = async (broker: number, currentLeaderEpoch: number) => {
      const body = new Uint8Array(
        offsetForLeaderEpochV4.createRequest(-1, [
          { name: 'demo', partitions: [{ partitionIndex: 0, currentLeaderEpoch, leaderEpoch: p.leaderEpoch }] },
        ]).buffer,
      );
      const answer = await exchange(BASE_PORT + broker - 1, { apiKey: 23, apiVersion: 4, flexible: true, body });
      // Read with the engine's decoder: @platformatic/kafka 1.35.0 reads partition and error code swapped.
      const r = decodeMessage(OffsetForLeaderEpochResponseData, 4, answer) as {
        topics: { partitions: { errorCode: number; leaderEpoch: number; endOffset: number }[] }[];
      };
      return r.topics[0]?.partitions[0];
    };
    expect(await ask(p.leader, p.leaderEpoch)).toEqual({
      errorCode: 0,
      partition: 0,
      leaderEpoch: p.leaderEpoch,
      endOffset: leader.log.logEndOffset,
    });
    expect((await ask(p.leader, p.leaderEpoch + 1))?.errorCode).toBe(75); // UNKNOWN_LEADER_EPOCH
    const follower = [1, 2, 3].find((b) => b !== p.leader) as number;
    expect((await ask(follower, p.leaderEpoch))?.errorCode).toBe(6); // NOT_LEADER_OR_FOLLOWER
  });
});

describe('OffsetCommit to topics the broker does not know', () => {
  /** OffsetCommit v8 (generation -1: a commit from outside the group protocol) to one broker. */
  async function commit(broker: number, topics: { name: string; partitions: number[] }[]) {
    const body = encodeMessage(OffsetCommitRequestData, 8, {
      groupId: 'nonexist-commit',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
      topics: topics.map((t) => ({
        name: t.name,
        partitions: t.partitions.map((p) => ({
          partitionIndex: p,
          committedOffset: 1,
          committedLeaderEpoch: -1,
          committedMetadata: null,
        })),
      })),
    });
    const answer = await exchange(BASE_PORT + broker - 1, { apiKey: 8, apiVersion: 8, flexible: true, body });
    const r = decodeMessage(OffsetCommitResponseData, 8, answer) as {
      topics: { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[];
    };
    return r.topics.map((t) => [t.name, t.partitions.map((p) => [p.partitionIndex, p.errorCode])]);
  }

  it('librdkafka 0030 do_nonexist_commit: a commit to a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION (3)', async () => {
    for (const broker of [1, 2, 3]) {
      expect(await commit(broker, [{ name: 'nonexist', partitions: [0, 1] }])).toEqual([
        [
          'nonexist',
          [
            [0, 3],
            [1, 3],
          ],
        ],
      ]);
    }
  });

  it('KafkaApisTest.testHandleOffsetCommitRequestTopicsAndPartitionsValidation: refused partitions first, the rest committed', async () => {
    // FindCoordinator (kafkajs' fetchOffsets) creates __consumer_offsets; then one broker coordinates the group.
    await withAdmin((admin) => admin.fetchOffsets({ groupId: 'nonexist-commit', topics: ['demo'] }));
    const attempt = () =>
      Promise.all(
        [1, 2, 3].map((broker) =>
          commit(broker, [
            { name: 'demo', partitions: [0, 1, 7] },
            { name: 'zar', partitions: [0, 1] },
          ]),
        ),
      );
    let answers = await attempt();
    // demo-7 does not exist: it comes first in demo's answer; zar (unknown) before any topic the
    // coordinator answered. On the group's coordinator demo-0 and demo-1 are committed (0).
    const committed = (a: typeof answers) => a.find((x) => JSON.stringify(x[0]?.[1]).includes('[0,0]'));
    for (let i = 0; i < 50 && !committed(answers); i++) {
      await new Promise((r) => setTimeout(r, 100));
      answers = await attempt();
    }
    const onCoordinator = committed(answers);
    expect(onCoordinator).toEqual([
      [
        'demo',
        [
          [7, 3],
          [0, 0],
          [1, 0],
        ],
      ],
      [
        'zar',
        [
          [0, 3],
          [1, 3],
        ],
      ],
    ]);
  });
});
