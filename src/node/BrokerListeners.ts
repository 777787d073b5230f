/**
 * One TCP listener per broker (Kafka's SocketServer, reduced to what a gateway needs): reads
 * size-prefixed frames, refuses a frame over `socket.request.max.bytes` (Kafka's
 * InvalidReceiveException closes the connection), hands each request to the gateway and writes
 * the answers back. A broker that is not running has no listener: clients get "connection
 * refused" as they would from a dead process; it listens again once the broker runs.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { WireGateway } from './WireGateway';

/** Kafka's default socket.request.max.bytes (100 MiB). */
export const SOCKET_REQUEST_MAX_BYTES = 104_857_600;

export interface ListenerOptions {
  host: string;
  /** Broker id -> port. */
  portOf: (brokerId: number) => number;
  maxRequestBytes?: number;
}

export class BrokerListeners {
  private readonly servers = new Map<number, Server>();
  private readonly sockets = new Map<number, Set<Socket>>();

  constructor(
    private readonly gateway: WireGateway,
    private readonly options: ListenerOptions,
  ) {}

  /** Opens a listener for every running broker and closes those of brokers that are not. */
  async sync(running: readonly number[]): Promise<void> {
    const want = new Set(running);
    const work: Promise<void>[] = [];
    for (const id of want) if (!this.servers.has(id)) work.push(this.open(id));
    for (const id of [...this.servers.keys()]) if (!want.has(id)) work.push(this.closeBroker(id));
    await Promise.all(work);
  }

  /** Client connections open on each broker's listener. */
  connections(): Map<number, number> {
    return new Map([...this.sockets].map(([id, open]) => [id, open.size]));
  }

  listening(): number[] {
    return [...this.servers.keys()].sort((a, b) => a - b);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.closeBroker(id)));
  }

  private open(brokerId: number): Promise<void> {
    const server = createServer((socket) => this.accept(brokerId, socket));
    this.servers.set(brokerId, server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.portOf(brokerId), this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  private closeBroker(brokerId: number): Promise<void> {
    const server = this.servers.get(brokerId);
    this.servers.delete(brokerId);
    for (const s of this.sockets.get(brokerId) ?? []) s.destroy();
    this.sockets.delete(brokerId);
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  private accept(brokerId: number, socket: Socket): void {
    const open = this.sockets.get(brokerId) ?? new Set<Socket>();
    open.add(socket);
    this.sockets.set(brokerId, open);
    socket.setNoDelay(true);
    const max = this.options.maxRequestBytes ?? SOCKET_REQUEST_MAX_BYTES;
    const connection = this.gateway.connect(
      brokerId,
      (framed) => {
        if (!socket.destroyed) socket.write(framed);
      },
      () => socket.destroy(),
    );
    // Received bytes not yet handed on, as the chunks they came in: a frame that spans many
    // chunks (a producer's 1 MB request arrives in 64 KB reads) is copied once, into its request,
    // never re-concatenated on every read.
    const chunks: Buffer[] = [];
    let bufferedBytes = 0;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bufferedBytes += chunk.length;
      while (bufferedBytes >= 4) {
        // The size itself may straddle chunks: join just enough of them to read it.
        while ((chunks[0] as Buffer).length < 4)
          chunks.splice(0, 2, Buffer.concat([chunks[0] as Buffer, chunks[1] as Buffer]));
        const size = (chunks[0] as Buffer).readInt32BE(0);
        if (size < 0 || size > max) {
          // InvalidReceiveException: the size is refused before any of the body is read.
          socket.destroy();
          return;
        }
        if (bufferedBytes < 4 + size) break;
        connection.receive(takeFrame(chunks, size));
        bufferedBytes -= 4 + size;
      }
    });
    socket.on('close', () => {
      open.delete(socket);
      connection.close();
    });
    socket.on('error', () => socket.destroy());
  }
}

/**
 * Removes one frame (its 4-byte size, then `size` bytes) from the front of `chunks`, which hold
 * at least that many bytes, and returns its body as a request of its own (a copy: the chunks'
 * memory is not kept alive by the engine).
 */
function takeFrame(chunks: Buffer[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let skip = 4;
  let filled = 0;
  while (filled < size || skip > 0) {
    const head = chunks[0] as Buffer;
    const from = skip;
    const take = Math.min(head.length - from, size - filled);
    body.set(head.subarray(from, from + take), filled);
    filled += take;
    skip = 0;
    if (from + take === head.length) chunks.shift();
    else chunks[0] = head.subarray(from + take);
  }
  return body;
}
