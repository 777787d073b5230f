/// <reference lib="webworker" />
/**
 * The worker's entry point: one EngineHost serves the page, on the browser's clock and timers.
 * Everything else lives in serve.ts.
 */
import { realHostClock } from './HostClock';
import { serve } from './serve';
import type { WorkerRequest } from './protocol';

const scope = self as DedicatedWorkerGlobalScope;
serve(
  {
    postMessage: (message, transfer) => scope.postMessage(message, transfer),
    listen: (handler) => {
      scope.onmessage = (ev: MessageEvent<WorkerRequest>) => handler(ev.data);
    },
  },
  realHostClock,
);
