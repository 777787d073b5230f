import { KafkaError } from '../errors';
import type { Scheduler } from './Scheduler';

/**
 * The coordination store: a small ZooKeeper, the way Kafka (before KRaft) keeps cluster
 * metadata in it.
 *
 * - A tree of znodes addressed by absolute paths (`/brokers/ids/1`). Each holds a JSON value
 *   and a Stat: `version` counts data changes, `cversion` child changes, `ephemeralOwner` is the
 *   session that owns an ephemeral node (0 for a persistent one). Zxids order all changes.
 * - Sessions: a client (a broker) opens a session with a timeout
 *   (`zookeeper.session.timeout.ms`) and keeps it alive with heartbeats. A session not heard
 *   from within its timeout expires, and every ephemeral node it owns is deleted — this is how
 *   the controller learns that a broker died (its `/brokers/ids/<id>` disappears) and how a dead
 *   controller's `/controller` is freed for the next one.
 * - Watches fire once: `getData`/`exists` set a data watch (created, changed, deleted),
 *   `getChildren` a child watch. Notifications are delivered after the change, on the
 *   scheduler, never in the middle of the write that caused them.
 * - Writes may be conditional on the version (`BAD_VERSION` otherwise), which is how Kafka
 *   fences a stale writer of a partition's state (the zkVersion check).
 *
 * Errors are ZooKeeper's: NODE_EXISTS, NO_NODE, BAD_VERSION, NOT_EMPTY. A failed call changes
 * nothing.
 */

export type ZnodeData = unknown;

export interface Stat {
  czxid: number;
  mzxid: number;
  ctime: number;
  mtime: number;
  version: number;
  cversion: number;
  /** Session id owning this ephemeral node; 0 for a persistent node. */
  ephemeralOwner: number;
  numChildren: number;
}

export type WatchEventType = 'NodeCreated' | 'NodeDeleted' | 'NodeDataChanged' | 'NodeChildrenChanged';

export interface WatchedEvent {
  type: WatchEventType;
  path: string;
}

export type Watcher = (event: WatchedEvent) => void;

export interface Session {
  id: number;
  /** Who holds it, e.g. `broker-1`. */
  owner: string;
  timeoutMs: number;
  lastHeartbeatMs: number;
  state: 'connected' | 'expired' | 'closed';
}

export type CoordinationEvent =
  | {
      type: 'znodeCreated';
      path: string;
      data: ZnodeData;
      ephemeralOwner: number;
      owner: string | null;
      zxid: number;
      atMs: number;
    }
  | {
      type: 'znodeDataChanged';
      path: string;
      oldData: ZnodeData;
      data: ZnodeData;
      version: number;
      zxid: number;
      owner: string | null;
      atMs: number;
    }
  | {
      type: 'znodeDeleted';
      path: string;
      oldData: ZnodeData;
      reason: 'deleted' | 'sessionExpired' | 'sessionClosed';
      zxid: number;
      owner: string | null;
      atMs: number;
    }
  | { type: 'sessionCreated'; sessionId: number; owner: string; timeoutMs: number; atMs: number }
  | { type: 'sessionExpired'; sessionId: number; owner: string; lastHeartbeatMs: number; atMs: number }
  | { type: 'sessionClosed'; sessionId: number; owner: string; atMs: number }
  | { type: 'watchFired'; path: string; event: WatchEventType; watcher: string; atMs: number };

interface Znode {
  data: ZnodeData;
  stat: Stat;
  children: Set<string>;
}

interface WatchRegistration {
  sessionId: number;
  watcher: Watcher;
}

/** A plain copy of the tree, for snapshots and persistence. */
export interface ZnodeSnapshot {
  path: string;
  data: ZnodeData;
  version: number;
  cversion: number;
  ephemeralOwner: number;
  owner: string | null;
  ctime: number;
  mtime: number;
  /** The zxids of the node's creation and last change (absent in snapshots taken before they were kept). */
  czxid?: number;
  mzxid?: number;
}

