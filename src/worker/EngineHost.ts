/// <reference lib="webworker" />
/**
 * The worker's half of the app. It runs ONE engine (src/engine/engine.ts), wrapped by the
 * control plane (ClusterPlane: brokers, controller, groups, scenarios) and persisted to the
 * IdbStore, and serves both halves of the page from it:
 *  - the data path (producer panel, partition logs, lookup, inspector, export/import) reads the
 *    engine's leader replicas (DataPath) and sends through an engine KafkaProducer (PanelProducer);
 *  - the control plane's views and actions (planeAction, planeScenario, ...).
 * A reload is a cluster restart: the engine starts from the znodes, recovered replica logs and
 * checkpoints IndexedDB holds (readStoredCluster); restore.ts is only the scenario link. It holds no Kafka logic of its own. Long work runs in slices between
 * which the worker answers frames, so the page stays live and a job can be cancelled.
 */
import {
  ManualClock,
  type LostWithStore,
  KafkaError,
  type PartitionLog,
  readStoredCluster,
  recoveryView,
  type StoredCluster,
  SegmentNotLoadedError,
  StoreWriter,
  type Store,
  DataPath,
  serializeError,
  lookupView,
  recordWindow,
  segmentDump,
} from '../engine';
import { IdbStore } from '../storage/IdbStore';
import { MemoryStore } from '../storage/MemoryStore';
import { isClearable, openBestStore } from '../storage/openBestStore';
import { exportPartitionZip, importPartitionZip } from './archive';
import { addSeedsLookupExample } from './demo';
import { OwnershipLock } from './ownership';
import { PanelProducer } from './PanelProducer';
import { ClusterPlane, PLANE_TOPIC_DEFAULTS } from './plane/ClusterPlane';
import { PLANE_EPOCH_MS, type PresetName, type ScenarioSpec } from './plane/types';
import type {
  AccumulatorView,
  ClusterView,
  Commands,
  DiscardView,
  FrameArgs,
  FrameResult,
  JobView,
  LostPartitionView,
  OpenArgs,
  OpenResult,
  ProduceManyArgs,
  ProducerSettings,
  RecordWindow,
  RecoveryView,
  StorageStatus,
  UiEvent,
  WorkerNotice,
} from './protocol';
import { MAX_PRODUCE_MANY_RECORDS } from './protocol';
import { CLUSTER_META_PATH, type ClusterMeta, readClusterMeta, writeClusterMeta } from './restore';
import { Transfer } from './transfer';

type Handlers = {
  [K in keyof Commands]: (
    data: Commands[K][0],
  ) => Commands[K][1] | Transfer<Commands[K][1]> | Promise<Commands[K][1] | Transfer<Commands[K][1]>>;
};

/** Events kept between two frames; beyond this the oldest are dropped (the views read state, not events). */
const MAX_EVENTS_PER_FRAME = 2000;
/** One slice of a long job: the worker answers frames between slices. */
const JOB_SLICE_MS = 12;
/** Bulk produce without a rate: this many records per second of real time. */
const MAX_JOB_RATE = 50_000;
/** Engine time a bulk job lets pass per slice, so the sender drains while the job runs. */
const JOB_TICK_MS = 5;
/** Real milliseconds between two redraws of the partition logs. */
const VIEW_EVERY_MS = 100;
/** The same while a bulk job runs: the page then redraws the logs at most every 250 ms (session.ts). */
const BUSY_VIEW_EVERY_MS = 250;
/** A host read that keeps finding paged-out segments gives up after this many loads. */
const MAX_SEGMENT_LOADS_PER_READ = 64;
/** How often (engine ms) the cluster's metadata file is rewritten even when nothing structural changed. */
const META_EVERY_MS = 5000;

const DEFAULT_SEED = 1;
const DEFAULT_PRESET: PresetName = 'demo';

interface Job {
  view: JobView;
  cancelled: boolean;
}

interface Running {
  store: Store;
  writer: StoreWriter;
  clock: ManualClock;
  plane: ClusterPlane;
  data: DataPath;
  producer: PanelProducer;
  recovered: Map<string, PartitionLog>;
  /** Topics the preset creates (a scenario check does not count them as the user's). */
  presetTopics: ReadonlySet<string>;
  /** Records sent from the producer panel (one by one or as jobs): no replay brings them back. */
  userRecords: number;
}

