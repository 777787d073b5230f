import { KafkaError } from '../index';
import { TOPIC_CLEANUP_KEYS, type TopicCleanupKey } from './types';

/**
 * The cleanup keys of an alterTopicConfig action, checked before the engine sees them: only
 * TOPIC_CLEANUP_KEYS, retention.ms / retention.bytes a whole number >= -1 (-1: no limit), and
 * cleanup.policy delete, compact or both. Anything else is Kafka's INVALID_CONFIG (the engine's
 * own validation of the values runs too, before anything changes).
 */
export function cleanupConfigs(configs: Record<string, string>): Record<string, string> {
  const entries = Object.entries(configs);
  if (entries.length === 0) throw new KafkaError('INVALID_CONFIG', 'No config to change.');
  const out: Record<string, string> = {};
  for (const [k, raw] of entries) {
    if (!TOPIC_CLEANUP_KEYS.includes(k as TopicCleanupKey))
      throw new KafkaError('INVALID_CONFIG', `${k} cannot be changed here (only ${TOPIC_CLEANUP_KEYS.join(', ')}).`);
    const v = String(raw).trim();
    if (k === 'cleanup.policy') {
      const items = v.split(',').map((x) => x.trim());
      if (
        items.length === 0 ||
        items.some((x) => x !== 'delete' && x !== 'compact') ||
        new Set(items).size !== items.length
      )
        throw new KafkaError(
          'INVALID_CONFIG',
          `Invalid value ${v} for configuration cleanup.policy: String must be one of: compact, delete`,
        );
      out[k] = items.join(',');
    } else {
      if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < -1)
        throw new KafkaError(
          'INVALID_CONFIG',
          `Invalid value ${v} for configuration ${k}: must be a whole number >= -1`,
        );
      out[k] = String(Number(v));
    }
  }
  return out;
}
