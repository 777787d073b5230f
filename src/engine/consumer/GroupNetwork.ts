import type { Scheduler } from '../cluster/Scheduler';
import type { ConsumerRequest, ConsumerResponse } from './fetchProtocol';
import type { GroupEvent } from './groupEvents';

/**
 * The links between consumers and brokers. A request sent now arrives `latencyMs` later (links
 * are FIFO, so a commit sent before a JoinGroup arrives before it); the broker's answer takes
 * the same time back. A request to a broker that is down is refused (the client hears a
 * disconnect one latency later, like a reset connection); a response to a client that crashed
 * is dropped. Every send and drop is an event with its times, for the UI to draw in flight.
 */
export type BrokerServe = (
  brokerId: number,
  from: string,
  request: ConsumerRequest,
  respond: (response: ConsumerResponse) => void,
) => void;

export class GroupNetwork {
  private nextId = 1;
  private readonly lastArrival = new Map<string, number>();
  private readonly deadClients = new Set<string>();
  /** Counts for benchmarks: messages delivered each way. */
  requestsDelivered = 0;
  responsesDelivered = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly isBrokerUp: (brokerId: number) => boolean,
    private readonly serve: BrokerServe,
    private readonly emit: (event: GroupEvent) => void,
    public latencyMs = 1,
  ) {}

  /** A client process died: nothing more reaches it, and its in-flight requests are lost with it. */
  clientDown(clientId: string): void {
    this.deadClients.add(clientId);
  }

  clientUp(clientId: string): void {
    this.deadClients.delete(clientId);
  }

  private arrival(link: string): number {
    const at = Math.max(this.scheduler.now() + this.latencyMs, this.lastArrival.get(link) ?? 0);
    this.lastArrival.set(link, at);
    return at;
  }

  /** Sends a request; onResponse gets the answer, or null when the connection failed. */
  send<R extends ConsumerRequest>(
    from: string,
    toBroker: number,
    request: R,
    onResponse: (response: ConsumerResponse | null) => void,
  ): void {
    const id = this.nextId++;
    const sentAtMs = this.scheduler.now();
    const arriveAtMs = this.arrival(`${from}>${toBroker}`);
    this.emit({
      type: 'groupRequestSent',
      id,
      api: request.api,
      from,
      toBroker,
      sentAtMs,
      arriveAtMs,
      body: summarize(request) as Extract<GroupEvent, { type: 'groupRequestSent' }>['body'],
    });
    this.scheduler.scheduleAt(arriveAtMs, () => {
      if (this.deadClients.has(from)) {
        this.emit({
          type: 'groupMessageDropped',
          id,
          api: request.api,
          atMs: this.scheduler.now(),
          reason: 'senderDown',
        });
        return;
      }
      if (!this.isBrokerUp(toBroker)) {
        this.emit({
          type: 'groupMessageDropped',
          id,
          api: request.api,
          atMs: this.scheduler.now(),
          reason: 'receiverDown',
        });
        this.scheduler.schedule(this.latencyMs, () => {
          if (!this.deadClients.has(from)) onResponse(null);
        });
        return;
      }
      this.requestsDelivered++;
      let answered = false;
      this.serve(toBroker, from, request, (response) => {
        if (answered) return;
        answered = true;
        const rid = this.nextId++;
        const respAt = this.arrival(`${toBroker}>${from}`);
        this.emit({
          type: 'groupResponseSent',
          id: rid,
          api: request.api,
          fromBroker: toBroker,
          to: from,
          sentAtMs: this.scheduler.now(),
          arriveAtMs: respAt,
          errorCode: errorOf(response),
          body: summarize(response) as Extract<GroupEvent, { type: 'groupResponseSent' }>['body'],
        });
        this.scheduler.scheduleAt(respAt, () => {
          if (this.deadClients.has(from)) {
            this.emit({
              type: 'groupMessageDropped',
              id: rid,
              api: request.api,
              atMs: this.scheduler.now(),
              reason: 'receiverDown',
            });
            return;
          }
          this.responsesDelivered++;
          onResponse(response);
        });
      });
    });
  }
}

function summarize(m: ConsumerRequest | ConsumerResponse) {
  if (m.api === 'Fetch') {
    if ('maxWaitMs' in m) {
      return {
        api: 'Fetch' as const,
        summary: m.partitions.map((p) => `${p.topic}-${p.partition}@${p.fetchOffset}`).join(', '),
      };
    }
    return {
      api: 'Fetch' as const,
      summary: m.partitions
        .map(
          (p) => `${p.topic}-${p.partition}: ${p.errorCode === 'NONE' ? `${p.records.length} records` : p.errorCode}`,
        )
        .join(', '),
    };
  }
  if (m.api === 'ListOffsets') {
    return {
      api: 'ListOffsets' as const,
      summary: m.partitions
        .map(
          (p) =>
            `${p.topic}-${p.partition}${'timestamp' in p ? (p.timestamp === -2 ? ' earliest' : ' latest') : ` -> ${p.offset}`}`,
        )
        .join(', '),
    };
  }
  return m;
}

function errorOf(r: ConsumerResponse): string {
  if ('errorCode' in r) return r.errorCode;
  if (r.api === 'OffsetCommit') {
    const errs = r.topics.flatMap((t) => t.partitions.map((p) => p.errorCode)).filter((e) => e !== 'NONE');
    return errs[0] ?? 'NONE';
  }
  if (r.api === 'Fetch' || r.api === 'ListOffsets') {
    return r.partitions.map((p) => p.errorCode).find((e) => e !== 'NONE') ?? 'NONE';
  }
  return 'NONE';
}
