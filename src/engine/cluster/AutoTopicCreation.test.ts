/**
 * auto.create.topics.enable (default true, KafkaConfig): a Metadata request that names an unknown
 * topic and allows auto-creation creates it with num.partitions and default.replication.factor,
 * answering LEADER_NOT_AVAILABLE until the controller has elected its leaders
 * (KafkaApis.handleTopicMetadataRequest, ZkAutoTopicCreationManager; KafkaApisTest
 * testMetadataAutoTopicCreation*).
 */
import { describe, expect, it } from 'vitest';
import type { MetadataResponse } from './requests';
import { startCluster, TestClient } from './testing';

function metadata(client: TestClient, topics: string[] | null, allowAutoTopicCreation: boolean) {
  return client.call<MetadataResponse>(1, { api: 'Metadata', topics, allowAutoTopicCreation });
}

describe('auto topic creation on Metadata', () => {
  it('creates the topic with the defaults and answers LEADER_NOT_AVAILABLE, then its leaders', () => {
    const { cluster } = startCluster(3, 3, { 'num.partitions': 2, 'default.replication.factor': 2 });
    const client = new TestClient(cluster);
    const first = metadata(client, ['fresh'], true);
    expect(first?.topics[0]?.errorCode).toBe('LEADER_NOT_AVAILABLE');
    expect(cluster.assignment('fresh').map((r) => r.length)).toEqual([2, 2]);
    cluster.tick(500);
    const later = metadata(client, ['fresh'], true);
    expect(later?.topics[0]?.errorCode).toBe('NONE');
    expect(later?.topics[0]?.partitions.map((p) => p.leaderId >= 1)).toEqual([true, true]);
  });

  it('does not create when the request or the broker config says no, nor for internal or invalid names', () => {
    const { cluster } = startCluster(3, 3, {});
    const client = new TestClient(cluster);
    expect(metadata(client, ['quiet'], false)?.topics[0]?.errorCode).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(metadata(client, ['__internal'], true)?.topics[0]?.errorCode).toBe('UNKNOWN_TOPIC_OR_PARTITION');
    expect(metadata(client, ['bad name!'], true)?.topics[0]?.errorCode).toBe('INVALID_TOPIC_EXCEPTION');
    // A request for every topic (null) never creates anything.
    expect(metadata(client, null, true)?.topics.map((t) => t.name)).toEqual([]);
    expect(cluster.topicNames()).toEqual([]);
    const off = startCluster(3, 3, { 'auto.create.topics.enable': false });
    expect(metadata(new TestClient(off.cluster), ['fresh'], true)?.topics[0]?.errorCode).toBe(
      'UNKNOWN_TOPIC_OR_PARTITION',
    );
    expect(off.cluster.topicNames()).toEqual([]);
  });
});
