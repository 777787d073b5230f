import type { MemberSubscription, TopicPartition } from './types';

/**
 * One member's subscription for the assignor tests, the fields Kafka's tests pass to
 * `new Subscription(topics, userData, ownedPartitions, generationId)`; a field left out is absent.
 */
export function member(
  memberId: string,
  topics: string[],
  ownedPartitions?: TopicPartition[],
  generation?: number,
): MemberSubscription {
  return {
    memberId,
    topics,
    ...(ownedPartitions === undefined ? {} : { ownedPartitions }),
    ...(generation === undefined ? {} : { generation }),
  };
}

export const tp = (topic: string, partition: number): TopicPartition => ({ topic, partition });

// The topic names and generation Kafka's assignor tests (AbstractStickyAssignorTest and the rest) use.
export const topic = 'topic';
export const topic1 = 'topic1';
export const topic2 = 'topic2';
export const topic3 = 'topic3';
export const generationId = 1;
