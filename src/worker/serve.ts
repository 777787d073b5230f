/// <reference lib="webworker" />
/**
 * Dispatches the page's requests to the EngineHost and sends back exactly one reply per request.
 * Errors are serialized as {name, code, message, details}; results wrapped in Transfer move their
 * buffers instead of copying them.
 */
import { EngineHost } from './EngineHost';
import type { CommandName, WorkerMessage, WorkerReply, WorkerRequest } from './protocol';
import { serializeError } from '../engine';
import { Transfer } from './transfer';

export function serve(scope: DedicatedWorkerGlobalScope): void {
  const post = (msg: WorkerMessage, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);
  const host = new EngineHost((notice) => post(notice));
  scope.onmessage = async (ev: MessageEvent<WorkerRequest>) => {
    const req = ev.data;
    let reply: WorkerReply;
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
  };
}