const encoder = new TextEncoder();
function utf8(text: string | null): Uint8Array | null {
  return text === null ? null : encoder.encode(text);
}

export class EngineHost {
  private run: Running | null = null;
  private storage: StorageStatus = { kind: 'memory', error: null };
  private readonly lock = new OwnershipLock();
  /** The partition views' signature last sent; null until a view went out for this run. */
  private lastSignature: string | null = null;
  /** The scenario (as JSON) last replayed in memory without a failure, so it is not replayed twice to check it. */
  private replayed: string | null = null;
  private lastViewAt = -Infinity;
  private sentWindows = new Map<string, string>();
  private events: UiEvent[] = [];
  private droppedEvents = 0;
  private readonly jobs = new Map<number, Job>();
  private changedJobs = new Set<number>();
  private nextJobId = 1;
  private settings: ProducerSettings = { acks: 'all', 'linger.ms': 5, 'batch.size': 16384, partitioner: 'sticky' };
  private stopped = false;
  private lastMeta = '';
  private lastMetaAt = 0;
  private recovery: RecoveryView[] = [];
  /** Store failures already accounted for (by a re-persist): only later ones count. */
  private failuresSeen = { writer: 0, engine: 0 };
  /** The record whose journey the producer panel shows: its events always reach the page. */
  private journey: { producer: string; sendId: number; batchId: number | null } | null = null;
  /** True while the page shows the accumulator (then every producer event is sent). */
  private wantAllEvents = false;
  /** A read of paged-out segments from the Store is under way (one at a time). */
  private loadingSegments: Promise<unknown> | null = null;

  constructor(private readonly notify: (n: WorkerNotice) => void) {}

