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
