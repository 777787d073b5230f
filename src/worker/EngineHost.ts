/// <reference lib="webworker" />
/**
 * The worker's half of the app: owns the engine and its Store, and answers the page's commands.
 * It holds no Kafka logic of its own: it forwards commands to the engine and turns engine state
 * into the plain views of protocol.ts.
 */
import type { ClusterView, Commands, FrameArgs, FrameResult, OpenArgs, OpenResult } from './protocol';

type Handlers = { [K in keyof Commands]: (data: Commands[K][0]) => Commands[K][1] | Promise<Commands[K][1]> };

export class EngineHost {
  private version = 0;
  private nowMs = 1_700_000_000_000;
  private lastSentVersion = -1;

  readonly handlers: Handlers = {
    open: (args) => this.open(args),
    frame: (args) => this.frame(args),
    snapshot: () => this.view(),
  };

  private async open(_args: OpenArgs): Promise<OpenResult> {
    this.version++;
    return { storage: { kind: 'memory', error: null }, created: true, view: this.view() };
  }

  private frame(args: FrameArgs): FrameResult {
    if (args.advanceMs > 0) this.nowMs += args.advanceMs;
    const changed = this.version !== this.lastSentVersion;
    this.lastSentVersion = this.version;
    return { nowMs: this.nowMs, view: changed ? this.view() : null };
  }

  private view(): ClusterView {
    return { version: this.version, nowMs: this.nowMs, partitions: [] };
  }
}