  readonly handlers: Handlers = {
    open: (args) => this.open(args),
    frame: (args) => this.frame(args),
    snapshot: () => this.view(),
    lookup: (args) =>
      this.paged(() => {
        const r = this.running();
        const log = r.data.log(args.topic, args.partition);
        const target =
          args.timestamp !== undefined
            ? { kind: 'timestamp' as const, value: args.timestamp }
            : { kind: 'offset' as const, value: args.offset ?? 0 };
        // The page checks its form (ui/forms/validate.ts); the worker refuses the same, typed.
        if (!Number.isSafeInteger(target.value) || target.value < 0) {
          throw new KafkaError(
            'INVALID_REQUEST',
            `A lookup ${target.kind} is a whole number from 0, got ${target.value}`,
            {
              [target.kind]: target.value,
            },
          );
        }
        return lookupView(args.topic, args.partition, log, target);
      }),
    seedsLookupPreset: () => {
      const r = this.running();
      const where = addSeedsLookupExample(r.data, r.clock, r.writer);
      // Let the controller create the topic and the broker open the example's log.
      r.plane.tick(200);
      this.saveMeta(true);
      return where;
    },
    produce: (args) => {
      const r = this.running();
      // A topic the cluster does not have is refused now: the producer would otherwise wait
      // max.block.ms for its metadata, which a paused clock never lets pass.
      this.requireTopic(r, args.topic);
      const headers = args.headers.map((h) => ({ key: h.key, value: utf8(h.value) }));
      // The journey is set before send(): the partitioner's events fire inside it.
      this.journey = { producer: r.producer.clientId, sendId: r.producer.nextSendId, batchId: null };
      const sent = r.producer.send(args.topic, utf8(args.key), utf8(args.value), headers);
      this.journey.sendId = sent.sendId;
      r.userRecords++;
      return { sendId: sent.sendId, producer: sent.clientId, choice: sent.choice };
    },
    produceMany: (args) => this.startProduceJob(args),
    cancelJob: ({ jobId }) => {
      const job = this.jobs.get(jobId);
      if (job) job.cancelled = true;
      return null;
    },
    setProducerSettings: (patch) => {
      const next = { ...this.settings, ...patch };
      if (!['all', '1', '0'].includes(next.acks))
        throw new KafkaError('INVALID_CONFIG', `Invalid value ${next.acks} for configuration acks`);
      if (JSON.stringify(next) !== JSON.stringify(this.settings)) this.run?.producer.configure(next);
      this.settings = next;
      return this.settings;
    },
    runUntilIdle: () => {
      const r = this.running();
      // Time passes until the producer's accumulator is empty (bounded: a stuck request times out).
      let advanced = 0;
      while (advanced < 60_000 && r.producer.accumulator().length > 0) {
        r.plane.tick(10);
        advanced += 10;
      }
      r.plane.tick(100);
      return { advancedMs: advanced + 100 };
    },
    reset: () => this.reset(),
    repersist: () => this.repersist(),
    segment: (args) =>
      this.paged(() => {
        const r = this.running();
        const log = r.data.log(args.topic, args.partition);
        const dump = segmentDump(args.topic, args.partition, log, args.baseOffset, this.topicSaved(r, args.topic));
        return new Transfer(
          dump,
          dump.batches.map((b) => b.bytes.buffer as ArrayBuffer),
        );
      }),
    exportPartition: async ({ topic, partition }) => {
      // Every segment goes into the zip: read the paged-out ones back at once.
      const r = this.running();
      await r.plane.engine.loadSegments(r.data.log(topic, partition).logSegments.filter((s) => !s.resident));
      return this.paged(() => {
        const r = this.running();
        const out = exportPartitionZip(r.data.log(topic, partition), `${topic}-${partition}`);
        return new Transfer(out, [out.zip.buffer as ArrayBuffer]);
      });
    },
    importPartition: async ({ zip, fileName }) => {
      const r = this.running();
      const result = await importPartitionZip(r.data, r.store, r.clock, r.writer, zip, fileName);
      r.plane.tick(200);
      this.saveMeta(true);
      return result;
    },
    planeAction: (action) => {
      const plane = this.requirePlane();
      plane.apply(action);
      this.saveMeta(false);
      return plane.view();
    },
    planeScenario: async (spec) => {
      const r = this.running();
      if (spec === null || sameScenario(spec, r.plane)) return r.plane.view();
      // Another run: replayed in memory first (a failing action throws here, nothing touched),
      // then started over on the wiped store.
      this.replayInMemory(spec);
      await this.replace(spec);
      return this.running().plane.view();
    },
    planeScenarioCheck: (spec) => {
      const r = this.running();
      if (sameScenario(spec, r.plane)) return this.discardView(r, false);
      this.replayInMemory(spec);
      return this.discardView(r, true);
    },
    planePlacement: (args) => this.requirePlane().previewPlacement(args),
    planeAdvance: ({ ms }) => {
      const plane = this.requirePlane();
      if (!Number.isInteger(ms) || ms < 0 || ms > 600_000)
        throw new KafkaError('INVALID_REQUEST', `can only fast-forward 0 to 600,000 ms, not ${ms}`);
      plane.tick(ms);
      return plane.view();
    },
  };

  /**
   * Resolves when every write issued so far has reached the store: a Store applies operations in
   * call order, so a read issued after them is answered after them (tests, a clean shutdown).
   */
  async settled(): Promise<void> {
    const r = this.run;
    if (!r) return;
    await r.writer.settled();
    await r.store.list(CLUSTER_META_PATH);
  }

  private requireTopic(r: Running, topic: string): void {
    if (!r.data.topics().includes(topic))
      throw new KafkaError('UNKNOWN_TOPIC_OR_PARTITION', `Topic ${topic} does not exist in this cluster.`, { topic });
  }

  /**
   * Replays a scenario on a scratch MemoryStore and throws its failing action's KafkaError: a
   * scenario must replay whole before it may replace the running cluster. The replay is
   * deterministic, so the run started afterwards on the real store is the same one.
   */
  private replayInMemory(spec: ScenarioSpec): void {
    // A preset alone runs no actions, so nothing in it can be refused.
    if (spec.actions.length === 0) return;
    const key = JSON.stringify(spec);
    if (this.replayed === key) return;
    ClusterPlane.fromScenario(spec);
    this.replayed = key;
  }

  /** What replacing the running cluster would throw away. */
  private discardView(r: Running, replaces: boolean): DiscardView {
    const topics = r.data.topics().map((name) => {
      const n = r.data.partitionCount(name);
      let records = 0;
      for (let p = 0; p < n; p++) {
        const log = r.data.replica(name, p)?.log;
        if (log) records += log.logEndOffset - log.logStartOffset;
      }
      return { name, partitions: n, records };
    });
    const added = topics.some((t) => !r.presetTopics.has(t.name));
    const onlyPreset = r.plane.actions.length === 0 && !added && r.userRecords === 0;
    return { replaces, onlyPreset, topics, actions: r.plane.actions.length };
  }

