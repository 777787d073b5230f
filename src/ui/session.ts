/**
 * The page's link to the engine: starts the worker, opens the cluster and runs the frame loop.
 *
 * The frame loop is driven by requestAnimationFrame. Each frame, if the previous pull has been
 * answered, it asks the worker for one `frame`, passing how much engine time should pass (real
 * time since the last frame times the speed, or 0 when paused). So the page receives at most one
 * batch per animation frame, and a busy page slows the pulls down instead of queueing them.
 */
import { EngineClient, WorkerError } from '../worker/client';
import type { CommandArgs, CommandName, CommandResult } from '../worker/protocol';
import { type Speed, type UiStore, uiStore } from './store';

/** The longest real-time gap one frame may turn into engine time (a hidden tab resumes calmly). */
const MAX_FRAME_GAP_MS = 250;
/** How much engine time one press of "step" moves: one tick of the producer's sender loop. */
export const STEP_MS = 10;

export class Session {
  readonly client: EngineClient;
  private readonly store: UiStore;
  private inFlight = false;
  private lastFrameAt: number | null = null;
  private rafId = 0;
  private stopped = false;
  /** Engine time a "step" asked for, added to the next frame whether playing or paused. */
  private pendingStepMs = 0;

  constructor(store: UiStore = uiStore, client: EngineClient = new EngineClient()) {
    this.store = store;
    this.client = client;
    client.onFatal((e) => this.store.setState({ phase: 'failed', failure: e.message }));
  }

  async start(): Promise<void> {
    try {
      const opened = await this.client.call('open', { storage: 'indexeddb' });
      this.store.setState({
        phase: 'ready',
        storage: opened.storage,
        view: opened.view,
        nowMs: opened.view.nowMs,
      });
      this.loop();
    } catch (e) {
      this.store.setState({ phase: 'failed', failure: e instanceof Error ? e.message : String(e) });
    }
  }

  /** A command from a view. Errors come back as WorkerError with Kafka's error name in `code`. */
  call<K extends CommandName>(type: K, data: CommandArgs<K>): Promise<CommandResult<K>> {
    return this.client.call(type, data);
  }

  togglePlay(): void {
    this.store.setState((s) => ({ playing: !s.playing }));
  }

  setSpeed(speed: Speed): void {
    this.store.setState({ speed });
  }

  /** Pauses and advances the engine clock by one step. */
  step(): void {
    this.store.setState({ playing: false });
    this.pendingStepMs += STEP_MS;
  }

  stop(): void {
    this.stopped = true;
    cancelAnimationFrame(this.rafId);
  }

  private loop(): void {
    if (this.stopped) return;
    this.rafId = requestAnimationFrame((t) => {
      this.onFrame(t);
      this.loop();
    });
  }

  private onFrame(t: number): void {
    const gap = this.lastFrameAt === null ? 0 : Math.min(MAX_FRAME_GAP_MS, t - this.lastFrameAt);
    if (this.inFlight) return;
    this.lastFrameAt = t;
    const { playing, speed } = this.store.getState();
    const advanceMs = (playing ? gap * speed : 0) + this.pendingStepMs;
    this.pendingStepMs = 0;
    this.inFlight = true;
    this.client
      .call('frame', { advanceMs })
      .then((r) => {
        if (r.view) this.store.setState({ view: r.view, nowMs: r.nowMs });
        else if (r.nowMs !== this.store.getState().nowMs) this.store.setState({ nowMs: r.nowMs });
      })
      .catch((e: unknown) => {
        if (e instanceof WorkerError) console.warn(`frame failed: ${e.message}`);
      })
      .finally(() => {
        this.inFlight = false;
      });
  }
}