/**
 * Where persistent znodes go when they change (ZnodeFiles: one file per znode): the node as it is
 * now, or null once it is deleted. Ephemeral nodes are never handed over.
 */
export type ZnodePersister = (path: string, node: ZnodeSnapshot | null) => void;

export class CoordinationStore {
  private readonly nodes = new Map<string, Znode>();
  private readonly sessions = new Map<number, Session>();
  private readonly dataWatches = new Map<string, WatchRegistration[]>();
  private readonly childWatches = new Map<string, WatchRegistration[]>();
  private zxid = 0;

  /** The last transaction id handed out (ZooKeeper's lastProcessedZxid). */
  get lastZxid(): number {
    return this.zxid;
  }
  private nextSessionId = 1;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly emit: (event: CoordinationEvent) => void,
    private readonly persist: ZnodePersister | null = null,
  ) {
    this.nodes.set('/', { data: null, stat: this.newStat(0), children: new Set() });
  }

  // ------------------------------------------------------------------ sessions

  createSession(owner: string, timeoutMs: number): number {
    const id = this.nextSessionId++;
    const now = this.scheduler.now();
    this.sessions.set(id, { id, owner, timeoutMs, lastHeartbeatMs: now, state: 'connected' });
    this.emit({ type: 'sessionCreated', sessionId: id, owner, timeoutMs, atMs: now });
    return id;
  }

  session(id: number): Session | undefined {
    return this.sessions.get(id);
  }

  isSessionLive(id: number): boolean {
    return this.sessions.get(id)?.state === 'connected';
  }

  /** A heartbeat from the client; false if the session is already gone. */
  heartbeat(id: number): boolean {
    const s = this.sessions.get(id);
    if (s?.state !== 'connected') return false;
    s.lastHeartbeatMs = this.scheduler.now();
    return true;
  }

  /** Expires every session not heard from within its timeout. Returns the expired ids. */
  expireSessions(): number[] {
    const now = this.scheduler.now();
    const expired: number[] = [];
    for (const s of this.sessions.values()) {
      if (s.state === 'connected' && now - s.lastHeartbeatMs >= s.timeoutMs) {
        s.state = 'expired';
        expired.push(s.id);
        this.emit({
          type: 'sessionExpired',
          sessionId: s.id,
          owner: s.owner,
          lastHeartbeatMs: s.lastHeartbeatMs,
          atMs: now,
        });
        this.removeSessionState(s.id, 'sessionExpired');
        this.sessions.delete(s.id); // a dead session is gone for good (ids are never reused)
      }
    }
    return expired;
  }

  /** A clean close (controlled shutdown): ephemerals go at once, no timeout to wait for. */
  closeSession(id: number): void {
    const s = this.sessions.get(id);
    if (s?.state !== 'connected') return;
    s.state = 'closed';
    this.emit({ type: 'sessionClosed', sessionId: id, owner: s.owner, atMs: this.scheduler.now() });
    this.removeSessionState(id, 'sessionClosed');
    this.sessions.delete(id);
  }

  liveSessions(): Session[] {
    return [...this.sessions.values()].filter((s) => s.state === 'connected').map((s) => ({ ...s }));
  }

  private removeSessionState(id: number, reason: 'sessionExpired' | 'sessionClosed'): void {
    const ephemerals = [...this.nodes.entries()]
      .filter(([, n]) => n.stat.ephemeralOwner === id)
      .map(([p]) => p)
      .sort();
    for (const path of ephemerals) this.deleteNode(path, reason);
    for (const watches of [this.dataWatches, this.childWatches]) {
      for (const [path, regs] of watches) {
        const kept = regs.filter((r) => r.sessionId !== id);
        if (kept.length === 0) watches.delete(path);
        else watches.set(path, kept);
      }
    }
  }

  // ------------------------------------------------------------------ reads

  exists(path: string, watch?: { sessionId: number; watcher: Watcher }): Stat | null {
    checkPath(path);
    if (watch) this.addWatch(this.dataWatches, path, watch);
    const node = this.nodes.get(path);
    return node ? this.statOf(node) : null;
  }

  getData(path: string, watch?: { sessionId: number; watcher: Watcher }): { data: ZnodeData; stat: Stat } {
    const node = this.require(path);
    if (watch) this.addWatch(this.dataWatches, path, watch);
    return { data: clone(node.data), stat: this.statOf(node) };
  }

  /** The data, or null when there is no such node. */
  /** A znode's data without the copy tryGetData makes: for read-only gauges over many znodes. Never mutate it. */
  peekData(path: string): Readonly<ZnodeData> | null {
    return this.nodes.get(path)?.data ?? null;
  }

  tryGetData(path: string): ZnodeData | null {
    const node = this.nodes.get(path);
    return node ? clone(node.data) : null;
  }

  getChildren(path: string, watch?: { sessionId: number; watcher: Watcher }): string[] {
    const node = this.require(path);
    if (watch) this.addWatch(this.childWatches, path, watch);
    return [...node.children].sort(compareChildNames);
  }

  /**
   * How many watchers wait on `path`: data watches (exists/getData) and child watches
   * (getChildren). ZooKeeper's WatchManager counts them the same way for its `wchp` command.
   */
  watchCount(path: string): { data: number; child: number } {
    return { data: this.dataWatches.get(path)?.length ?? 0, child: this.childWatches.get(path)?.length ?? 0 };
  }

  // ------------------------------------------------------------------ writes

  /**
   * Creates a node; its parent must exist. With `ephemeralSessionId` the node belongs to that
   * session and disappears with it.
   */
  create(path: string, data: ZnodeData, options: { ephemeralSessionId?: number } = {}): void {
    checkPath(path);
    if (path === '/' || this.nodes.has(path))
      throw new KafkaError('NODE_EXISTS', `KeeperErrorCode = NodeExists for ${path}`, { path });
    const parentPath = parentOf(path);
    const parent = this.nodes.get(parentPath);
    if (!parent) throw new KafkaError('NO_NODE', `KeeperErrorCode = NoNode for ${parentPath}`, { path: parentPath });
    if (parent.stat.ephemeralOwner !== 0)
      throw new KafkaError('NO_NODE', `ephemeral ${parentPath} cannot have children`, { path: parentPath });
    const sessionId = options.ephemeralSessionId ?? 0;
    if (sessionId !== 0 && !this.isSessionLive(sessionId))
      throw new KafkaError('NO_NODE', `session ${sessionId} has expired`, { sessionId });
    const zxid = ++this.zxid;
    const node: Znode = { data: clone(data), stat: this.newStat(zxid), children: new Set() };
    node.stat.ephemeralOwner = sessionId;
    this.nodes.set(path, node);
    parent.children.add(childName(path));
    parent.stat.cversion++;
    parent.stat.numChildren = parent.children.size;
    if (sessionId === 0) this.persistNode(path);
    this.persistNode(parentPath);
    this.emit({
      type: 'znodeCreated',
      path,
      data: clone(data),
      ephemeralOwner: sessionId,
      owner: this.ownerOf(sessionId),
      zxid,
      atMs: this.scheduler.now(),
    });
    this.fire(this.dataWatches, path, 'NodeCreated');
    this.fire(this.childWatches, parentPath, 'NodeChildrenChanged');
  }

  /** Creates the node and any missing persistent parents (Kafka's createRecursive). */
  createRecursive(path: string, data: ZnodeData, options: { ephemeralSessionId?: number } = {}): void {
    checkPath(path);
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const p = `/${parts.slice(0, i).join('/')}`;
      if (!this.nodes.has(p)) this.create(p, null);
    }
    this.create(path, data, options);
  }

  /** Replaces the data; with expectedVersion >= 0 only if the node is still at that version. */
  setData(path: string, data: ZnodeData, expectedVersion = -1): Stat {
    const node = this.require(path);
    if (expectedVersion >= 0 && node.stat.version !== expectedVersion)
      throw new KafkaError('BAD_VERSION', `KeeperErrorCode = BadVersion for ${path}`, {
        path,
        expectedVersion,
        version: node.stat.version,
      });
    const oldData = node.data;
    const zxid = ++this.zxid;
    node.data = clone(data);
    node.stat.version++;
    node.stat.mzxid = zxid;
    node.stat.mtime = this.scheduler.now();
    this.persistNode(path);
    this.emit({
      type: 'znodeDataChanged',
      path,
      oldData,
      data: clone(data),
      version: node.stat.version,
      zxid,
      owner: this.ownerOf(node.stat.ephemeralOwner),
      atMs: this.scheduler.now(),
    });
    this.fire(this.dataWatches, path, 'NodeDataChanged');
    return this.statOf(node);
  }

  delete(path: string, expectedVersion = -1): void {
    const node = this.require(path);
    if (path === '/') throw new KafkaError('NOT_EMPTY', 'cannot delete the root', { path });
    if (expectedVersion >= 0 && node.stat.version !== expectedVersion)
      throw new KafkaError('BAD_VERSION', `KeeperErrorCode = BadVersion for ${path}`, { path, expectedVersion });
    if (node.children.size > 0) throw new KafkaError('NOT_EMPTY', `KeeperErrorCode = NotEmpty for ${path}`, { path });
    this.deleteNode(path, 'deleted');
  }

  /** Deletes a node and everything under it (children first). */
  deleteRecursive(path: string): void {
    const node = this.nodes.get(path);
    if (!node) return;
    for (const child of [...node.children].sort(compareChildNames)) this.deleteRecursive(`${path}/${child}`);
    this.deleteNode(path, 'deleted');
  }

  // ------------------------------------------------------------------ snapshots

  /** Every znode, depth-first in path order. */
  snapshot(): ZnodeSnapshot[] {
    return [...this.nodes.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, n]) => this.snapshotOf(path, n));
  }

  private snapshotOf(path: string, n: Znode): ZnodeSnapshot {
    return {
      path,
      data: clone(n.data),
      version: n.stat.version,
      cversion: n.stat.cversion,
      ephemeralOwner: n.stat.ephemeralOwner,
      owner: this.ownerOf(n.stat.ephemeralOwner),
      ctime: n.stat.ctime,
      mtime: n.stat.mtime,
      czxid: n.stat.czxid,
      mzxid: n.stat.mzxid,
    };
  }

  /** Hands a persistent node's new state to the persister (the root and ephemerals are not kept). */
  private persistNode(path: string): void {
    if (!this.persist || path === '/') return;
    const node = this.nodes.get(path);
    if (node && node.stat.ephemeralOwner === 0) this.persist(path, this.snapshotOf(path, node));
  }

  /**
   * Restores persistent nodes saved by snapshot() or read back from the Store (ZnodeFiles), as a
   * ZooKeeper server loads its snapshot: data and Stat (versions, zxids, times) come back, and the
   * zxid counter continues past the highest one seen. Ephemerals died with their sessions; a node
   * whose parent is missing is skipped. Nothing is written back: the nodes are already stored.
   */
  restore(nodes: ZnodeSnapshot[]): void {
    for (const n of [...nodes].sort((a, b) => a.path.split('/').length - b.path.split('/').length)) {
      if (n.ephemeralOwner !== 0 || n.path === '/' || this.nodes.has(n.path)) continue;
      const parent = this.nodes.get(parentOf(n.path));
      if (!parent) continue;
      const czxid = n.czxid ?? ++this.zxid;
      const mzxid = n.mzxid ?? czxid;
      this.zxid = Math.max(this.zxid, czxid, mzxid);
      const stat = this.newStat(czxid);
      stat.mzxid = mzxid;
      stat.version = n.version;
      stat.cversion = n.cversion;
      stat.ctime = n.ctime;
      stat.mtime = n.mtime;
      this.nodes.set(n.path, { data: clone(n.data), stat, children: new Set() });
      parent.children.add(childName(n.path));
      parent.stat.numChildren = parent.children.size;
    }
  }

  // ------------------------------------------------------------------ internals

  private deleteNode(path: string, reason: 'deleted' | 'sessionExpired' | 'sessionClosed'): void {
    const node = this.nodes.get(path);
    if (!node) return;
    const owner = this.ownerOf(node.stat.ephemeralOwner);
    this.nodes.delete(path);
    const parentPath = parentOf(path);
    const parent = this.nodes.get(parentPath);
    if (parent) {
      parent.children.delete(childName(path));
      parent.stat.cversion++;
      parent.stat.numChildren = parent.children.size;
    }
    if (node.stat.ephemeralOwner === 0) this.persist?.(path, null);
    this.persistNode(parentPath);
    const zxid = ++this.zxid;
    this.emit({ type: 'znodeDeleted', path, oldData: node.data, reason, zxid, owner, atMs: this.scheduler.now() });
    this.fire(this.dataWatches, path, 'NodeDeleted');
    this.fire(this.childWatches, path, 'NodeDeleted');
    this.fire(this.childWatches, parentPath, 'NodeChildrenChanged');
  }

  private require(path: string): Znode {
    checkPath(path);
    const node = this.nodes.get(path);
    if (!node) throw new KafkaError('NO_NODE', `KeeperErrorCode = NoNode for ${path}`, { path });
    return node;
  }

  private addWatch(
    watches: Map<string, WatchRegistration[]>,
    path: string,
    watch: { sessionId: number; watcher: Watcher },
  ): void {
    const regs = watches.get(path) ?? [];
    // ZooKeeper keeps one registration per (watcher, path): setting it twice fires once.
    if (!regs.some((r) => r.watcher === watch.watcher))
      regs.push({ sessionId: watch.sessionId, watcher: watch.watcher });
    watches.set(path, regs);
  }

  /** One-shot: the registrations are removed now and notified on the scheduler. */
  private fire(watches: Map<string, WatchRegistration[]>, path: string, type: WatchEventType): void {
    const regs = watches.get(path);
    if (!regs || regs.length === 0) return;
    watches.delete(path);
    for (const reg of regs) {
      this.scheduler.schedule(0, () => {
        if (!this.isSessionLive(reg.sessionId)) return;
        this.emit({
          type: 'watchFired',
          path,
          event: type,
          watcher: this.ownerOf(reg.sessionId) ?? '',
          atMs: this.scheduler.now(),
        });
        reg.watcher({ type, path });
      });
    }
  }

  private ownerOf(sessionId: number): string | null {
    return sessionId === 0 ? null : (this.sessions.get(sessionId)?.owner ?? null);
  }

  private newStat(zxid: number): Stat {
    const now = this.scheduler.now();
    return {
      czxid: zxid,
      mzxid: zxid,
      ctime: now,
      mtime: now,
      version: 0,
      cversion: 0,
      ephemeralOwner: 0,
      numChildren: 0,
    };
  }

  private statOf(node: Znode): Stat {
    return { ...node.stat };
  }
}

function checkPath(path: string): void {
  if (!path.startsWith('/') || (path.length > 1 && path.endsWith('/')) || path.includes('//'))
    throw new KafkaError('INVALID_REQUEST', `invalid znode path ${JSON.stringify(path)}`, { path });
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function childName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Numeric children (broker ids, partitions) in numeric order, others by name. */
function compareChildNames(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : Number.NaN;
  const nb = /^\d+$/.test(b) ? Number(b) : Number.NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Znode data is a value, not a shared object: callers can't mutate the tree behind its back. */
function clone<T>(v: T): T {
  return v === null || typeof v !== 'object' ? v : (JSON.parse(JSON.stringify(v)) as T);
}