  /**
   * Runs a read of the engine (pure and synchronous) that may reach segments paged out of
   * memory: each SegmentNotLoadedError is answered by reading that segment back from the Store,
   * then the read runs again. Reads change nothing, so running one again is safe.
   */
  private async paged<T>(read: () => T): Promise<T> {
    for (let loads = 0; ; loads++) {
      try {
        return read();
      } catch (e) {
        if (!(e instanceof SegmentNotLoadedError) || loads >= MAX_SEGMENT_LOADS_PER_READ) throw e;
        await this.running().plane.engine.loadSegments([e.segment]);
      }
    }
  }

  /** Starts reading the segments the engine's fetches wait for, unless a read is under way. */
  private pumpSegmentLoads(r: Running): void {
    if (this.loadingSegments !== null) return;
    const engine = r.plane.engine;
    if (engine.segmentCache.pendingLoads().length === 0) return;
    this.loadingSegments = engine
      .loadSegments()
      .catch((e: unknown) => this.notify({ notice: 'storage-failed', error: serializeError(e) }))
      .finally(() => {
        this.loadingSegments = null;
      });
  }

  private requirePlane(): ClusterPlane {
    return this.running().plane;
  }

  private running(): Running {
    if (this.stopped)
      throw new KafkaError('KAFKA_STORAGE_ERROR', 'Another tab owns this cluster now; this tab has stopped.');
    if (!this.run) throw new KafkaError('BROKER_NOT_AVAILABLE', 'The cluster is not open yet.');
    return this.run;
  }

  private async open(args: OpenArgs): Promise<OpenResult> {
    let exclusive = true;
    if (args.storage === 'indexeddb') {
      const own = await this.lock.acquire(args.takeOver, () => this.onOwnershipLost());
      if (own.status === 'held-elsewhere') return { status: 'locked' };
      exclusive = own.status === 'owner';
    }
    this.stopped = false;
    let store: Store;
    if (args.storage === 'memory') {
      store = new MemoryStore();
      this.storage = { kind: 'memory', error: null };
    } else {
      // The store tells us when it goes offline: fenced by a newer owner, or deleted elsewhere.
      const best = await openBestStore({ onFailure: (e) => this.onStoreOffline(e) });
      store = best.store;
      this.storage =
        best.kind === 'indexeddb'
          ? { kind: 'indexeddb', error: null }
          : { kind: 'memory', error: { name: best.error.name, code: best.error.code, message: best.reason } };
    }
    let meta: ClusterMeta | null = null;
    try {
      meta = await readClusterMeta(store);
    } catch (e) {
      // Unreadable metadata: say so, and run a fresh demo in memory rather than overwrite the files.
      this.storage = { kind: 'memory', error: serializeError(e) };
      store = new MemoryStore();
    }
    const created = meta === null;
    this.recovery = [];
    if (meta) await this.restore(store, meta);
    else this.start(store, { seed: DEFAULT_SEED, preset: DEFAULT_PRESET, actions: [], untilMs: 0 }, true);
    this.saveMeta(true);
    return {
      status: 'opened',
      storage: this.storage,
      created,
      recovery: this.recovery,
      exclusive,
      view: this.view(),
    };
  }

