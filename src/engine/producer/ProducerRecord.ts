/**
 * What the application hands to `send()` (Kafka's ProducerRecord, already serialized) and what
 * it gets back exactly once per record (the callback's RecordMetadata or exception).
 */
import type { KafkaErrorCode } from '../errors';

import type { RecordHeader } from '../codec/recordBatch';

/** A record header, as the record batch codec declares it. */
export type { RecordHeader };

export interface ProducerRecord {
  topic: string;
  /** An explicit partition; otherwise the partitioner chooses. */
  partition?: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers?: RecordHeader[];
  /** CreateTime in ms; defaults to the producer clock's now() at send(). */
  timestamp?: number;
}

/**
 * The one report every sent record ends with. Success carries Kafka's RecordMetadata fields;
 * with acks=0 the offset is -1, as Kafka reports it (nobody told the producer the offset).
 */
export type DeliveryReport =
  | {
      sendId: number;
      topic: string;
      partition: number;
      offset: number;
      timestamp: number;
      error: null;
    }
  | {
      sendId: number;
      topic: string;
      /** -1 when the record failed before a partition was chosen. */
      partition: number;
      offset: -1;
      timestamp: number;
      error: KafkaErrorCode;
      message: string;
    };
