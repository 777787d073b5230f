/**
 * Everything a producer does, as typed events for the UI: where each record went and why, how
 * batches fill and seal, which request carried them to which broker, what came back, and the
 * one delivery report per record. Each event names its producer (the client id).
 */
import type { ErrorCode } from '../cluster/requests';
import type { KafkaErrorCode } from '../errors';
import type { PartitionChoice } from './Partitioner';
import type { DeliveryReport } from './ProducerRecord';

export interface BatchInRequest {
  batchId: number;
  topic: string;
  partition: number;
  records: number;
  bytes: number;
  /** 1 on the first send. */
  attempt: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
}

export type ProducerEvent =
  | { type: 'producer-created'; producer: string; config: Readonly<Record<string, unknown>> }
  | { type: 'producer-closed'; producer: string }
  | { type: 'record-waiting-for-metadata'; producer: string; sendId: number; topic: string }
  | { type: 'record-partitioned'; producer: string; sendId: number; choice: PartitionChoice }
  | {
      type: 'record-appended';
      producer: string;
      sendId: number;
      topic: string;
      partition: number;
      batchId: number;
      /** Bytes this record added to the batch. */
      bytes: number;
      /** The batch's encoded size after the append. */
      batchBytes: number;
      batchRecords: number;
      newBatch: boolean;
    }
  | {
      type: 'batch-sealed';
      producer: string;
      batchId: number;
      topic: string;
      partition: number;
      reason: 'full' | 'linger';
      records: number;
      bytes: number;
    }
  | {
      type: 'produce-request-sent';
      producer: string;
      correlationId: number;
      broker: number;
      acks: number;
      batches: BatchInRequest[];
    }
  | {
      type: 'produce-response-received';
      producer: string;
      correlationId: number;
      broker: number;
      partitions: { batchId: number; topic: string; partition: number; errorCode: ErrorCode; baseOffset: number }[];
    }
  | {
      type: 'request-timed-out';
      producer: string;
      correlationId: number;
      broker: number;
      api: string;
    }
  | {
      type: 'batch-retry';
      producer: string;
      batchId: number;
      topic: string;
      partition: number;
      error: KafkaErrorCode;
      attempt: number;
      retryAtMs: number;
    }
  | { type: 'metadata-requested'; producer: string; broker: number; topics: string[] }
  | {
      type: 'metadata-updated';
      producer: string;
      broker: number;
      leaders: { topic: string; partition: number; leaderId: number; leaderEpoch: number }[];
    }
  | { type: 'producer-id-requested'; producer: string; broker: number }
  | { type: 'producer-id-assigned'; producer: string; producerId: number; producerEpoch: number }
  | { type: 'delivery-report'; producer: string; report: DeliveryReport };

export type ProducerEventSink = (event: ProducerEvent) => void;