  /**
   * Builds the plane on `store` (a scenario replay, the preset alone, or with `stored` a restart
   * from what the store kept), with the data path around it.
   */
  private start(
    store: Store,
    spec: ScenarioSpec,
    fresh: boolean,
    clock?: ManualClock,
    writer = new StoreWriter(store),
    stored?: StoredCluster,
  ): void {
    const c = clock ?? new ManualClock(PLANE_EPOCH_MS);
    const recovered = stored?.logs ?? new Map<string, PartitionLog>();
    // One writer for everything written to this store (segments, checkpoints, znodes, metadata):
    // one sequence, so a log's durable offset also covers the metadata written before it.
    const storage = {
      store,
      recoveredLogs: recovered,
      clock: c,
      writer,
      // Without znodes (a store saved before they were kept) only the logs can be reused.
      ...(stored && stored.znodes.length > 0 ? { restart: { stored, actions: spec.actions } } : {}),
    };
    const plane =
      fresh && spec.actions.length > 0
        ? ClusterPlane.fromScenario(spec, storage)
        : new ClusterPlane(spec.seed, spec.preset as PresetName, storage);
    const data = new DataPath(plane.engine, recovered);
    const producer = new PanelProducer(plane.cluster, this.settings, spec.seed, (e) => this.pushEvent(e));
    for (const t of data.topics()) producer.warmUp(t);
    this.run = {
      store,
      writer,
      clock: c,
      plane,
      data,
      producer,
      recovered,
      presetTopics: plane.presetTopics,
      userRecords: 0,
    };
    // A new cluster's first frame carries its partition views, even when it has none to show
    // (the page must drop the old cluster's partitions then).
    this.lastSignature = null;
    this.lastViewAt = -Infinity;
    this.sentWindows.clear();
    this.lastMeta = '';
    // Events and the record journey belong to the old cluster's producer.
    this.events = [];
    this.droppedEvents = 0;
    this.journey = null;
  }

  /**
   * A cluster restart from the store, as a ZooKeeper-mode cluster restarts: the persistent znodes
   * come back, every replica log is recovered (LogLoader) and hosted at its checkpointed high
   * watermark, the brokers register again and the controller they elect reads the znodes.
   * meta/cluster.json only links the run to its scenario (seed, preset, recorded actions, clock).
   */
  private async restore(store: Store, meta: ClusterMeta): Promise<void> {
    const clock = new ManualClock(Math.max(PLANE_EPOCH_MS, meta.nowMs));
    const writer = new StoreWriter(store);
    const stored = await readStoredCluster(store, { clock, writer, topicDefaults: PLANE_TOPIC_DEFAULTS });
    this.recovery = stored.reports.filter((r) => !r.dir.includes('/__')).map((r) => recoveryView(r.dir, r.report));
    const spec = { seed: meta.seed, preset: meta.preset as PresetName, actions: meta.actions, untilMs: 0 };
    if (stored.znodes.length > 0) {
      this.start(store, spec, false, clock, writer, stored);
    } else {
      // Saved before znodes were stored: only the preset can be rebuilt, on the recovered logs.
      this.start(store, { ...spec, actions: [] }, false, clock, writer, stored);
      this.running().plane.actions.push(...meta.actions);
    }
    const r = this.running();
    // Unknown for files written before the panel's records were counted: count them as some.
    r.userRecords = meta.userRecords ?? 1;
    r.plane.tick(300);
  }

  /**
   * Replaces the running cluster by a scenario's replay on the wiped store. The old cluster stops
   * first (no frame ticks it while its files are deleted, or it would write some back).
   */
  private async replace(spec: ScenarioSpec): Promise<void> {
    const r = this.running();
    for (const job of this.jobs.values()) job.cancelled = true;
    r.producer.close();
    this.run = null;
    try {
      await r.writer.settled();
      await wipe(r.store);
    } catch (e) {
      this.run = r;
      throw e;
    }
    // Another tab took the cluster over meanwhile: its files are no longer ours to write.
    if (this.stopped) return;
    this.recovery = [];
    this.start(r.store, spec, true);
    this.saveMeta(true);
  }

  /**
   * Stop writing at once: the other tab now owns the files. The store is fenced first, so even
   * writes the engine already queued are refused; the owner epoch in IndexedDB refuses whatever
   * was already handed to IndexedDB (IdbStore.ts).
   */
  private onOwnershipLost(): void {
    if (this.stopped) return;
    this.stopped = true;
    const r = this.run;
    if (r?.store instanceof IdbStore) r.store.fence('another tab took over this cluster; this tab saves nothing more');
    for (const job of this.jobs.values()) job.cancelled = true;
    this.run = null;
    r?.producer.close();
    this.notify({ notice: 'ownership-lost' });
  }

  /** The IdbStore went offline: a newer owner fenced it, it was deleted elsewhere, or a write failed. */
  private onStoreOffline(error: KafkaError): void {
    const reason = error.details.reason;
    if (reason === 'fenced') {
      // Another tab opened the store after us (even without Web Locks): it owns the files now.
      this.onOwnershipLost();
    } else if (reason === 'deleted') {
      this.storage = { kind: 'memory', error: serializeError(error) };
      this.notify({ notice: 'storage-lost', error: this.storage.error as NonNullable<StorageStatus['error']> });
    }
    // 'failed' reaches the page through the writer's failures (checkStorage).
  }

