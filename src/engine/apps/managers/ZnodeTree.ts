/**
 * The coordination store's tree as the page draws it, rebuilt only when a znode changed or a
 * watch fired, or every second (watch registrations have no events of their own).
 */
import type { Engine } from '../../index';
import type { ZnodeView } from '../types';
import { SCENARIO_EPOCH_MS, toScenarioMs } from '../scenarioTime';

/** Znode data shown, in characters. */
const MAX_ZNODE_DATA = 160;
const REBUILD_EVERY_MS = 1000;

/** What the views read of the tree. */
export interface ZnodeTreeRead {
  list(): ZnodeView[];
}

export class ZnodeTree implements ZnodeTreeRead {
  /** Bumps on every znode change. */
  private changes = 0;
  private cache: { changes: number; atMs: number; list: ZnodeView[] } | null = null;
  private readonly off: () => void;

  constructor(private readonly engine: Engine) {
    this.off = engine.subscribe(
      () => this.changes++,
      ['znodeCreated', 'znodeDataChanged', 'znodeDeleted', 'watchFired'],
    );
  }

  dispose(): void {
    this.off();
  }

  list(): ZnodeView[] {
    const now = toScenarioMs(this.engine.now());
    const cache = this.cache;
    if (cache && cache.changes === this.changes && now - cache.atMs < REBUILD_EVERY_MS) return cache.list;
    const list = this.engine.znodes(SCENARIO_EPOCH_MS, MAX_ZNODE_DATA);
    this.cache = { changes: this.changes, atMs: now, list };
    return list;
  }
}
