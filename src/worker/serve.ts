/// <reference lib="webworker" />
/**
 * Dispatches the page's requests to the EngineHost and sends back exactly one reply per request.
 * Errors are serialized as {name, code, message}; results wrapped in Transfer move their buffers.
 */
import { EngineHost } from './EngineHost';
import type { CommandName, SerializedError, WorkerReply, WorkerRequest } from './protocol';

export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    const details = (e as { details?: unknown }).details;
    return {
      name: e.name,
      code: typeof code === 'string' ? code : null,
      message: e.message,
      ...(details && typeof details === 'object' ? { details: details as Record<string, unknown> } : {}),
    };
  }
  return { name: 'Error', code: null, message: String(e) };
}

/**
 * A result whose byte arrays should move to the page instead of being copied. Handlers wrap only
 * fresh copies in it: a transferred buffer is detached here, so engine-owned bytes must never be.
 */
export class Transfer<T> {
  constructor(
    readonly data: T,
    readonly buffers: ArrayBuffer[],
  ) {}
}

export function serve(scope: DedicatedWorkerGlobalScope): void {
  const host = new EngineHost();
  scope.onmessage = async (ev: MessageEvent<WorkerRequest>) => {
    const req = ev.data;
    let reply: WorkerReply;
    try {
      const handler = host.handlers[req.type as CommandName] as (data: unknown) => unknown;
      const result = await handler(req.data);
      if (result instanceof Transfer) {
        scope.postMessage(
          { requestId: req.messageId, ok: true, data: result.data } satisfies WorkerReply,
          result.buffers,
        );
        return;
      }
      reply = { requestId: req.messageId, ok: true, data: result };
    } catch (e) {
      reply = { requestId: req.messageId, ok: false, error: serializeError(e) };
    }
    scope.postMessage(reply);
  };
}