  private async reset(): Promise<OpenResult> {
    await this.replace({ seed: DEFAULT_SEED, preset: DEFAULT_PRESET, actions: [], untilMs: 0 });
    return { status: 'opened', storage: this.storage, created: true, recovery: [], exclusive: true, view: this.view() };
  }

  /**
   * The database was deleted under the page: create it again and write every file from memory.
   * What the writers failed to save while the store was gone is superseded by it. Memory holds
   * every segment but those the segment cache paged out, which were only in the database: each
   * log starts past them (Engine.rewriteStoreFiles), and the answer says, per partition, which
   * offsets the leader lost that way.
   */
  private async repersist(): Promise<StorageStatus> {
    const r = this.running();
    if (!(r.store instanceof IdbStore)) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', 'this cluster runs in memory only: there is no IndexedDB to save to');
    }
    await r.store.reopen();
    this.failuresSeen = { writer: r.writer.failures.length, engine: r.plane.engine.storeFailures.length };
    const lost = lostPartitions(
      r.plane.engine.rewriteStoreFiles(),
      (t, p) => r.plane.cluster.partitionState(t, p)?.leader,
    );
    this.lastMeta = '';
    this.saveMeta(true);
    // The store applies operations in call order: once a read queued behind them answers, all of
    // them (from every writer: the engine's, the recovered logs', the metadata's) have settled.
    await r.store.list('meta/');
    if (r.store.offline) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', `saving again failed: the store went offline (${r.store.offline})`);
    }
    this.storage = { kind: 'indexeddb', error: null };
    return lost.length > 0 ? { ...this.storage, lostWithStore: lost } : this.storage;
  }

  /**
   * Writes meta/cluster.json, the run's link to its scenario, when it changed (or now and then for
   * the clock). The cluster itself is in the znodes and logs.
   */
  private saveMeta(force: boolean): void {
    const r = this.run;
    if (!r || this.stopped) return;
    const meta: ClusterMeta = {
      version: 2,
      seed: r.plane.seed,
      preset: r.plane.preset,
      actions: [...r.plane.actions],
      nowMs: r.clock.now(),
      userRecords: r.userRecords,
    };
    // Only whether the panel sent anything is structure; the running count goes with the periodic writes.
    const structure = JSON.stringify({ ...meta, nowMs: 0, userRecords: Math.min(1, r.userRecords) });
    if (!force && structure === this.lastMeta && r.clock.now() - this.lastMetaAt < META_EVERY_MS) return;
    this.lastMeta = structure;
    this.lastMetaAt = r.clock.now();
    writeClusterMeta(r.writer, meta);
  }

  /**
   * Whether a reload would bring `topic` back: its /brokers/topics znode is saved. An imported
   * partition's (or the seeds' example's) files are written before the znode naming the topic, so
   * until then none of its records count as saved.
   */
  private topicSaved(r: Running, topic: string): boolean {
    return r.plane.engine.isZnodeSaved(`/brokers/topics/${topic}`);
  }

  private frame(args: FrameArgs): FrameResult {
    const r = this.run;
    if (!r || this.stopped) return { nowMs: 0, view: null, windows: [], events: [], droppedEvents: 0, jobs: [] };
    this.wantAllEvents = args.accumulator === true;
    if (args.advanceMs > 0) r.plane.tick(args.advanceMs);
    this.checkStorage(r);
    this.saveMeta(false);
    // The partition logs are redrawn at most VIEW_EVERY_MS apart (a window the page has just
    // asked for goes at once): a producer at thousands of records per second changes them every
    // frame, and numbers that change 60 times a second cannot be read anyway.
    const realNow = performance.now();
    const busy = [...this.jobs.values()].some((j) => j.view.state === 'running');
    const due = realNow - this.lastViewAt >= (busy ? BUSY_VIEW_EVERY_MS : VIEW_EVERY_MS);
    let changed = false;
    if (due) {
      const signature = `${r.data.signature()}|${r.data.topics().map((t) => this.topicSaved(r, t))}`;
      changed = signature !== this.lastSignature;
      this.lastSignature = signature;
      if (changed) this.lastViewAt = realNow;
    }
    const windows: RecordWindow[] = [];
    for (const req of args.windows) {
      const newRequest = !this.sentWindows.get(`${req.topic}-${req.partition}`)?.startsWith(JSON.stringify(req));
      if (!due && !newRequest) continue;
      const key = `${req.topic}-${req.partition}`;
      const replica = r.data.replica(req.topic, req.partition);
      if (!replica) continue;
      const log = replica.log;
      // Send a window again only when what it covers may have changed.
      const stamp = `${JSON.stringify(req)}|${replica.broker}|${log.logStartOffset}|${log.logEndOffset}|${replica.highWatermark}|${log.logSegments.length}`;
      if (this.sentWindows.get(key) === stamp) continue;
      try {
        windows.push(recordWindow(req.topic, req.partition, log, req));
      } catch (e) {
        // Its records are in a segment being read back from the store: a later frame sends it.
        if (e instanceof SegmentNotLoadedError) continue;
        throw e;
      }
      this.sentWindows.set(key, stamp);
    }
    this.pumpSegmentLoads(r);
    const events = this.events;
    const droppedEvents = this.droppedEvents;
    this.events = [];
    this.droppedEvents = 0;
    const jobs: JobView[] = [];
    for (const id of this.changedJobs) {
      const j = this.jobs.get(id);
      if (j) jobs.push({ ...j.view });
      if (j && j.view.state !== 'running') this.jobs.delete(id);
    }
    this.changedJobs.clear();
    // The page draws the control plane's view at most every 250 ms while a job runs (session.ts):
    // building and posting the 10 a second it would drop costs the worker and the page's unpacking.
    const plane = r.plane.frame(0, performance.now(), busy ? BUSY_VIEW_EVERY_MS : 0);
    return {
      nowMs: r.clock.now(),
      view: changed ? this.view() : null,
      windows,
      events,
      droppedEvents,
      jobs,
      accumulator: args.accumulator ? this.accumulatorView(r) : null,
      plane,
    };
  }

  private accumulatorView(r: Running): AccumulatorView {
    return {
      producer: r.producer.clientId,
      settings: r.producer.config,
      queues: r.producer.accumulator(),
      acked: r.producer.acked,
      failed: r.producer.failed,
    };
  }

  /** A Store failure (quota, IndexedDB gone) switches the page to "nothing is being saved". */
  private checkStorage(r: Running): void {
    const failure =
      r.writer.failures[this.failuresSeen.writer] ?? r.plane.engine.storeFailures[this.failuresSeen.engine];
    const offline = r.store instanceof IdbStore ? r.store.offline : null;
    if (failure && this.storage.error === null && offline !== 'fenced' && offline !== 'deleted') {
      this.storage = { kind: 'memory', error: serializeError(failure.error) };
      this.notify({ notice: 'storage-failed', error: this.storage.error as NonNullable<StorageStatus['error']> });
    }
  }

  /**
   * Keeps an event for the next frame when the page can use it: everything while the accumulator
   * view is open (it prints the sender's log), otherwise only the journey of the last record sent
   * from the panel. A bulk job's tens of thousands of events per second never cross to the page.
   */
  pushEvent(e: UiEvent): void {
    if (!this.wantAllEvents && !this.onJourney(e)) return;
    if (this.events.length >= MAX_EVENTS_PER_FRAME) {
      this.events.shift();
      this.droppedEvents++;
    }
    this.events.push(e);
  }

  private onJourney(e: UiEvent): boolean {
    const j = this.journey;
    if (!j || !('producer' in e) || e.producer !== j.producer) return false;
    switch (e.type) {
      case 'recordPartitioned':
      case 'recordWaitingForMetadata':
        return e.sendId === j.sendId;
      case 'recordAppended':
        if (e.sendId === j.sendId) j.batchId = e.batchId;
        return e.sendId === j.sendId || (j.batchId !== null && e.batchId === j.batchId);
      case 'batchSealed':
      case 'batchRetried':
        return e.batchId === j.batchId;
      case 'produceRequestSent':
        return e.batches.some((b) => b.batchId === j.batchId);
      case 'produceResponseReceived':
        return e.partitions.some((b) => b.batchId === j.batchId);
      case 'deliveryReport':
        return e.report.sendId === j.sendId;
      default:
        return false;
    }
  }

  private view(): ClusterView {
    const r = this.run;
    if (!r) return { version: 0, nowMs: 0, partitions: [] };
    return { version: 0, nowMs: r.clock.now(), partitions: r.data.views((t) => this.topicSaved(r, t)) };
  }

  /**
   * Sends `count` records through the panel's producer in slices of about JOB_SLICE_MS, paced at
   * `ratePerSecond` of real time; each slice also lets a little engine time pass so the sender
   * drains as the records arrive. Frames (and cancel) are answered between slices.
   */
  private startProduceJob(args: ProduceManyArgs): { jobId: number } {
    const r = this.running();
    this.requireTopic(r, args.topic);
    if (!Number.isSafeInteger(args.count) || args.count < 1 || args.count > MAX_PRODUCE_MANY_RECORDS) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `count must be a whole number from 1 to ${MAX_PRODUCE_MANY_RECORDS.toLocaleString('en-US')}, got ${args.count}`,
        { count: args.count, limit: MAX_PRODUCE_MANY_RECORDS },
      );
    }
    const jobId = this.nextJobId++;
    const job: Job = {
      view: {
        jobId,
        label: `Producing ${args.count.toLocaleString('en-US')} records to ${args.topic}`,
        done: 0,
        total: args.count,
        state: 'running',
        error: null,
      },
      cancelled: false,
    };
    this.jobs.set(jobId, job);
    this.changedJobs.add(jobId);
    const value = new Uint8Array(Math.max(0, args.valueBytes)).fill(0x61);
    const rate = args.ratePerSecond > 0 ? args.ratePerSecond : MAX_JOB_RATE;
    const started = performance.now();
    const slice = () => {
      if (job.cancelled || this.run !== r) {
        job.view.state = 'cancelled';
        this.changedJobs.add(jobId);
        return;
      }
      try {
        const allowed = Math.min(job.view.total, Math.floor(((performance.now() - started) / 1000) * rate));
        const sliceEnd = performance.now() + JOB_SLICE_MS;
        while (job.view.done < allowed && performance.now() < sliceEnd) {
          const i = job.view.done;
          const key = args.keyPrefix === null ? null : utf8(`${args.keyPrefix}${i}`);
          r.producer.send(args.topic, key, value, []);
          job.view.done++;
          r.userRecords++;
        }
        if (args.ratePerSecond <= 0) r.plane.tick(JOB_TICK_MS);
      } catch (e) {
        job.view.state = 'failed';
        job.view.error = serializeError(e);
        this.changedJobs.add(jobId);
        return;
      }
      this.changedJobs.add(jobId);
      if (job.view.done >= job.view.total) {
        job.view.state = 'finished';
        return;
      }
      setTimeout(slice, 4);
    };
    setTimeout(slice, 0);
    return { jobId };
  }
}

