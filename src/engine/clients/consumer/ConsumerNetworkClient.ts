import type { Network, ResponseMessage } from '../../cluster/Network';
import { brokerNodeId, type KafkaRequest, type KafkaResponse } from '../../cluster/requests';
import type { Scheduler } from '../../cluster/Scheduler';
import {
  consumerFetchResponseOf,
  consumerListOffsetsResponseOf,
  consumerOffsetsForLeaderEpochResponseOf,
  fetchRequestOf,
  listOffsetsRequestOf,
  offsetsForLeaderEpochRequestOf,
} from './clientRequests';
import type { ConsumerRequest, ConsumerResponse } from './fetchProtocol';
import { isGroupMessage } from './groupProtocol';
import type { GroupEvent } from './groupEvents';

/** Kafka's request.timeout.ms default for consumers. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

interface Outstanding {
  correlationId: number;
  /** The request's network message id (what the group events call it). */
  id: number;
  from: string;
  toBroker: number;
  request: ConsumerRequest;
  onResponse: (response: ConsumerResponse | null) => void;
  timer: number;
}

/**
 * The simulated consumers' side of the engine's one network (Kafka's ConsumerNetworkClient over
 * NetworkClient): each consumer is a node on the cluster's `Network`, and every request it sends
 * travels to the broker it addresses, whose KafkaApis answers it like any client's. So a consumer
 * meets a broker as producers and brokers do:
 *
 *  - a request arrives one link latency later (links are FIFO), the answer takes it back;
 *  - a broker whose process is down on a running machine refuses the connection, a crash resets
 *    it: the client hears a disconnect one latency later (NetworkClient fails in-flight requests);
 *  - a powered-off or isolated broker says nothing: the client finds out only by its own timeout
 *    (request.timeout.ms, or rebalance.timeout.ms + 5 s for JoinGroup), as NetworkClient does;
 *  - an answer to a client that crashed, or that already gave up on the request, is dropped.
 *
 * Every request calls `onResponse` exactly once: with the answer, or null when the connection
 * failed or timed out. Sends, answers and failures are group events (the consumer's own account
 * of its exchanges, with both ends and times); the network's messages carry the same traffic.
 */
