/**
 * Topic ids (KIP-516) for the wire: Metadata v10+ names each topic's id and Fetch v13+ addresses
 * topics by id only. The id is the one the controller drew when it created the topic and keeps in
 * `/brokers/topics/<name>` (`topic_id`, Kafka 3.9 in ZooKeeper mode), so a topic deleted and
 * created again under the same name gets a new id, as in Kafka.
 */

/** Where a topic's id is kept: the engine's topic znodes (`Engine.topicId`). */
export interface TopicIds {
  topicId(topic: string): string | null;
  topicNames(): string[];
}

/** Kafka's Uuid.ZERO_UUID in the wire codec's form: "no id". */
export const ZERO_TOPIC_ID = '00000000000000000000000000000000';

/** The topic's id as 32 lower-case hex digits (the wire codec's form of a UUID), or the zero id. */
export function topicIdOf(ids: TopicIds, name: string): string {
  return ids.topicId(name) ?? ZERO_TOPIC_ID;
}

/** The topic whose id is `id`, or null (Kafka's UNKNOWN_TOPIC_ID). */
export function topicNameOf(ids: TopicIds, id: string): string | null {
  const want = id.toLowerCase();
  if (want === ZERO_TOPIC_ID) return null;
  for (const name of ids.topicNames()) if (ids.topicId(name) === want) return name;
  return null;
}

/** Kafka's error code UNKNOWN_TOPIC_ID (Errors.UNKNOWN_TOPIC_ID, KIP-516). */
export const UNKNOWN_TOPIC_ID = 100;
