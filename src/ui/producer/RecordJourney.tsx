import { useEffect, useState } from 'react';
import type { Session } from '../session';
import { fly } from './Flights';

interface Journey {
  producer: string;
  sendId: number;
  partition: number | null;
  batchId: number | null;
  batchRecords: number | null;
  sealed: 'full' | 'linger' | null;
  broker: number | null;
  offset: number | null;
  error: string | null;
  acked: boolean;
  /** The leader's latest refusal of the record's batch (NOT_ENOUGH_REPLICAS, ...), while it retries. */
  leaderError: string | null;
  /** Retries of the record's batch so far. */
  retries: number;
}

/** Why a broker refused a batch, in words (null: the code says enough). */
function refusalReason(code: string): string | null {
  switch (code) {
    case 'NOT_ENOUGH_REPLICAS':
      return 'the ISR is smaller than min.insync.replicas';
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
      return 'the ISR shrank below min.insync.replicas before the followers copied it';
    case 'NOT_LEADER_OR_FOLLOWER':
      return 'that broker no longer leads the partition';
    case 'REQUEST_TIMED_OUT':
      return 'no answer within request.timeout.ms';
    case 'NETWORK_EXCEPTION':
      return 'the connection to the broker broke';
    default:
      return null;
  }
}

const STAGES = ['partitioner', 'accumulator', 'sealed batch', 'leader', 'acknowledged'] as const;

/**
 * The last record sent from the panel, stage by stage as the engine's producer events arrive:
 * placed by the partitioner, appended to a batch in the accumulator, the batch sealed (full or
 * linger.ms) and drained, appended by the partition's leader at an offset, acknowledged per acks.
 */
export function RecordJourney({
  session,
  send,
  topic,
}: {
  session: Session;
  send: { producer: string; sendId: number } | null;
  topic: string;
}) {
  const [j, setJ] = useState<Journey | null>(null);
  useEffect(() => {
    if (!send) return;
    setJ({
      ...send,
      partition: null,
      batchId: null,
      batchRecords: null,
      sealed: null,
      broker: null,
      offset: null,
      error: null,
      acked: false,
      leaderError: null,
      retries: 0,
    });
    return session.onEvents((events) => {
      setJ((cur) => {
        if (!cur) return cur;
        let next = cur;
        for (const e of events) {
          if (!('producer' in e) || e.producer !== cur.producer) continue;
          if (e.type === 'recordPartitioned' && e.sendId === cur.sendId)
            next = { ...next, partition: e.choice.partition };
          if (e.type === 'recordAppended' && e.sendId === cur.sendId)
            next = { ...next, partition: e.partition, batchId: e.batchId, batchRecords: e.batchRecords };
          if (e.type === 'recordAppended' && next.batchId !== null && e.batchId === next.batchId)
            next = { ...next, batchRecords: e.batchRecords };
          if (e.type === 'batchSealed' && e.batchId === next.batchId) next = { ...next, sealed: e.reason };
          if (e.type === 'produceRequestSent' && e.batches.some((b) => b.batchId === next.batchId))
            next = { ...next, broker: e.broker, sealed: next.sealed ?? 'linger' };
          if (e.type === 'produceResponseReceived' && next.batchId !== null) {
            const mine = e.partitions.find((b) => b.batchId === next.batchId);
            if (mine && mine.errorCode !== 'NONE') next = { ...next, broker: e.broker, leaderError: mine.errorCode };
          }
          if (e.type === 'batchRetried' && e.batchId === next.batchId)
            next = { ...next, retries: Math.max(next.retries, e.attempt), leaderError: e.error };
          if (e.type === 'deliveryReport' && e.report.sendId === cur.sendId)
            next = { ...next, acked: e.report.error === null, offset: e.report.offset, error: e.report.error };
        }
        return next;
      });
    });
  }, [session, send]);
  // The record flies along the path as it goes: send button -> accumulator -> the leader's log.
  const appended = j?.batchId !== null && j?.batchId !== undefined;
  const toLeader = j?.broker !== null && j?.broker !== undefined;
  useEffect(() => {
    if (appended) fly('producer-send', 'side-tab-accumulator', 'record');
  }, [appended]);
  useEffect(() => {
    if (toLeader && j?.partition !== null && j?.partition !== undefined)
      fly('side-tab-accumulator', `partition-${topic}-${j.partition}`, 'batch', 'Produce');
  }, [toLeader, j?.partition, topic]);
  if (!j) return null;
  const reached = [
    j.partition !== null,
    j.batchId !== null,
    j.sealed !== null,
    j.broker !== null,
    j.acked || j.error !== null,
  ];
  const detail = [
    j.partition === null ? 'waiting for metadata' : `partition ${j.partition}`,
    j.batchId === null ? '' : `batch ${j.batchId}${j.batchRecords ? `, ${j.batchRecords} records` : ''}`,
    j.sealed === null ? '' : j.sealed === 'full' ? 'full (batch.size)' : 'linger.ms passed',
    j.broker === null
      ? ''
      : j.leaderError === null || j.acked
        ? `broker ${j.broker}`
        : `broker ${j.broker}: ${j.leaderError}${refusalReason(j.leaderError) ? ` (${refusalReason(j.leaderError)})` : ''}${j.retries > 0 ? `, retry ${j.retries}` : ''}`,
    j.error
      ? j.error
      : j.acked
        ? j.offset !== null && j.offset >= 0
          ? `offset ${j.offset}`
          : 'acks=0: no offset'
        : '',
  ];
  return (
    <ol
      className="journey"
      aria-label="The last record's journey"
      data-testid="record-journey"
      data-offset={j.offset ?? ''}
      data-error={j.error ?? j.leaderError ?? ''}
      data-retries={j.retries}
    >
      {STAGES.map((label, i) => (
        <li
          key={label}
          className={`journey-stage${reached[i] ? ' reached' : ''}${(i === 4 && j.error) || (i === 3 && j.leaderError && !j.acked) ? ' failed' : ''}`}
          data-testid={`journey-stage-${i}`}
        >
          <span className="journey-dot" aria-hidden="true" />
          <span className="journey-label">{label}</span>
          <span className="journey-detail mono">{detail[i]}</span>
        </li>
      ))}
    </ol>
  );
}