export class ConsumerNetworkClient {
  private readonly clients = new Set<string>();
  /** Clients whose process died: nothing they send leaves until they are up again. */
  private readonly down = new Set<string>();
  private readonly outstanding = new Map<number, Outstanding>();
  /** Counts for benchmarks: messages delivered each way. */
  requestsDelivered = 0;
  responsesDelivered = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly network: Network,
    private readonly emit: (event: GroupEvent) => void,
  ) {}

  /** A client process started: it is a node on the network. */
  clientUp(clientId: string): void {
    this.down.delete(clientId);
    if (this.clients.has(clientId)) return;
    this.clients.add(clientId);
    this.network.attach(clientId, {
      onResponse: (m) => this.onResponse(m),
      onDisconnect: (_peer, correlationId) => this.fail(correlationId, 'disconnected'),
      onResponseSent: (m) => this.onResponseSent(m),
    });
  }

  /** A client process died: nothing more reaches it, and its in-flight requests are lost with it. */
  clientDown(clientId: string): void {
    this.down.add(clientId);
    if (!this.clients.delete(clientId)) return;
    for (const o of [...this.outstanding.values()]) {
      if (o.from !== clientId) continue;
      this.forget(o);
      this.network.abandon(o.correlationId);
    }
    // Nobody waits on a client for an answer: this only takes the node off the network.
    this.network.detach(clientId, true);
  }

  /** How many requests `from` has outstanding to a broker (NetworkClient's in-flight count). */
  inFlightCount(from: string, toBroker: number): number {
    let n = 0;
    for (const o of this.outstanding.values()) if (o.from === from && o.toBroker === toBroker) n++;
    return n;
  }

  /**
   * NetworkClient.leastLoadedNode: any broker answers FindCoordinator, so take the one with the
   * fewest requests in flight from this client, scanning from a per-client starting point (Kafka
   * starts at a random offset; a hash of the client id keeps it deterministic and spreads clients).
   */
  leastLoadedNode(clientId: string, brokers: number[]): number {
    let h = 0;
    for (let i = 0; i < clientId.length; i++) h = (Math.imul(h, 31) + clientId.charCodeAt(i)) | 0;
    const offset = (h >>> 0) % brokers.length;
    let best = brokers[offset] as number;
    let bestCount = Number.POSITIVE_INFINITY;
    for (let i = 0; i < brokers.length; i++) {
      const b = brokers[(offset + i) % brokers.length] as number;
      const n = this.inFlightCount(clientId, b);
      if (n < bestCount) {
        best = b;
        bestCount = n;
        if (n === 0) break;
      }
    }
    return best;
  }

  /**
   * Sends a request; onResponse gets the answer, or null when the connection failed or the
   * request timed out after `timeoutMs`.
   */
  send(
    from: string,
    toBroker: number,
    request: ConsumerRequest,
    onResponse: (response: ConsumerResponse | null) => void,
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): void {
    // A hand-driven client (a test's probe) is up once it speaks, unless its process died.
    if (!this.clients.has(from) && !this.down.has(from)) this.clientUp(from);
    const message = this.network.sendRequest(from, brokerNodeId(toBroker), brokerRequestOf(request));
    const o: Outstanding = {
      correlationId: message.correlationId,
      id: message.id,
      from,
      toBroker,
      request,
      onResponse,
      timer: 0,
    };
    this.outstanding.set(o.correlationId, o);
    o.timer = this.scheduler.schedule(timeoutMs, () => this.fail(o.correlationId, 'timedOut'));
    this.emit({
      type: 'groupRequestSent',
      id: message.id,
      api: request.api,
      from,
      toBroker,
      sentAtMs: message.sentAtMs,
      arriveAtMs: message.arriveAtMs,
      timeoutAtMs: message.sentAtMs + timeoutMs,
      body: summarize(request) as Extract<GroupEvent, { type: 'groupRequestSent' }>['body'],
    });
  }

  private forget(o: Outstanding): void {
    if (this.outstanding.delete(o.correlationId)) this.scheduler.cancel(o.timer);
  }

  /** The client gives up on a request (NetworkClient closes the connection): it hears null, once. */
  private fail(correlationId: number, reason: 'disconnected' | 'timedOut'): void {
    const o = this.outstanding.get(correlationId);
    if (!o) return;
    this.forget(o);
    this.network.abandon(correlationId);
    if (!this.clients.has(o.from)) return;
    this.emit({
      type: 'groupRequestFailed',
      id: o.id,
      api: o.request.api,
      from: o.from,
      toBroker: o.toBroker,
      reason,
      atMs: this.scheduler.now(),
    });
    o.onResponse(null);
  }

  /** The broker answered: the consumer's account of the answer on its way. */
  private onResponseSent(m: ResponseMessage): void {
    const o = this.outstanding.get(m.correlationId);
    if (!o) return;
    this.requestsDelivered++;
    const response = consumerResponseOf(o.request, m.body);
    this.emit({
      type: 'groupResponseSent',
      id: m.id,
      requestId: o.id,
      api: o.request.api,
      fromBroker: o.toBroker,
      to: o.from,
      sentAtMs: m.sentAtMs,
      arriveAtMs: m.arriveAtMs,
      errorCode: response ? errorOf(response) : 'NONE',
      body: (response ? summarize(response) : { api: o.request.api, summary: '' }) as Extract<
        GroupEvent,
        { type: 'groupResponseSent' }
      >['body'],
    });
  }

  private onResponse(m: ResponseMessage): void {
    const o = this.outstanding.get(m.correlationId);
    // Gone: the client gave up on it (timed out, reset) before the answer came.
    if (!o) return;
    this.forget(o);
    this.responsesDelivered++;
    const response = consumerResponseOf(o.request, m.body);
    o.onResponse(response);
  }
}

/** What a consumer request is on the network: the group APIs as they are, the data path as the broker's own requests. */
function brokerRequestOf(request: ConsumerRequest): KafkaRequest {
  switch (request.api) {
    case 'Fetch':
      return fetchRequestOf(request);
    case 'ListOffsets':
      return listOffsetsRequestOf(request);
    case 'OffsetsForLeaderEpoch':
      return offsetsForLeaderEpochRequestOf(request);
    default:
      return request;
  }
}

/** The broker's answer read as the consumer's; null when it answers another API (never, from KafkaApis). */
function consumerResponseOf(request: ConsumerRequest, r: KafkaResponse): ConsumerResponse | null {
  if (r.api !== request.api) return null;
  if (request.api === 'Fetch' && r.api === 'Fetch') return consumerFetchResponseOf(request, r);
  if (request.api === 'ListOffsets' && r.api === 'ListOffsets') return consumerListOffsetsResponseOf(request, r);
  if (request.api === 'OffsetsForLeaderEpoch' && r.api === 'OffsetsForLeaderEpoch')
    return consumerOffsetsForLeaderEpochResponseOf(request, r);
  return isGroupMessage(r) ? r : null;
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
