/**
 * The page attached to the Node host's engine (`npm run broker`) instead of its own worker. The
 * broker's server marks the pages it serves with `<meta name="glassbox-host" content="<path>">`;
 * the static site (and `npm start`) has no such tag and starts the worker as always. Over the
 * WebSocket at that path go the same requests, replies and notices as to the worker
 * (worker/protocol.ts), framed by link/hostFrames.ts, plus the link's word on this page's role.
 */
import type { EngineEndpoint } from '../../worker/client';
import type { WorkerMessage, WorkerRequest } from '../../worker/protocol';
import { decodeFrame, encodeFrame, type LinkMessage, type PageRole } from '../../link/hostFrames';

/** The ws:// address of the Node host that served this page, or null when the page runs its own worker. */
export function attachedHostUrl(): string | null {
  if (typeof document === 'undefined') return null;
  const path = document.querySelector('meta[name="glassbox-host"]')?.getAttribute('content');
  if (!path) return null;
  const url = new URL(path, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * The Node host as the EngineClient's endpoint. Requests sent before the socket opens wait for
 * it; a closed socket is a failure (the broker process stopped), as a dead worker is.
 */
export function webSocketEndpoint(url: string, onRole: (role: PageRole) => void): EngineEndpoint {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const waiting: WorkerRequest[] = [];
  let failed: ((message: string) => void) | null = null;
  let closedByUs = false;
  const sendNow = (request: WorkerRequest) => socket.send(encodeFrame(request));
  socket.addEventListener('open', () => {
    for (const r of waiting.splice(0)) sendNow(r);
  });
  socket.addEventListener('close', (ev) => {
    if (!closedByUs) failed?.(`the Node host closed the connection${ev.reason ? ` (${ev.reason})` : ''}`);
  });
  return {
    postMessage: (message) => {
      if (socket.readyState === WebSocket.OPEN) sendNow(message);
      else waiting.push(message);
    },
    listen: (handler) => {
      socket.addEventListener('message', (ev: MessageEvent<string | ArrayBuffer>) => {
        const data = typeof ev.data === 'string' ? ev.data : new Uint8Array(ev.data);
        const message = decodeFrame(data) as LinkMessage<WorkerMessage>;
        if ('role' in message) onRole(message.role);
        else handler(message.host);
      });
    },
    onFailure: (handler) => {
      failed = handler;
    },
    terminate: () => {
      closedByUs = true;
      socket.close();
    },
  };
}
