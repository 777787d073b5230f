/**
 * Real Kafka clients into the engine: each client connection to a broker's listener becomes a
 * client node on the engine's network, its requests are decoded from Kafka's wire format
 * (`engine/wire`), sent to the broker as the engine's own requests (so the broker's KafkaApis
 * answers them, and the page can draw them as tokens like any other client's), and the answers
 * are encoded back. Answers go out in request order per connection, as Kafka's SocketServer
 * keeps them (one in-flight response per connection is muted until the previous is sent).
 *
 * Served so far: ApiVersions 0-3 (answered by the gateway, as KafkaApis does, from the table
 * below) and Metadata 0-12. Only what is served is advertised.
 */
import {
  ApiVersionsRequestData,
  ApiVersionsResponseData,
  ByteReader,
  ByteWriter,
  brokerNodeId,
  decodeMessage,
  type Engine,
  encodeMessage,
  inRange,
  KAFKA_ERROR_NUMBERS,
  type KafkaResponse,
  type MessageSchema,
  MetadataRequestData,
  MetadataResponseData,
  type MetadataResponse as EngineMetadataResponse,
  peekRequestHeader,
  readRequestHeaderRest,
  requestHeaderVersion,
  responseHeaderVersion,
  type ErrorCode,
  WireFormatError,
  writeResponseHeader,
  ZERO_UUID,
} from '../engine/index';

/** The APIs this gateway serves: a request and a response schema each. */
const SERVED: ReadonlyMap<number, { request: MessageSchema; response: MessageSchema }> = new Map([
  [ApiVersionsRequestData.apiKey, { request: ApiVersionsRequestData, response: ApiVersionsResponseData }],
  [MetadataRequestData.apiKey, { request: MetadataRequestData, response: MetadataResponseData }],
]);

/** What ApiVersions advertises: exactly the served versions. */
export function advertisedApis(): { apiKey: number; minVersion: number; maxVersion: number }[] {
  return [...SERVED.values()]
    .map(({ request }) => ({ apiKey: request.apiKey, minVersion: request.valid.lo, maxVersion: request.valid.hi }))
    .sort((a, b) => a.apiKey - b.apiKey);
}

export interface Listener {
  readonly host: string;
  readonly port: number;
}

/** Kafka's numeric error code for the engine's error name. */
export function errorNumber(code: ErrorCode): number {
  return code === 'NONE' ? 0 : KAFKA_ERROR_NUMBERS[code];
}

type Answer = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'close'; reason: string };

export class WireGateway {
  private nextConnection = 1;

  constructor(
    readonly engine: Engine,
    /** Where each broker listens (what Metadata tells clients to connect to). */
    readonly listenerOf: (brokerId: number) => Listener,
  ) {}

  /** A client connected to broker `brokerId`'s listener. `send` writes a framed answer; `close` hangs up. */
  connect(brokerId: number, send: (framed: Uint8Array) => void, close: (reason: string) => void): GatewayConnection {
    return new GatewayConnection(this, brokerId, `wire-client-${this.nextConnection++}`, send, close);
  }
}

export class GatewayConnection {
  /** Answers in request order: a slot per request, sent once every earlier one is. */
  private readonly slots: (Answer | null)[] = [];
  private readonly pending = new Map<number, (body: KafkaResponse) => void>();
  private closed = false;

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
    const slot = this.slots.length;
    this.slots.push(null);
    const answer = (a: Answer) => {
      this.slots[slot] = a;
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
    this.gateway.engine.cluster.network.detach(this.node, false);
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.close();
    this.hangUp(reason);
  }

  private flush(): void {
    while (this.slots.length > 0 && this.slots[0] !== null) {
      const a = this.slots.shift() as Answer;
      if (a.kind === 'close') {
        this.fail(a.reason);
        return;
      }
      this.send(a.bytes);
    }
  }

  private dispatch(request: Uint8Array, answer: (a: Answer) => void): void {
    const r = new ByteReader(request);
    const start = peekRequestHeader(r);
    const served = SERVED.get(start.apiKey);
    if (!served) {
      answer({ kind: 'close', reason: `api key ${start.apiKey} is not served` });
      return;
    }
    const { request: reqSchema, response: resSchema } = served;
    const supported = inRange(reqSchema.valid, start.apiVersion);
    if (!supported && start.apiKey !== ApiVersionsRequestData.apiKey) {
      answer({ kind: 'close', reason: `${reqSchema.name} v${start.apiVersion} is not served` });
      return;
    }
    // KIP-511: an ApiVersions request of an unknown version is answered in v0 with
    // UNSUPPORTED_VERSION and the supported list; its body is not read.
    const version = supported ? start.apiVersion : 0;
    const flexible = inRange(reqSchema.flexible, version) && supported;
    const header = readRequestHeaderRest(r, start, requestHeaderVersion(start.apiKey, start.apiVersion, flexible));
    const body = supported ? decodeMessage(reqSchema, version, request.subarray(r.position)) : {};
    const reply = (value: Record<string, unknown>) => {
      const w = new ByteWriter(256);
      w.writeInt32(0); // the frame's size, filled in below
      writeResponseHeader(
        w,
        header.correlationId,
        responseHeaderVersion(start.apiKey, inRange(resSchema.flexible, version)),
      );
      w.writeRaw(encodeMessage(resSchema, version, value));
      const framed = w.toBytes();
      new DataView(framed.buffer).setInt32(0, framed.length - 4);
      answer({ kind: 'bytes', bytes: framed });
    };
    switch (start.apiKey) {
      case ApiVersionsRequestData.apiKey:
        reply({
          errorCode: supported ? 0 : errorNumber('UNSUPPORTED_VERSION'),
          apiKeys: advertisedApis(),
          throttleTimeMs: 0,
        });
        return;
      case MetadataRequestData.apiKey: {
        const topics = body.topics as { name: string | null }[] | null;
        // v0 asks for every topic with an empty list; v1+ with null.
        const names =
          topics === null || (version === 0 && topics.length === 0) ? null : topics.map((t) => t.name ?? '');
        this.call(
          { api: 'Metadata', topics: names, allowAutoTopicCreation: Boolean(body.allowAutoTopicCreation) },
          (res) => reply(this.metadataAnswer(res as EngineMetadataResponse)),
        );
        return;
      }
    }
  }

  /** Sends the engine request to this connection's broker; `done` gets the broker's answer. */
  private call(body: Parameters<Engine['cluster']['network']['send']>[2], done: (r: KafkaResponse) => void): void {
    const cid = this.gateway.engine.cluster.network.send(this.node, brokerNodeId(this.brokerId), body);
    this.pending.set(cid, done);
  }

  private metadataAnswer(res: EngineMetadataResponse): Record<string, unknown> {
    return {
      throttleTimeMs: res.throttleTimeMs,
      // Clients connect where the broker listens on this machine, not to its simulated host name.
      brokers: res.brokers.map((b) => ({ nodeId: b.nodeId, ...this.gateway.listenerOf(b.nodeId), rack: b.rack })),
      clusterId: res.clusterId,
      controllerId: res.controllerId,
      topics: res.topics.map((t) => ({
        errorCode: errorNumber(t.errorCode),
        name: t.name,
        topicId: ZERO_UUID,
        isInternal: t.isInternal,
        partitions: t.partitions.map((p) => ({ ...p, errorCode: errorNumber(p.errorCode) })),
      })),
    };
  }
}

export { WireFormatError };
