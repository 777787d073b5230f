import type { Scheduler } from '../cluster/Scheduler';
import type { ConsumerRequest, ConsumerResponse } from './fetchProtocol';
import type { GroupEvent } from './groupEvents';

/**
 * The links between consumers and brokers. They follow the cluster's own network (the engine
 * backs `BrokerLinks` with cluster/Network and the brokers' process state), so a consumer sees a
 * broker exactly as the brokers see each other:
 *
 *  - a request sent now arrives one link latency later (links are FIFO, so a commit sent before
 *    a JoinGroup arrives before it); the answer takes the link's latency back;
 *  - a broker whose process is down on a machine that is still on (killed, stopped) refuses the
 *    connection, and a crash resets the connections it had: the client hears a disconnect one
 *    latency later (Kafka's NetworkClient fails the in-flight requests);
 *  - a powered-off or isolated broker says nothing: requests and answers are lost on the way and
 *    the client finds out only through its own timeout (request.timeout.ms, or for JoinGroup
 *    rebalance.timeout.ms + 5 s), as NetworkClient's disconnect-on-timeout does;
 *  - a response to a client that crashed, or that already gave up on the request, is dropped.
 *
 * Every request calls `onResponse` exactly once: with the answer, or null when the connection
 * failed or timed out. Every send, drop and failure is an event with its times and both ends,
 * for the UI to draw the message in flight and its fate.
 */
export type BrokerServe = (
  brokerId: number,
  from: string,
  request: ConsumerRequest,
  respond: (response: ConsumerResponse) => void,
) => void;

/** What a request to a broker meets right now. */
export type BrokerReachability = 'up' | 'refused' | 'silent';

/** The state of the cluster's network and broker processes, as clients see it. */
export interface BrokerLinks {
  /** 'up': it is served; 'refused': no process listens (RST); 'silent': power off or partitioned. */
  reachability(brokerId: number): BrokerReachability;
  /** One-way latency between a client and a broker. */
  latencyMs(client: string, brokerId: number): number;
}

/** Kafka's request.timeout.ms default for consumers. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

interface Outstanding {
  id: number;
  from: string;
  toBroker: number;
  api: ConsumerRequest['api'];
  onResponse: (response: ConsumerResponse | null) => void;
  /** Delivered to the broker and not answered yet: a crash of the broker resets it. */
  delivered: boolean;
  timer: number;
}