/** True when `spec` is the running scenario (its time aside): a reload of the page's own link. */
function sameScenario(spec: ScenarioSpec, plane: ClusterPlane): boolean {
  if (spec.seed !== plane.seed || spec.preset !== plane.preset) return false;
  // Compared by content: a link's decoder builds each action with its own key order.
  return canonicalJson(spec.actions) === canonicalJson(plane.actions);
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

async function wipe(store: Store): Promise<void> {
  if (isClearable(store)) await store.clear();
  else for (const path of await store.list('')) await store.delete(path);
}

/**
 * Per partition, what its leader's replica lost with the Store (the offsets a consumer can no
 * longer read); a partition whose leader lost nothing but a follower did is listed by the
 * follower that lost the most.
 */
export function lostPartitions(
  lost: readonly LostWithStore[],
  leaderOf: (topic: string, partition: number) => number | undefined,
): LostPartitionView[] {
  const byPartition = new Map<string, LostPartitionView & { leader: boolean }>();
  for (const l of lost) {
    const key = `${l.topic}-${l.partition}`;
    const leader = leaderOf(l.topic, l.partition) === l.broker;
    const seen = byPartition.get(key);
    if (seen && (seen.leader || (!leader && seen.logStartOffset >= l.logStartOffset))) continue;
    byPartition.set(key, {
      topic: l.topic,
      partition: l.partition,
      fromOffset: l.fromOffset,
      logStartOffset: l.logStartOffset,
      leader,
    });
  }
  return [...byPartition.values()].map(({ leader: _, ...view }) => view);
}
