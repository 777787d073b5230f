/**
 * Real Kafka clients into the engine: each client connection to a broker's listener becomes a
 * client node on the engine's network, its requests are decoded from Kafka's wire format
 * (`engine/wire`), sent to the broker as the engine's own requests (so the broker's KafkaApis
 * answers them, and the page can draw them as tokens like any other client's), and the answers
 * are encoded back. Answers go out in request order per connection, as Kafka's SocketServer
 * keeps them (one in-flight response per connection is muted until the previous is sent).
 *
 * What is served, and how each API maps to the engine's requests, is `apiHandlers.ts`; only
 * that is advertised.
 */
import {
  ByteReader,
  ByteWriter,
  brokerNodeId,
  decodeMessage,
  type Engine,
  encodeMessage,
  inRange,
  type KafkaRequest,
  type KafkaResponse,
  peekRequestHeader,
  readRequestHeaderRest,
  requestHeaderVersion,
  responseHeaderVersion,
  WireFormatError,
  type ResponseFor,
  WIRE_APIS,
  type WireApi,
  type WireResponse,
  writeResponseHeader,
} from '../engine/index';
import type { ClientConnection, Listener } from './apiHandler';
import { ACKNOWLEDGES_WRITES, SERVED } from './apiHandlers';

export type { Listener };

type Answer = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'none' } | { kind: 'close'; reason: string };

export class WireGateway {
  private nextConnection = 1;

  constructor(
    readonly engine: Engine,
    /** Where each broker listens (what Metadata tells clients to connect to). */
    readonly listenerOf: (brokerId: number) => Listener,
    /** Told each connection's client.id as its requests name it, so the page can draw the client by it. */
    readonly onClientId: (node: string, clientId: string) => void = () => {},
    /**
     * Called when an answer is ready: resolves true once every file write the engine issued up to
     * now is in the files (false: the log dir failed). Kafka answers a Produce, an OffsetCommit or a
     * CreateTopics only after its append or znode is written, so nothing acknowledged lives only in
     * this process's memory. Default: answer at once.
     */
    readonly written: () => Promise<boolean> = () => Promise.resolve(true),
  ) {}

  /** A client connected to broker `brokerId`'s listener. `send` writes a framed answer; `close` hangs up. */
  connect(brokerId: number, send: (framed: Uint8Array) => void, close: (reason: string) => void): GatewayConnection {
    return new GatewayConnection(this, brokerId, `wire-client-${this.nextConnection++}`, send, close);
  }
}

export class GatewayConnection implements ClientConnection {
  /** Answers in request order: each request takes the next number, and goes out after every earlier one. */
  private readonly ready = new Map<number, Answer>();
  private received = 0;
  private sent = 0;
  private readonly pending = new Map<number, (body: KafkaResponse) => void>();
  private closed = false;
  /** The client.id its requests carry (the last one named). */
  private clientId: string | null = null;

  constructor(
    private readonly gateway: WireGateway,
    readonly brokerId: number,
    readonly node: string,
    private readonly send: (framed: Uint8Array) => void,
    private readonly hangUp: (reason: string) => void,
  ) {
    gateway.engine.attachClient(node, {
      onResponse: (m) => {
        const done = this.pending.get(m.correlationId);
        this.pending.delete(m.correlationId);
        done?.(m.body);
      },
      // The broker's process died with our request in it: Kafka's client sees the socket close.
      onDisconnect: () => this.fail('the broker went away'),
    });
  }