export class GroupNetwork {
  private nextId = 1;
  private readonly lastArrival = new Map<string, number>();
  private readonly deadClients = new Set<string>();
  private readonly outstanding = new Map<number, Outstanding>();
  /** Counts for benchmarks: messages delivered each way. */
  requestsDelivered = 0;
  responsesDelivered = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly links: BrokerLinks,
    private readonly serve: BrokerServe,
    private readonly emit: (event: GroupEvent) => void,
  ) {}

  /** A client process died: nothing more reaches it, and its in-flight requests are lost with it. */
  clientDown(clientId: string): void {
    this.deadClients.add(clientId);
    for (const o of [...this.outstanding.values()]) if (o.from === clientId) this.forget(o);
  }

  clientUp(clientId: string): void {
    this.deadClients.delete(clientId);
  }

  /** How many requests `from` has outstanding to a broker (NetworkClient's in-flight count). */
  inFlightCount(from: string, toBroker: number): number {
    let n = 0;
    for (const o of this.outstanding.values()) if (o.from === from && o.toBroker === toBroker) n++;
    return n;
  }

  /** Requests sent and not yet answered, failed or timed out (for tests and the UI). */
  inFlight(): { id: number; from: string; toBroker: number; api: string; delivered: boolean }[] {
    return [...this.outstanding.values()].map(({ id, from, toBroker, api, delivered }) => ({
      id,
      from,
      toBroker,
      api,
      delivered,
    }));
  }

  /**
   * A broker process went down. A crash or a stop resets its connections: every client waiting
   * on it hears a disconnect one latency later. A power failure resets nothing: they time out.
   */
  brokerDown(brokerId: number, resetConnections: boolean): void {
    if (!resetConnections) return;
    for (const o of [...this.outstanding.values()]) {
      if (o.toBroker !== brokerId || !o.delivered) continue;
      this.scheduler.schedule(this.links.latencyMs(o.from, brokerId), () => this.fail(o, 'disconnected'));
    }
  }

  private arrival(link: string, latencyMs: number): number {
    const at = Math.max(this.scheduler.now() + latencyMs, this.lastArrival.get(link) ?? 0);
    this.lastArrival.set(link, at);
    return at;
  }

  private forget(o: Outstanding): void {
    if (this.outstanding.delete(o.id)) this.scheduler.cancel(o.timer);
  }

  /** The client gives up on a request: it hears null, once. */
  private fail(o: Outstanding, reason: 'disconnected' | 'timedOut'): void {
    if (!this.outstanding.has(o.id)) return;
    this.forget(o);
    if (this.deadClients.has(o.from)) return;
    this.emit({
      type: 'groupRequestFailed',
      id: o.id,
      api: o.api,
      from: o.from,
      toBroker: o.toBroker,
      reason,
      atMs: this.scheduler.now(),
    });
    o.onResponse(null);
  }

  /**
   * Sends a request; onResponse gets the answer, or null when the connection failed or the
   * request timed out after `timeoutMs`.
   */
  send<R extends ConsumerRequest>(
    from: string,
    toBroker: number,
    request: R,
    onResponse: (response: ConsumerResponse | null) => void,
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): void {
    const id = this.nextId++;
    const sentAtMs = this.scheduler.now();
    const latency = this.links.latencyMs(from, toBroker);
    const arriveAtMs = this.arrival(`${from}>${toBroker}`, latency);
    const o: Outstanding = { id, from, toBroker, api: request.api, onResponse, delivered: false, timer: 0 };
    o.timer = this.scheduler.schedule(timeoutMs, () => this.fail(o, 'timedOut'));
    this.outstanding.set(id, o);
    this.emit({
      type: 'groupRequestSent',
      id,
      api: request.api,
      from,
      toBroker,
      sentAtMs,
      arriveAtMs,
      timeoutAtMs: sentAtMs + timeoutMs,
      body: summarize(request) as Extract<GroupEvent, { type: 'groupRequestSent' }>['body'],
    });
    this.scheduler.scheduleAt(arriveAtMs, () => this.deliver(o, request));
  }

  private drop(
    id: number,
    api: ConsumerRequest['api'],
    kind: 'request' | 'response',
    from: string,
    to: string,
    reason: 'senderDown' | 'receiverDown' | 'receiverUnreachable' | 'senderUnreachable' | 'requestAbandoned',
  ): void {
    this.emit({ type: 'groupMessageDropped', id, api, kind, from, to, atMs: this.scheduler.now(), reason });
  }

  private deliver(o: Outstanding, request: ConsumerRequest): void {
    const { id, from, toBroker } = o;
    const broker = `broker-${toBroker}`;
    if (this.deadClients.has(from) || !this.outstanding.has(id)) {
      this.drop(id, request.api, 'request', from, broker, 'senderDown');
      return;
    }
    const reach = this.links.reachability(toBroker);
    if (reach === 'silent') {
      // Lost on the way: the client will time out.
      this.drop(id, request.api, 'request', from, broker, 'receiverUnreachable');
      return;
    }
    if (reach === 'refused') {
      this.drop(id, request.api, 'request', from, broker, 'receiverDown');
      this.scheduler.schedule(this.links.latencyMs(from, toBroker), () => this.fail(o, 'disconnected'));
      return;
    }
    o.delivered = true;
    this.requestsDelivered++;
    let answered = false;
    this.serve(toBroker, from, request, (response) => {
      if (answered) return;
      answered = true;
      this.respond(o, request, response);
    });
  }

  private respond(o: Outstanding, request: ConsumerRequest, response: ConsumerResponse): void {
    const { id, from, toBroker } = o;
    const broker = `broker-${toBroker}`;
    const rid = this.nextId++;
    // A broker that is no longer serving sends nothing (a crash already reset the connection).
    if (this.links.reachability(toBroker) !== 'up') {
      this.drop(rid, request.api, 'response', broker, from, 'senderUnreachable');
      return;
    }
    const respAt = this.arrival(`${toBroker}>${from}`, this.links.latencyMs(from, toBroker));
    this.emit({
      type: 'groupResponseSent',
      id: rid,
      requestId: id,
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
        this.drop(rid, request.api, 'response', broker, from, 'receiverDown');
        return;
      }
      if (this.links.reachability(toBroker) === 'silent') {
        this.drop(rid, request.api, 'response', broker, from, 'senderUnreachable');
        return;
      }
      if (!this.outstanding.has(id)) {
        // The client disconnected (timeout, reset) before the answer came.
        this.drop(rid, request.api, 'response', broker, from, 'requestAbandoned');
        return;
      }
      this.forget(o);
      this.responsesDelivered++;
      o.onResponse(response);
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
  if (m.api === 'OffsetsForLeaderEpoch') {
    return {
      api: 'OffsetsForLeaderEpoch' as const,
      summary: m.partitions
        .map((p) =>
          'currentLeaderEpoch' in p
            ? `${p.topic}-${p.partition} epoch ${p.leaderEpoch} (leader epoch ${p.currentLeaderEpoch})`
            : `${p.topic}-${p.partition}: ${p.errorCode === 'NONE' ? `epoch ${p.leaderEpoch} ends at ${p.endOffset}` : p.errorCode}`,
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
  if (r.api === 'DescribeGroups') return r.groups.map((g) => g.errorCode).find((e) => e !== 'NONE') ?? 'NONE';
  if (r.api === 'Fetch' || r.api === 'ListOffsets' || r.api === 'OffsetsForLeaderEpoch') {
    return r.partitions.map((p) => p.errorCode).find((e) => e !== 'NONE') ?? 'NONE';
  }
  return 'NONE';
}
