/**
 * The page's proxy for the engine worker. `call('produceRecord', {...})` posts one request and resolves
 * with that command's typed result, or rejects with a WorkerError carrying the Kafka error name.
 * Pending requests wait in a map keyed by message id; replies may arrive in any order.
 */
import type {
  CommandArgs,
  CommandName,
  CommandResult,
  SerializedError,
  WorkerMessage,
  WorkerNotice,
  WorkerRequest,
} from './protocol';

// The page's only run-time door into src/worker: the protocol's limits and the board's constants
// reach the UI from here (check-layers); everything else it takes from the worker is a type.
export {
  ASSIGNORS,
  COMMIT_MODES,
  comparePartitions,
  currentActionOp,
  EVENT_KINDS,
  isBrokerCommandOp,
  MAX_TOPIC_PARTITIONS,
  MOMENT_KINDS,
  MOMENT_LABELS,
  DEMO_CLEANUP_INTERVALS,
  TOPIC_CLEANUP_KEYS,
  toEngineMs,
  toScenarioMs,
} from '../engine/apps';
export { MAX_IMPORT_BYTES, MAX_PRODUCE_MANY_RECORDS } from './protocol';

/** An error raised inside the worker, rebuilt on the page side with its Kafka error name. */
export class WorkerError extends Error {
  readonly code: string | null;
  readonly details: Record<string, unknown>;
  constructor(e: SerializedError) {
    super(e.message);
    this.name = e.name;
    this.code = e.code;
    this.details = e.details ?? {};
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Collects the byte arrays inside a value so they travel in the transfer list. */
function transferables(value: unknown, out: Transferable[] = [], depth = 0): Transferable[] {
  if (depth > 4 || value === null || typeof value !== 'object') return out;
  if (value instanceof Uint8Array) {
    if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength && value.buffer instanceof ArrayBuffer)
      out.push(value.buffer);
    return out;
  }
  for (const v of Object.values(value)) transferables(v, out, depth + 1);
  return out;
}

/**
 * The page's side of the channel to the engine: the engine's Worker in a browser, one end of a
 * MessageChannel in a test (which has no worker to fail or terminate).
 */
export interface EngineEndpoint {
  postMessage(message: WorkerRequest, transfer: Transferable[]): void;
  /** Hands every message from the host to `handler`. */
  listen(handler: (message: WorkerMessage) => void): void;
  /** Tells of the worker failing to load or dying. */
  onFailure?(handler: (message: string) => void): void;
  terminate(): void;
}

/** The engine's Web Worker as an EngineEndpoint. */
function workerEndpoint(worker: Worker): EngineEndpoint {
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    listen: (handler) => {
      worker.onmessage = (ev: MessageEvent<WorkerMessage>) => handler(ev.data);
    },
    onFailure: (handler) => {
      worker.onerror = (ev: ErrorEvent) => {
        ev.preventDefault();
        handler(ev.message || 'the engine worker failed');
      };
    },
    terminate: () => worker.terminate(),
  };
}

export class EngineClient {
  private readonly worker: EngineEndpoint;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private fatalListeners: ((e: WorkerError) => void)[] = [];
  private noticeListeners: ((n: WorkerNotice) => void)[] = [];

  constructor(
    endpoint: EngineEndpoint = workerEndpoint(
      new Worker(new URL('./host.ts', import.meta.url), { type: 'module', name: 'glassbox-engine' }),
    ),
  ) {
    this.worker = endpoint;
    endpoint.listen((msg) => this.receive(msg));
    endpoint.onFailure?.((message) => this.fail(new WorkerError({ name: 'WorkerError', code: null, message })));
  }

  /** Sends one command; resolves with its result. */
  call<K extends CommandName>(type: K, data: CommandArgs<K>): Promise<CommandResult<K>> {
    const messageId = this.nextId++;
    const request = { messageId, type, data } as WorkerRequest;
    return new Promise<CommandResult<K>>((resolve, reject) => {
      this.pending.set(messageId, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(request, transferables(data));
    });
  }

  /** Called when the worker dies or cannot start: every pending call is rejected too. */
  onFatal(listener: (e: WorkerError) => void): () => void {
    this.fatalListeners.push(listener);
    return () => {
      this.fatalListeners = this.fatalListeners.filter((l) => l !== listener);
    };
  }

  /** Unsolicited news from the worker (ownership lost, storage failed). */
  onNotice(listener: (n: WorkerNotice) => void): () => void {
    this.noticeListeners.push(listener);
    return () => {
      this.noticeListeners = this.noticeListeners.filter((l) => l !== listener);
    };
  }

  terminate(): void {
    this.worker.terminate();
    this.fail(new WorkerError({ name: 'WorkerError', code: null, message: 'the engine worker was stopped' }));
  }

  private receive(msg: WorkerMessage): void {
    if ('notice' in msg) {
      if (msg.notice === 'fatal') this.fail(new WorkerError(msg.error));
      else for (const l of this.noticeListeners) l(msg);
      return;
    }
    const p = this.pending.get(msg.requestId);
    if (!p) return;
    this.pending.delete(msg.requestId);
    if (msg.ok) p.resolve(msg.data);
    else p.reject(new WorkerError(msg.error));
  }

  private fail(e: WorkerError): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    for (const l of this.fatalListeners) l(e);
  }
}
