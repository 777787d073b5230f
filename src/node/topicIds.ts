/**
 * Topic ids (KIP-516) for the wire: Metadata v10+ names each topic's id and Fetch v13+ addresses
 * topics by id only. The engine's topics have no ids yet, so the gateway gives each topic a
 * stable one derived from its name (the first 16 bytes of SHA-256 over "glassbox-topic:" and the
 * name, never Kafka's reserved zero or metadata ids). A topic deleted and created again under the
 * same name gets the same id, where Kafka would give it a fresh random one (FIDELITY.md).
 */
import { createHash } from 'node:crypto';

const cache = new Map<string, string>();

/** The topic's id as 32 lower-case hex digits (the wire codec's form of a UUID). */
export function topicIdOf(name: string): string {
  let id = cache.get(name);
  if (id === undefined) {
    id = createHash('sha256').update(`glassbox-topic:${name}`).digest('hex').slice(0, 32);
    cache.set(name, id);
  }
  return id;
}

/** The topic among `names` whose id is `id`, or null (Kafka's UNKNOWN_TOPIC_ID). */
export function topicNameOf(id: string, names: Iterable<string>): string | null {
  const want = id.toLowerCase();
  for (const name of names) if (topicIdOf(name) === want) return name;
  return null;
}

/** Kafka's error code UNKNOWN_TOPIC_ID (Errors.UNKNOWN_TOPIC_ID, KIP-516). */
export const UNKNOWN_TOPIC_ID = 100;
