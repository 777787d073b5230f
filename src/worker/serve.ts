/**
 * Dispatches the page's requests to the EngineHost and sends back exactly one reply per request.
 * Errors are serialized as {name, code, message, details}; results wrapped in Transfer move their
 * buffers instead of copying them.
 */
import { EngineHost } from './EngineHost';
import type { HostClock } from './HostClock';
import type { CommandName, WorkerMessage, WorkerReply, WorkerRequest } from './protocol';
import { loadZstdEncoder, serializeError } from '../engine';
import type { HostedRun } from '../engine/apps';
import { Transfer } from './transfer';

/**
 * The worker's side of the channel to the page: the worker's global scope in a browser, one end
 * of a MessageChannel in a test.
 */
export interface HostEndpoint {
  postMessage(message: WorkerMessage, transfer: Transferable[]): void;
  /** Hands every request from the page to `handler`. */
  listen(handler: (request: WorkerRequest) => void): void;
}

/** Serves `endpoint`'s requests from one EngineHost (returned, for a test to wait on). */
export function serve(endpoint: HostEndpoint, clock: HostClock, hosted?: HostedRun): EngineHost {
  const post = (msg: WorkerMessage, transfer: Transferable[] = []) => endpoint.postMessage(msg, transfer);
  const host = new EngineHost((notice) => post(notice), clock, hosted);
  // No request reaches the engine before zstd's encoder is loaded; if it cannot load, writing
  // zstd stays refused (UNSUPPORTED_COMPRESSION_TYPE) and everything else works.
  const zstdReady = loadZstdEncoder().catch(() => undefined);
  endpoint.listen(async (req) => {
    let reply: WorkerReply;
    await zstdReady;
    try {
      const handler = host.handlers[req.type as CommandName] as (data: unknown) => unknown;
      const result = await handler(req.data);
      if (result instanceof Transfer) {
        post({ requestId: req.messageId, ok: true, data: result.data }, result.buffers);
        return;
      }
      reply = { requestId: req.messageId, ok: true, data: result };
    } catch (e) {
      reply = { requestId: req.messageId, ok: false, error: serializeError(e) };
    }
    post(reply);
  });
  return host;
}
