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
    let buffered: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const size = buffered.readInt32BE(0);
        if (size < 0 || size > max) {
          // InvalidReceiveException: the size is refused before any of the body is read.
          socket.destroy();
          return;
        }
        if (buffered.length < 4 + size) break;
        const request = new Uint8Array(buffered.subarray(4, 4 + size));
        buffered = buffered.subarray(4 + size);
        connection.receive(request);
      }
    });
    socket.on('close', () => {
      open.delete(socket);
      connection.close();
    });
    socket.on('error', () => socket.destroy());
  }
}