  /** One request (a frame's bytes, without the size). */
  receive(request: Uint8Array): void {
    if (this.closed) return;
    const seq = this.received++;
    const answer = (a: Answer) => {
      this.ready.set(seq, a);
      this.flush();
    };
    try {
      this.dispatch(request, answer);
    } catch (e) {
      // A request Kafka cannot parse closes the connection (InvalidRequestException).
      answer({ kind: 'close', reason: e instanceof Error ? e.message : String(e) });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.clear();
    // With resetConnections: nobody waits on a client for an answer, so this only takes the node
    // off the network (without, the network would remember it as a powerless machine forever).
    this.gateway.engine.cluster.network.detach(this.node, true);
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.close();
    this.hangUp(reason);
  }

  private flush(): void {
    for (let a = this.ready.get(this.sent); a !== undefined && !this.closed; a = this.ready.get(this.sent)) {
      this.ready.delete(this.sent++);
      if (a.kind === 'close') {
        this.fail(a.reason);
        return;
      }
      if (a.kind === 'bytes') this.send(a.bytes);
    }
  }

  private dispatch(request: Uint8Array, answer: (a: Answer) => void): void {
    const r = new ByteReader(request);
    const start = peekRequestHeader(r);
    const handler = SERVED.get(start.apiKey);
    if (!handler) {
      answer({ kind: 'close', reason: `api key ${start.apiKey} is not served` });
      return;
    }
    const { request: reqSchema, response: resSchema } = WIRE_APIS[handler.api];
    const supported = inRange(reqSchema.valid, start.apiVersion);
    if (!supported && handler.api !== 'ApiVersions') {
      answer({ kind: 'close', reason: `${reqSchema.name} v${start.apiVersion} is not served` });
      return;
    }
    // KIP-511: an ApiVersions request of an unknown version is answered in v0 with
    // UNSUPPORTED_VERSION and the supported list; its body is not read.
    const version = supported ? start.apiVersion : 0;
    const flexible = supported && inRange(reqSchema.flexible, version);
    const header = readRequestHeaderRest(r, start, requestHeaderVersion(start.apiKey, start.apiVersion, flexible));
    if (header.clientId && header.clientId !== this.clientId) {
      this.clientId = header.clientId;
      this.gateway.onClientId(this.node, header.clientId);
    }
    const body = decodeMessage(reqSchema, version, supported ? request.subarray(r.position) : new Uint8Array(0));
    const reply = (value: WireResponse<WireApi>) => {
      const w = new ByteWriter(256);
      w.writeInt32(0); // the frame's size, filled in below
      const headerVersion = responseHeaderVersion(start.apiKey, inRange(resSchema.flexible, version));
      writeResponseHeader(w, header.correlationId, headerVersion);
      w.writeRaw(encodeMessage(resSchema, version, value));
      const framed = w.toBytes();
      new DataView(framed.buffer).setInt32(0, framed.length - 4);
      if (!ACKNOWLEDGES_WRITES.has(handler.api)) {
        answer({ kind: 'bytes', bytes: framed });
        return;
      }
      void this.gateway
        .written()
        .then((ok) =>
          answer(
            ok
              ? { kind: 'bytes', bytes: framed }
              : { kind: 'close', reason: 'KAFKA_STORAGE_ERROR: a write to the log dir failed' },
          ),
        );
    };
    const outcome = handler.handle({ connection: this, body, version, header }, reply);
    // acks=0: Kafka sends nothing back, and the next answer must not wait for this one.
    if (outcome === 'no-response') answer({ kind: 'none' });
  }

  /** Sends the engine request to this connection's broker (a group request too: its KafkaApis hands it to the GroupCoordinator); `done` gets the broker's answer. */
  call<R extends KafkaRequest>(body: R, done?: (r: ResponseFor<R>) => void): void {
    const cid = this.gateway.engine.cluster.network.send(this.node, brokerNodeId(this.brokerId), body);
    if (!done) return;
    this.pending.set(cid, (r) => {
      if (answers(body, r)) done(r);
      else this.fail(`a ${body.api} request answered with ${r.api}`);
    });
  }

  /** False once the client or the broker hung up: nothing more is sent. */
  get isOpen(): boolean {
    return !this.closed;
  }

  /** The engine behind this connection, for what a broker answers from its own state (configs, topic creation). */
  get engine(): Engine {
    return this.gateway.engine;
  }

  get listenerOf(): WireGateway['listenerOf'] {
    return this.gateway.listenerOf;
  }
}

/** Whether `response` is the broker's answer to `request` (the same API). */
function answers<R extends KafkaRequest>(request: R, response: KafkaResponse): response is ResponseFor<R> {
  return response.api === request.api;
}

export { WireFormatError };
