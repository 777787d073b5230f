/**
 * The journey of the last record the page's producer sent: partitioned, appended to a batch, the
 * batch sealed and sent in a Produce request, answered, reported. Of the tens of thousands of
 * producer events a second a Send N makes, only these few belong to the record the panel shows.
 */
import type { ProducerEvent } from '../index';

export class RecordJourney {
  private producer = '';
  private sendId = -1;
  private batchId: number | null = null;

  /** Follows send `sendId` of `producer` (set before the send: the partitioner's events fire inside it). */
  follow(producer: string, sendId: number): void {
    this.producer = producer;
    this.sendId = sendId;
    this.batchId = null;
  }

  /** The send id turned out different (the send answered with its own). */
  correct(sendId: number): void {
    this.sendId = sendId;
  }

  forget(): void {
    this.producer = '';
    this.sendId = -1;
    this.batchId = null;
  }

  /** Whether `e` is a step of the followed record's journey (its batch's, once it has one). */
  includes(e: ProducerEvent): boolean {
    if (this.producer === '' || e.producer !== this.producer) return false;
    switch (e.type) {
      case 'recordPartitioned':
      case 'recordWaitingForMetadata':
        return e.sendId === this.sendId;
      case 'recordAppended':
        if (e.sendId === this.sendId) this.batchId = e.batchId;
        return e.sendId === this.sendId || (this.batchId !== null && e.batchId === this.batchId);
      case 'batchSealed':
      case 'batchRetried':
        return e.batchId === this.batchId;
      case 'produceRequestSent':
        return e.batches.some((b) => b.batchId === this.batchId);
      case 'produceResponseReceived':
        return e.partitions.some((b) => b.batchId === this.batchId);
      case 'deliveryReport':
        return e.report.sendId === this.sendId;
      default:
        return false;
    }
  }
}
