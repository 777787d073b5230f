import type { ApiName, KafkaRequest, KafkaResponse, NodeId } from './requests';
import type { Scheduler } from './Scheduler';

/**
 * The simulated network between brokers and clients. A message sent at `sentAtMs` arrives at
 * `arriveAtMs = sentAtMs + latency` (never before an earlier message on the same link: links are
 * FIFO like a TCP connection). Delivery happens on the Scheduler, so ordering is deterministic.
 *
 * Nothing is delivered to or from a node that is down (crashed, powered off, stopped) or
 * isolated (cut off by a network partition). The difference a client can observe:
 *  - a crashed process resets its connections, so senders with requests outstanding to it get
 *    a disconnect (Kafka's NetworkClient fails them and refreshes metadata);
 *  - a power failure or an isolation says nothing: requests just never complete and the sender
 *    finds out by its own timeout (request.timeout.ms).
 *
 * A TCP connection delivers its stream in order or not at all, and an idempotent producer relies
 * on that: once an isolation lost a Produce request, no later Produce request from that producer
 * reaches that broker until the producer closes the connection (abandons its requests on a
 * request timeout, as Kafka's NetworkClient does). Without this a later batch could be written
 * ahead of a lost earlier one, and the epoch bump that follows would write it a second time.
 *
 * Every send, delivery and drop is reported with its times, so the UI can draw each message in
 * flight by interpolating between sentAtMs and arriveAtMs (as RaftScope does).
 */
/** A message's ends as events name them: which message, of which exchange, between whom. */
export interface MessageRoute {
  id: number;
  kind: 'request' | 'response';
  correlationId: number;
  api: ApiName;
  from: NodeId;
  to: NodeId;
}

/** The delivery a state change happened in: the message's network id, API and kind. */
export interface MessageCause {
  id: number;
  api: ApiName;
  kind: 'request' | 'response';
}

/** What the UI needs to place a message in flight: its ends and times, without the body. */
export interface MessageInFlight extends MessageRoute {
  sentAtMs: number;
  arriveAtMs: number;
}

export interface RequestMessage extends MessageInFlight {
  kind: 'request';
  body: KafkaRequest;
}

export interface ResponseMessage extends MessageInFlight {
  kind: 'response';
  body: KafkaResponse;
}

export type NetworkMessage = RequestMessage | ResponseMessage;

/** connectionBroken: a Produce request behind one an isolation lost, on the same connection (see Network). */
export type DropReason = 'senderDown' | 'senderIsolated' | 'receiverDown' | 'receiverIsolated' | 'connectionBroken';

export type NetworkEvent =
  | (MessageInFlight & {
      type: 'messageSent';
      body: KafkaRequest | KafkaResponse;
    })
  | (MessageRoute & { type: 'messageDelivered'; atMs: number })
  | (MessageRoute & { type: 'messageDropped'; atMs: number; reason: DropReason })
  | { type: 'connectionReset'; node: NodeId; peer: NodeId; correlationId: number; api: ApiName; atMs: number }
  | { type: 'nodeIsolated'; node: NodeId; atMs: number }
  | { type: 'nodeHealed'; node: NodeId; atMs: number };

/** What a node plugs into the network. */
export interface NetworkEndpoint {
  onRequest?(message: RequestMessage): void;
  onResponse?(message: ResponseMessage): void;
  /** A request this node sent will never be answered: the peer's process died. */
  onDisconnect?(peer: NodeId, correlationId: number, api: ApiName): void;
  /**
   * An answer to this node has left its sender (it may still be lost on the way): for a client
   * that reports its exchanges as they happen (the consumers' group events), nothing more.
   */
  onResponseSent?(message: ResponseMessage): void;
}

export interface NetworkConfig {
  /** One-way latency of every link, in ms. */
  latencyMs: number;
  /**
   * Whether anyone takes events of a type (default: yes). messageSent and messageDelivered, two
   * per message, are not built when nobody does.
   */
  wants: (type: NetworkEvent['type']) => boolean;
}

interface Outstanding {
  from: NodeId;
  to: NodeId;
  api: ApiName;
}

