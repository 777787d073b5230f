/**
 * What the producer was told, and what the checks compare the cluster against: every record
 * sent (a unique value), and for each the one delivery report — partition and offset for an
 * acknowledged record, or an error.
 */
import type { DeliveryReport } from '../producer/ProducerRecord';

export interface SentRecord {
  sendId: number;
  value: string;
  key: string | null;
}

export interface Acked {
  value: string;
  topic: string;
  partition: number;
  offset: number;
}

export class ProduceHistory {
  readonly sent = new Map<number, SentRecord>();
  readonly reports = new Map<number, DeliveryReport[]>();

  recordSend(sendId: number, value: string, key: string | null): void {
    this.sent.set(sendId, { sendId, value, key });
  }

  recordReport(report: DeliveryReport): void {
    const list = this.reports.get(report.sendId) ?? [];
    list.push(report);
    this.reports.set(report.sendId, list);
  }

  /** Acknowledged records, in send order. */
  acked(): Acked[] {
    const out: Acked[] = [];
    for (const [sendId, s] of this.sent) {
      const r = this.reports.get(sendId)?.[0];
      if (r && r.error === null) out.push({ value: s.value, topic: r.topic, partition: r.partition, offset: r.offset });
    }
    return out;
  }
}
