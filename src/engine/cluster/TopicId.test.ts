import { describe, expect, it } from 'vitest';
import { Rng } from '../Rng';
import { newTopicId, uuidFromString, uuidToString } from './TopicId';
import { startCluster } from './testing';

describe('topic ids (KIP-516) in ZooKeeper mode', () => {
  // UuidTest.testStringConversion: Uuid.toString is URL-safe base64 without padding, and
  // Uuid.fromString reads it back; ZERO_UUID (0, 0) and METADATA_TOPIC_ID (0, 1) as Kafka prints them.
  it('testStringConversion: Uuid.toString / fromString', () => {
    const zero = new Uint8Array(16);
    expect(uuidToString(zero)).toBe('AAAAAAAAAAAAAAAAAAAAAA');
    const metadata = new Uint8Array(16);
    metadata[15] = 1;
    expect(uuidToString(metadata)).toBe('AAAAAAAAAAAAAAAAAAAAAQ');
    const id = newTopicId(new Rng(1), 't', 5, 1000);
    expect(uuidToString(uuidFromString(id) as Uint8Array)).toBe(id);
    expect(uuidFromString('not-an-id')).toBeNull();
  });

  // UuidTest.testRandomUuid: never ZERO_UUID or METADATA_TOPIC_ID, never a string starting with "-";
  // java.util.UUID.randomUUID's version 4 and IETF variant bits.
  it('testRandomUuid: version 4, never reserved, never starting with "-"', () => {
    const rng = new Rng(7);
    for (let i = 0; i < 200; i++) {
      const id = newTopicId(rng, `t${i}`, i, 0);
      const bytes = uuidFromString(id) as Uint8Array;
      expect(id.startsWith('-')).toBe(false);
      expect((bytes[6] as number) >> 4).toBe(4);
      expect((bytes[8] as number) >> 6).toBe(2);
    }
  });

  // AdminZkClient.createTopicWithAssignment -> writeTopicPartitionAssignment(usesTopicId = true):
  // TopicZNode.encode version 3 with a fresh random "topic_id"; a topic deleted and created again
  // gets a new one.
  it('a topic znode is version 3 with a topic_id; a topic created again gets a new id', () => {
    const { cluster } = startCluster(5, 3, {});
    cluster.createTopic({ name: 't', partitions: 2, replicationFactor: 2 });
    cluster.tick(500);
    const znode = cluster.zk.peekData('/brokers/topics/t') as { version: number; topic_id: string };
    expect(znode.version).toBe(3);
    expect(znode.topic_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const first = cluster.topicId('t');
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    // Partitions added and the controller's writes keep the id.
    cluster.createPartitions('t', 3);
    cluster.tick(500);
    expect(cluster.topicId('t')).toBe(first);
    cluster.deleteTopic('t');
    cluster.tick(2000);
    expect(cluster.topicId('t')).toBeNull();
    cluster.createTopic({ name: 't', partitions: 2, replicationFactor: 2 });
    cluster.tick(500);
    expect(cluster.topicId('t')).toMatch(/^[0-9a-f]{32}$/);
    expect(cluster.topicId('t')).not.toBe(first);
  });

  // KafkaController.processTopicIds (initializeControllerContext, processTopicChange): a topic
  // znode without a topic id (written before ids) gets one from the controller.
  it('the controller gives a topic znode without an id one (KafkaController.processTopicIds)', () => {
    const { cluster } = startCluster(5, 2, {});
    cluster.zk.create('/brokers/topics/old', {
      version: 2,
      partitions: { '0': [1, 2] },
      adding_replicas: {},
      removing_replicas: {},
    });
    cluster.tick(500);
    const znode = cluster.zk.peekData('/brokers/topics/old') as { version: number; topic_id?: string };
    expect(znode.version).toBe(3);
    expect(znode.topic_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(cluster.partitionState('old', 0)?.leader).toBe(1);
  });
});
