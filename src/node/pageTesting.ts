/**
 * A page as a test sees it: a WebSocket client that speaks the page's protocol to a PageServer
 * (link/hostFrames frames, worker/protocol requests), with the Origin a browser would send.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { decodeFrame, encodeFrame, type LinkMessage, type PageRole } from '../link/hostFrames';
import { NodeHost, type NodeHostOptions } from './NodeHost';
import { PageServer } from './PageServer';
import type { CommandArgs, CommandName, CommandResult, SerializedError, WorkerMessage } from '../worker/protocol';

export class PageError extends Error {
  constructor(readonly error: SerializedError) {
    super(error.message);
  }
}

export class TestPage {
  role: PageRole | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.from(data as Buffer);
      const m = decodeFrame(isBinary ? new Uint8Array(bytes) : bytes.toString('utf8')) as LinkMessage<WorkerMessage>;
      if ('role' in m) {
        this.role = m.role;
        return;
      }
      const msg = m.host;
      if ('notice' in msg) return;
      const p = this.pending.get(msg.requestId);
      this.pending.delete(msg.requestId);
      if (msg.ok) p?.resolve(msg.data);
      else p?.reject(new PageError(msg.error));
    });
  }

  /** Opens a page's socket; rejects with the HTTP status when the server refuses the upgrade. */
  static open(url: string, origin: string | undefined): Promise<TestPage> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, origin === undefined ? {} : { origin });
      ws.once('open', () => resolve(new TestPage(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  call<K extends CommandName>(type: K, data: CommandArgs<K>): Promise<CommandResult<K>> {
    const messageId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(messageId, { resolve: resolve as (v: unknown) => void, reject });
      const frame = encodeFrame({ messageId, type, data });
      this.ws.send(frame, { binary: typeof frame !== 'string' });
    });
  }

  /** Sends a text frame as written; resolves with the close code the host answers it with. */
  sendRaw(text: string): Promise<number> {
    return new Promise((resolve) => {
      this.ws.once('close', (code) => resolve(code));
      this.ws.send(text);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** A frame as the page pulls one: every view, whatever it holds. */
export function fullFrame(): CommandArgs<'frame'> {
  return {
    advanceMs: 16,
    windows: [],
    run: 0,
    have: { cluster: -1, board: -1, eventLog: -1 },
  };
}

/**
 * A started Node host and a PageServer in front of it, serving a dist/ with an empty index.html
 * (the tests attach a TestPage, not a browser).
 */
export async function servedHost(options: NodeHostOptions): Promise<{ host: NodeHost; server: PageServer }> {
  const dist = await mkdtemp(join(tmpdir(), 'glassbox-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  const host = new NodeHost(options);
  await host.start();
  const server = new PageServer(host, { host: '127.0.0.1', port: 0, dist });
  await server.start();
  return { host, server };
}