export class Network {
  private readonly endpoints = new Map<NodeId, NetworkEndpoint>();
  private readonly isolated = new Set<NodeId>();
  /** Detached without resetting connections: the machine itself is off, nothing answers. */
  private readonly powerless = new Set<NodeId>();
  /** Per directed link: its latency override and when its last message arrives (FIFO). */
  private readonly links = new Map<NodeId, Map<NodeId, { latencyMs: number | null; lastArrivalMs: number }>>();
  private readonly outstanding = new Map<number, Outstanding>();
  /** Producer connections (`from>to`) whose stream lost a Produce request to an isolation. */
  private readonly brokenProduceLinks = new Set<string>();
  /** The lost Produce requests, by correlation id: abandoning one closes (repairs) its connection. */
  private readonly lostProduce = new Map<number, string>();
  private nextMessageId = 1;
  private readonly flying = new Map<number, NetworkMessage>();
  /** The message being delivered (its receiver's handler is running), see handling(). */
  private current: NetworkMessage | null = null;
  private readonly deliverFn = (message: NetworkMessage) => this.deliver(message);
  private nextCorrelationId = 1;
  private readonly wants: (type: NetworkEvent['type']) => boolean;
  latencyMs: number;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly emit: (event: NetworkEvent) => void,
    config: Partial<NetworkConfig> = {},
  ) {
    this.latencyMs = config.latencyMs ?? 1;
    this.wants = config.wants ?? (() => true);
  }

  /** Brings a node up on the network (a process starting). */
  attach(node: NodeId, endpoint: NetworkEndpoint): void {
    this.endpoints.set(node, endpoint);
    this.powerless.delete(node);
  }

  /**
   * Takes a node off the network (its process is gone). With `resetConnections`, peers waiting
   * on it for a response hear about it (a crash); without, they don't (a power failure).
   */
  detach(node: NodeId, resetConnections: boolean): void {
    this.endpoints.delete(node);
    if (!resetConnections) this.powerless.add(node);
    for (const [correlationId, o] of [...this.outstanding]) {
      if (o.to !== node) continue;
      this.outstanding.delete(correlationId);
      if (!resetConnections || !this.reachable(o.from, node, true)) continue;
      const at = this.scheduler.now() + this.latency(node, o.from);
      this.scheduler.scheduleAt(at, () => {
        const endpoint = this.endpoints.get(o.from);
        if (!endpoint || this.isolated.has(o.from)) return;
        this.emit({
          type: 'connectionReset',
          node: o.from,
          peer: node,
          correlationId,
          api: o.api,
          atMs: this.scheduler.now(),
        });
        endpoint.onDisconnect?.(node, correlationId, o.api);
      });
    }
  }

  isUp(node: NodeId): boolean {
    return this.endpoints.has(node);
  }

  isolate(node: NodeId): void {
    if (this.isolated.has(node)) return;
    this.isolated.add(node);
    this.emit({ type: 'nodeIsolated', node, atMs: this.scheduler.now() });
  }

  heal(node: NodeId): void {
    if (!this.isolated.delete(node)) return;
    this.emit({ type: 'nodeHealed', node, atMs: this.scheduler.now() });
  }

  isIsolated(node: NodeId): boolean {
    return this.isolated.has(node);
  }

  /** Whether a message from `a` could reach `b` right now (a node always reaches itself). */
  reachable(a: NodeId, b: NodeId, ignoreReceiverDown = false): boolean {
    if (!this.endpoints.has(a)) return false;
    if (!ignoreReceiverDown && !this.endpoints.has(b)) return false;
    if (a === b) return true;
    return !this.isolated.has(a) && !this.isolated.has(b);
  }

  /** Sets the one-way latency of one link (both directions), or of every link without peers. */
  setLatency(ms: number, a?: NodeId, b?: NodeId): void {
    if (a === undefined || b === undefined) this.latencyMs = ms;
    else {
      this.link(a, b).latencyMs = ms;
      this.link(b, a).latencyMs = ms;
    }
  }

  latency(from: NodeId, to: NodeId): number {
    return this.links.get(from)?.get(to)?.latencyMs ?? this.latencyMs;
  }

  /** Sends a request; returns its correlation id (the response carries the same one). */
  send(from: NodeId, to: NodeId, body: KafkaRequest): number {
    return this.sendRequest(from, to, body).correlationId;
  }

  /** Sends a request; returns the message (its ids and when it arrives). */
  sendRequest(from: NodeId, to: NodeId, body: KafkaRequest): RequestMessage {
    const correlationId = this.nextCorrelationId++;
    const message: RequestMessage = {
      kind: 'request',
      id: this.nextMessageId++,
      correlationId,
      api: body.api,
      from,
      to,
      sentAtMs: this.scheduler.now(),
      arriveAtMs: this.arrival(from, to),
      body,
    };
    // acks=0 produce requests get no response: nothing to wait for.
    if (!(body.api === 'Produce' && body.acks === 0)) this.outstanding.set(correlationId, { from, to, api: body.api });
    this.transmit(message);
    return message;
  }

  /** Answers a delivered request. */
  reply(request: RequestMessage, body: KafkaResponse): void {
    const message: ResponseMessage = {
      kind: 'response',
      id: this.nextMessageId++,
      correlationId: request.correlationId,
      api: request.api,
      from: request.to,
      to: request.from,
      sentAtMs: this.scheduler.now(),
      arriveAtMs: this.arrival(request.to, request.from),
      body,
    };
    this.outstanding.delete(request.correlationId);
    this.transmit(message);
  }

  /** Forgets a request its sender gave up on (timed out), so no reset is reported for it. */
  abandon(correlationId: number): void {
    const o = this.outstanding.get(correlationId);
    if (o && o.api === 'Produce') this.brokenProduceLinks.delete(`${o.from}>${o.to}`);
    const lost = this.lostProduce.get(correlationId);
    if (lost !== undefined) {
      this.lostProduce.delete(correlationId);
      this.brokenProduceLinks.delete(lost);
    }
    this.outstanding.delete(correlationId);
  }

  private link(from: NodeId, to: NodeId): { latencyMs: number | null; lastArrivalMs: number } {
    let m = this.links.get(from);
    if (!m) {
      m = new Map();
      this.links.set(from, m);
    }
    let l = m.get(to);
    if (!l) {
      l = { latencyMs: null, lastArrivalMs: 0 };
      m.set(to, l);
    }
    return l;
  }

  private arrival(from: NodeId, to: NodeId): number {
    const l = this.link(from, to);
    const at = Math.max(this.scheduler.now() + (l.latencyMs ?? this.latencyMs), l.lastArrivalMs);
    l.lastArrivalMs = at;
    return at;
  }

  private transmit(message: NetworkMessage): void {
    const { from, to } = message;
    const senderProblem: DropReason | null = !this.endpoints.has(from)
      ? 'senderDown'
      : from !== to && this.isolated.has(from)
        ? 'senderIsolated'
        : null;
    if (this.wants('messageSent')) this.emit({ type: 'messageSent', ...inFlightView(message), body: message.body });
    if (senderProblem) {
      this.drop(message, senderProblem);
      return;
    }
    this.flying.set(message.id, message);
    this.scheduler.scheduleCall(message.arriveAtMs, this.deliverFn, message);
    if (message.kind === 'response') this.endpoints.get(to)?.onResponseSent?.(message);
  }

  /** Messages sent and not yet arrived, oldest first (for a UI that joins mid-flight). */
  inFlight(): MessageInFlight[] {
    return [...this.flying.values()].map(inFlightView);
  }

  private deliver(message: NetworkMessage): void {
    this.flying.delete(message.id);
    const { from, to } = message;
    let reason: DropReason | null = null;
    if (from !== to && this.isolated.has(from)) reason = 'senderIsolated';
    else if (from !== to && this.isolated.has(to)) reason = 'receiverIsolated';
    else if (!this.endpoints.has(to)) reason = 'receiverDown';
    else if (message.kind === 'request' && message.api === 'Produce' && this.brokenProduceLinks.has(`${from}>${to}`))
      reason = 'connectionBroken';
    const endpoint = this.endpoints.get(to);
    if (reason || !endpoint) {
      this.drop(message, reason ?? 'receiverDown');
      if (message.kind === 'request' && reason === 'receiverDown') this.detachedPeerRefused(message);
      return;
    }
    if (this.wants('messageDelivered'))
      this.emit({
        type: 'messageDelivered',
        id: message.id,
        kind: message.kind,
        correlationId: message.correlationId,
        api: message.api,
        from,
        to,
        atMs: this.scheduler.now(),
      });
    const outer = this.current;
    this.current = message;
    try {
      if (message.kind === 'request') endpoint.onRequest?.(message);
      else endpoint.onResponse?.(message);
    } finally {
      this.current = outer;
    }
  }

  /**
   * The message whose delivery is being handled right now, or null (a timer, a command): what a
   * state change that happens now was caused by. Deterministic, like the delivery order.
   */
  handling(): MessageCause | null {
    const m = this.current;
    return m === null ? null : { id: m.id, api: m.api, kind: m.kind };
  }

  /** A request reached a machine whose process is not running: the connection is refused. */
  private detachedPeerRefused(message: RequestMessage): void {
    if (!this.outstanding.delete(message.correlationId)) return;
    if (this.powerless.has(message.to)) return;
    const endpoint = this.endpoints.get(message.from);
    if (!endpoint || this.isolated.has(message.from)) return;
    this.scheduler.schedule(this.latency(message.to, message.from), () => {
      const ep = this.endpoints.get(message.from);
      if (!ep || this.isolated.has(message.from)) return;
      this.emit({
        type: 'connectionReset',
        node: message.from,
        peer: message.to,
        correlationId: message.correlationId,
        api: message.api,
        atMs: this.scheduler.now(),
      });
      ep.onDisconnect?.(message.to, message.correlationId, message.api);
    });
  }

  private drop(message: NetworkMessage, reason: DropReason): void {
    if (
      message.kind === 'request' &&
      message.api === 'Produce' &&
      reason !== 'receiverDown' &&
      reason !== 'senderDown' &&
      this.outstanding.has(message.correlationId) // acks=0 waits for nothing and never closes its connection
    ) {
      const link = `${message.from}>${message.to}`;
      this.brokenProduceLinks.add(link);
      this.lostProduce.set(message.correlationId, link);
    }
    // Lost for good: no response will come, so there is no connection left to reset.
    if (message.kind === 'request' && reason !== 'receiverDown') this.outstanding.delete(message.correlationId);
    this.emit({
      type: 'messageDropped',
      id: message.id,
      kind: message.kind,
      correlationId: message.correlationId,
      api: message.api,
      from: message.from,
      to: message.to,
      atMs: this.scheduler.now(),
      reason,
    });
  }
}

/** What a message in flight shows of itself: who sends what to whom, and when (not its body). */
function inFlightView(m: NetworkMessage): MessageInFlight {
  return {
    id: m.id,
    kind: m.kind,
    correlationId: m.correlationId,
    api: m.api,
    from: m.from,
    to: m.to,
    sentAtMs: m.sentAtMs,
    arriveAtMs: m.arriveAtMs,
  };
}
