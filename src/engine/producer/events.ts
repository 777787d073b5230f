/**
 * Everything a producer does, as typed events for the UI: where each record went and why, how
 * batches fill and seal, which request carried them to which broker, what came back, and the
 * one delivery report per record. Each event names its producer (the client id) and carries the
 * simulated time it happened at (`atMs`), like the cluster's events.
 */
import type { ClusterEvent } from '../cluster/events';
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

/** What the producer's parts report; the producer stamps each with the time (ProducerEvent). */
export type ProducerEventBody =
  | { type: 'producerCreated'; producer: string; config: Readonly<Record<string, unknown>> }
  | { type: 'producerClosed'; producer: string }
  | { type: 'recordWaitingForMetadata'; producer: string; sendId: number; topic: string }
  | { type: 'recordPartitioned'; producer: string; sendId: number; choice: PartitionChoice }
  | {
      type: 'recordAppended';
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
      type: 'batchSealed';
      producer: string;
      batchId: number;
      topic: string;
      partition: number;
      reason: 'full' | 'linger';
      records: number;
      bytes: number;
    }
  | {
      type: 'produceRequestSent';
      producer: string;
      correlationId: number;
      broker: number;
      acks: number;
      batches: BatchInRequest[];
    }
  | {
      type: 'produceResponseReceived';
      producer: string;
      correlationId: number;
      broker: number;
      partitions: { batchId: number; topic: string; partition: number; errorCode: ErrorCode; baseOffset: number }[];
    }
  | {
      type: 'producerRequestTimedOut';
      producer: string;
      correlationId: number;
      broker: number;
      api: string;
    }
  | {
      type: 'batchRetried';
      producer: string;
      batchId: number;
      topic: string;
      partition: number;
      error: KafkaErrorCode;
      attempt: number;
      retryAtMs: number;
    }
  | {
      type: 'batchSplit';
      producer: string;
      batchId: number;
      topic: string;
      partition: number;
      /** The smaller batches that replace it, in order. */
      into: { batchId: number; records: number; baseSequence: number }[];
    }
  | { type: 'producerMetadataRequested'; producer: string; broker: number; topics: string[] }
  | {
      type: 'producerMetadataUpdated';
      producer: string;
      broker: number;
      leaders: { topic: string; partition: number; leaderId: number; leaderEpoch: number }[];
    }
  | { type: 'producerIdRequested'; producer: string; broker: number }
  | { type: 'producerIdAssigned'; producer: string; producerId: number; producerEpoch: number }
  | { type: 'deliveryReport'; producer: string; report: DeliveryReport };

/** A producer event as the engine emits it: stamped with the simulated time. */
export type ProducerEvent = ProducerEventBody & { atMs: number };

/**
 * Where a producer's parts send their events, each already stamped with `atMs` where it is made
 * (one object literal per event: no field added afterwards, no store into many event shapes).
 */
export type ProducerEventSink = (event: ProducerEvent) => void;

/**
 * The event types a producer asks about before doing work only their listeners need: its own
 * per-record events, and the network's messageSent (which carries its requests' bytes).
 */
export type WantedEventType = ProducerEvent['type'] | ClusterEvent['type'];
