/**
 * The broker process serves the page too: the built site (`dist/`) over HTTP, and at
 * `/glassbox-host` a WebSocket that speaks the worker's request/reply/notice protocol
 * (worker/protocol.ts, framed by link/hostFrames.ts) to an EngineHost over the Node host's own
 * engine, the one real clients talk to. index.html is served with
 * `<meta name="glassbox-host" content="/glassbox-host">`, which tells the page to attach here
 * instead of starting a worker; the static site has no such tag.
 *
 * Only pages of this origin may attach (a WebSocket is not bound by the same-origin policy, so
 * any site open in the browser could otherwise drive the cluster): the Origin header must be
 * this server's own. It binds to 127.0.0.1 unless told otherwise.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_IMPORT_BYTES } from '../engine/apps/index';
import { realHostClock } from '../worker/HostClock';
import type { WorkerMessage, WorkerRequest } from '../worker/protocol';
import { serve } from '../worker/serve';
import { decodeFrame, encodeFrame, type LinkMessage, type PageRole } from '../link/hostFrames';
import type { NodeHost } from './NodeHost';
import { isRead, notOffered, PageSeats, watchingError } from './PageSeats';

/** Where the page attaches (the meta tag names it; the page builds the ws:// address from it). */
export const HOST_PATH = '/glassbox-host';
const HOST_META = `<meta name="glassbox-host" content="${HOST_PATH}" />`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface PageServerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** The built site (vite build's dist/). */
  dist: string;
}

export class PageServer {
  private readonly http: Server;
  private readonly sockets: WebSocketServer;
  private readonly seats = new PageSeats<WebSocket>((ws, role) => send(ws, { role }));
  private port = 0;

  constructor(
    private readonly node: NodeHost,
    private readonly options: PageServerOptions,
  ) {
    // An import's zip is the largest request a page sends.
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_IMPORT_BYTES + 1024 * 1024 });
    this.http = createServer((req, res) =>
      this.page(req, res).catch(() => {
        // A path that is not even URI-decodable, or a file that vanished while being read.
        if (!res.headersSent) res.writeHead(400);
        res.end();
      }),
    );
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  /** The address pages open (and the only Origin allowed to attach). */
  get origin(): string {
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return `http://${host}:${this.port}`;
  }

  start(): Promise<void> {
    return new Promise((done, fail) => {
      this.http.once('error', fail);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', fail);
        const address = this.http.address();
        this.port = typeof address === 'object' && address ? address.port : this.options.port;
        done();
      });
    });
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets.clients) ws.terminate();
    await new Promise<void>((done) => this.sockets.close(() => done()));
    await new Promise<void>((done) => this.http.close(() => done()));
  }

  /** Origins that name this server: its own, and localhost for a loopback bind. */
  private allowedOrigins(): Set<string> {
    const out = new Set([this.origin]);
    if (this.options.host === '127.0.0.1' || this.options.host === 'localhost') {
      out.add(`http://127.0.0.1:${this.port}`);
      out.add(`http://localhost:${this.port}`);
    }
    return out;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '').split('?')[0];
    const origin = req.headers.origin;
    if (path !== HOST_PATH || origin === undefined || !this.allowedOrigins().has(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    this.sockets.handleUpgrade(req, socket, head, (ws) => this.attach(ws));
  }

  /** One page: its own EngineHost over the Node host's engine, its own event queue, a seat. */
  private attach(ws: WebSocket): void {
    const events = this.node.watch();
    let handler: ((request: WorkerRequest) => void) | null = null;
    const host = serve(
      {
        postMessage: (message: WorkerMessage) => send(ws, { host: message }),
        listen: (h) => {
          handler = h;
        },
      },
      realHostClock,
      {
        apps: this.node.apps,
        store: this.node.store,
        writer: this.node.writer,
        clock: this.node.clock,
        takeEvents: events.take,
        durable: this.node.durable,
      },
    );
    ws.on('message', (data, isBinary) => {
      let request: WorkerRequest;
      try {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        const decoded = decodeFrame(isBinary ? new Uint8Array(bytes) : bytes.toString('utf8'));
        if (!isRequest(decoded)) throw new Error('not a request');
        request = decoded;
      } catch {
        ws.close(1007, 'not a glassbox host frame');
        return;
      }
      const refused = notOffered(request) ?? (isRead(request) || this.seats.controls(ws) ? null : watchingError());
      if (refused) {
        send(ws, { host: { requestId: request.messageId, ok: false, error: refused } });
        return;
      }
      handler?.(request);
    });
    ws.on('close', () => {
      host.close();
      events.stop();
      this.seats.leave(ws);
    });
    ws.on('error', () => ws.terminate());
    this.seats.join(ws);
  }

  private async page(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const root = resolve(this.options.dist);
    let path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    // Nothing outside dist/ is served, whatever the path says.
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (file === join(root, 'index.html')) {
      const html = await readFile(file, 'utf8').catch(() => null);
      if (html === null) {
        res.writeHead(503, { ...headers, 'Content-Type': TYPES['.txt'] });
        res.end('The page is not built: run `npm run build`, then start the broker again.\n');
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': TYPES['.html'] });
      res.end(html.replace('<head>', `<head>\n    ${HOST_META}`));
      return;
    }
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res.writeHead(404, { ...headers, 'Content-Type': TYPES['.txt'] }).end('not found\n');
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }
}

/** A frame's message has a request's shape (what the command table accepts is serve's to check). */
function isRequest(m: unknown): m is WorkerRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return typeof r.type === 'string' && typeof r.messageId === 'number' && 'data' in r;
}

function send(ws: WebSocket, message: LinkMessage<WorkerMessage>): void {
  if (ws.readyState !== ws.OPEN) return;
  const frame = encodeFrame(message);
  ws.send(frame, { binary: typeof frame !== 'string' });
}

export type { PageRole };
