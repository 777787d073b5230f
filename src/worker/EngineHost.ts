// LEAD NOTE (to both UI engineers — read, act, then delete this note): the worker must end up
// running ONE Engine (src/engine/engine.ts) persisted to the IdbStore, that serves BOTH the data
// path (producer panel, partition logs, lookup, inspector, export/import, recovery on reload) AND
// the control plane (brokers, elections, znodes, groups, scenarios). Two separate engines (the
// log-only LogCluster and the MemoryStore-backed ClusterPlane) would show two different Kafkas:
// killing a broker must move the leader of the very partition logs the producer panel writes to.
// Whoever migrates first: make LogCluster's views read the Engine's leader replicas, and make
// ClusterPlane wrap that same Engine instance (its scenario replay can still rebuild it).
/// <reference lib="webworker" />
/**
 * The worker's half of the app: owns the cluster and its Store, and answers the page's commands.
 * It holds no Kafka logic: it forwards commands to the engine and turns engine state into the
 * plain views of protocol.ts (views.ts). Long work runs in slices between which the worker
 * answers frames, so the page stays live and a job can be cancelled.
 */
import { ManualClock } from '../engine/Clock';
import { KafkaError } from '../engine/errors';
import type { Store } from '../engine/Store';
import { isClearable, openBestStore } from '../storage/openBestStore';
import { MemoryStore } from '../storage/MemoryStore';
import { exportPartitionZip, importPartitionZip } from './archive';
import { buildDemo, buildSeedsLookupExample } from './demo';
import { LogCluster, utf8 } from './LogCluster';
import { OwnershipLock } from './ownership';
import type {
  ClusterView,
  Commands,
  FrameArgs,
  FrameResult,
  JobView,
  OpenArgs,
  OpenResult,
  ProduceManyArgs,
  ProducerSettings,
  RecordWindow,
  StorageStatus,
  UiEvent,
  WorkerNotice,
} from './protocol';
import { Transfer } from './transfer';
import { serializeError } from './serializeError';
import { lookupView, partitionView, recordWindow, segmentDump } from './views';
import { ClusterPlane } from './plane/ClusterPlane';

type Handlers = {
  [K in keyof Commands]: (
    data: Commands[K][0],
  ) => Commands[K][1] | Transfer<Commands[K][1]> | Promise<Commands[K][1] | Transfer<Commands[K][1]>>;
};

/** Events kept between two frames; beyond this the oldest are dropped (the views read state, not events). */
const MAX_EVENTS_PER_FRAME = 2000;
/** One slice of a long job: the worker answers frames between slices. */
const JOB_SLICE_MS = 12;
const BATCH_RECORDS = 100;

interface Job {
  view: JobView;
  cancelled: boolean;
}

export class EngineHost {
  private cluster: LogCluster | null = null;
  private storage: StorageStatus = { kind: 'memory', error: null };
  private readonly lock = new OwnershipLock();
  private lastSentVersion = -1;
  private sentWindows = new Map<string, string>();
  private events: UiEvent[] = [];
  private droppedEvents = 0;
  private readonly jobs = new Map<number, Job>();
  private changedJobs = new Set<number>();
  private nextJobId = 1;
  private settings: ProducerSettings = { acks: 'all', 'linger.ms': 5, 'batch.size': 16384, partitioner: 'sticky' };
  private stopped = false;
  /** The control plane (brokers, controller, groups), created by the page's first planeScenario. */
  private plane: ClusterPlane | null = null;

  constructor(private readonly notify: (n: WorkerNotice) => void) {}

  readonly handlers: Handlers = {
    open: (args) => this.open(args),
    frame: (args) => this.frame(args),
    snapshot: () => this.view(),
    lookup: (args) => {
      const c = this.running();
      const log = c.log(args.topic, args.partition);
      const target =
        args.timestamp !== undefined
          ? { kind: 'timestamp' as const, value: args.timestamp }
          : { kind: 'offset' as const, value: args.offset ?? 0 };
      return lookupView(args.topic, args.partition, log, target);
    },
    seedsLookupPreset: () => {
      const c = this.running();
      const r = buildSeedsLookupExample(c);
      return r;
    },
    produce: (args) => {
      const c = this.running();
      const key = utf8(args.key);
      const choice = c.choosePartition(args.topic, key);
      c.appendBatch(args.topic, choice.partition, [
        { key, value: utf8(args.value), headers: args.headers.map((h) => ({ key: h.key, value: utf8(h.value) })) },
      ]);
      return { sendId: 0, choice };
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
      if (!(next['linger.ms'] >= 0))
        throw new KafkaError('INVALID_CONFIG', 'Invalid value for configuration linger.ms: must be at least 0');
      if (!(next['batch.size'] >= 0))
        throw new KafkaError('INVALID_CONFIG', 'Invalid value for configuration batch.size: must be at least 0');
      this.settings = next;
      this.cluster?.setPartitioner(next.partitioner);
      return this.settings;
    },
    runUntilIdle: () => {
      const c = this.running();
      c.flushAll();
      return { advancedMs: 0 };
    },
    reset: () => this.reset(),
    segment: (args) => {
      const c = this.running();
      const dump = segmentDump(args.topic, args.partition, c.log(args.topic, args.partition), args.baseOffset);
      return new Transfer(
        dump,
        dump.batches.map((b) => b.bytes.buffer as ArrayBuffer),
      );
    },
    exportPartition: ({ topic, partition }) => {
      const c = this.running();
      const out = exportPartitionZip(c.log(topic, partition));
      return new Transfer(out, [out.zip.buffer as ArrayBuffer]);
    },
    importPartition: ({ zip, fileName }) => importPartitionZip(this.running(), zip, fileName),
    planeAction: (action) => {
      const plane = this.requirePlane();
      plane.apply(action);
      return plane.view();
    },
    planeScenario: (spec) => {
      this.plane = spec === null ? new ClusterPlane(1, 'demo') : ClusterPlane.fromScenario(spec);
      return this.plane.view();
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

  private requirePlane(): ClusterPlane {
    if (!this.plane) throw new KafkaError('BROKER_NOT_AVAILABLE', 'The cluster is not open yet.');
    return this.plane;
  }

  private running(): LogCluster {
    if (this.stopped)
      throw new KafkaError('KAFKA_STORAGE_ERROR', 'Another tab owns this cluster now; this tab has stopped.');
    if (!this.cluster) throw new KafkaError('BROKER_NOT_AVAILABLE', 'The cluster is not open yet.');
    return this.cluster;
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
      const best = await openBestStore();
      store = best.store;
      this.storage =
        best.kind === 'indexeddb'
          ? { kind: 'indexeddb', error: null }
          : { kind: 'memory', error: { name: best.error.name, code: best.error.code, message: best.reason } };
    }
    const clock = new ManualClock(Date.now());
    let created = false;
    let recovery: Awaited<ReturnType<typeof LogCluster.load>> = null;
    try {
      recovery = await LogCluster.load(store, clock);
    } catch (e) {
      // Unreadable metadata: say so, and start a fresh demo in memory rather than overwrite it.
      this.storage = { kind: 'memory', error: serializeError(e) };
      store = new MemoryStore();
    }
    if (recovery) {
      this.cluster = recovery.cluster;
    } else {
      this.cluster = new LogCluster(store, clock);
      buildDemo(this.cluster);
      created = true;
    }
    this.cluster.setPartitioner(this.settings.partitioner);
    this.lastSentVersion = -1;
    this.sentWindows.clear();
    return {
      status: 'opened',
      storage: this.storage,
      created,
      recovery: recovery?.recovery ?? [],
      exclusive,
      view: this.view(),
    };
  }

  private onOwnershipLost(): void {
    // Stop writing at once: the other tab now owns the files.
    this.stopped = true;
    for (const job of this.jobs.values()) job.cancelled = true;
    this.cluster = null;
    this.notify({ notice: 'ownership-lost' });
  }

  private async reset(): Promise<OpenResult> {
    const c = this.running();
    for (const job of this.jobs.values()) job.cancelled = true;
    await c.writer.settled();
    const store = c.store;
    if (isClearable(store)) await store.clear();
    else for (const path of await store.list('')) await store.delete(path);
    this.cluster = new LogCluster(store, new ManualClock(Date.now()));
    buildDemo(this.cluster);
    this.cluster.setPartitioner(this.settings.partitioner);
    this.lastSentVersion = -1;
    this.sentWindows.clear();
    return { status: 'opened', storage: this.storage, created: true, recovery: [], exclusive: true, view: this.view() };
  }

  private frame(args: FrameArgs): FrameResult {
    const c = this.cluster;
    if (!c || this.stopped) return { nowMs: 0, view: null, windows: [], events: [], droppedEvents: 0, jobs: [] };
    if (args.advanceMs > 0) c.tick(args.advanceMs);
    this.checkStorage(c);
    const changed = c.version !== this.lastSentVersion;
    this.lastSentVersion = c.version;
    const windows: RecordWindow[] = [];
    for (const req of args.windows) {
      const key = `${req.topic}-${req.partition}`;
      let log: ReturnType<LogCluster['log']>;
      try {
        log = c.log(req.topic, req.partition);
      } catch {
        continue;
      }
      // Send a window again only when what it covers may have changed.
      const stamp = `${JSON.stringify(req)}|${log.logStartOffset}|${log.logEndOffset}|${log.highWatermark}|${c.version}`;
      if (this.sentWindows.get(key) === stamp) continue;
      this.sentWindows.set(key, stamp);
      windows.push(recordWindow(req.topic, req.partition, log, req));
    }
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
    const plane = this.plane?.frame(args.advanceMs, performance.now());
    return {
      nowMs: c.clock.now(),
      view: changed ? this.view() : null,
      windows,
      events,
      droppedEvents,
      jobs,
      ...(plane ? { plane } : {}),
    };
  }

  /** A Store failure (quota, IndexedDB gone) switches the page to "nothing is being saved". */
  private checkStorage(c: LogCluster): void {
    const failure = c.writer.failures[0];
    if (failure && this.storage.error === null) {
      this.storage = { kind: 'memory', error: serializeError(failure.error) };
      this.notify({ notice: 'storage-failed', error: this.storage.error as NonNullable<StorageStatus['error']> });
    }
  }

  pushEvent(e: UiEvent): void {
    if (this.events.length >= MAX_EVENTS_PER_FRAME) {
      this.events.shift();
      this.droppedEvents++;
    }
    this.events.push(e);
  }

  private view(): ClusterView {
    const c = this.cluster;
    if (!c) return { version: 0, nowMs: 0, partitions: [] };
    const partitions = [...c.partitions()].map(({ topic, partition, log }) => partitionView(topic, partition, log));
    return { version: c.version, nowMs: c.clock.now(), partitions };
  }

  /**
   * Sends `count` records in slices of about JOB_SLICE_MS, batching up to BATCH_RECORDS records
   * per partition, so frames (and cancel) are answered between slices.
   */
  private startProduceJob(args: ProduceManyArgs): { jobId: number } {
    const c = this.running();
    c.log(args.topic, 0);
    if (!Number.isSafeInteger(args.count) || args.count < 1 || args.count > 10_000_000) {
      throw new KafkaError('INVALID_REQUEST', `count must be between 1 and 10,000,000, got ${args.count}`);
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
    const started = performance.now();
    const slice = () => {
      if (job.cancelled || this.cluster !== c) {
        job.view.state = 'cancelled';
        this.changedJobs.add(jobId);
        return;
      }
      const sliceEnd = performance.now() + JOB_SLICE_MS;
      try {
        while (job.view.done < job.view.total && performance.now() < sliceEnd) {
          // Paced jobs stop once they are ahead of their rate.
          const allowed =
            args.ratePerSecond > 0
              ? Math.min(job.view.total, Math.floor(((performance.now() - started) / 1000) * args.ratePerSecond))
              : job.view.total;
          if (job.view.done >= allowed) break;
          const n = Math.min(BATCH_RECORDS * 10, allowed - job.view.done);
          const perPartition = new Map<number, { key: Uint8Array | null; value: Uint8Array; headers: [] }[]>();
          for (let i = 0; i < n; i++) {
            const k = args.keyPrefix === null ? null : utf8(`${args.keyPrefix}${job.view.done + i}`);
            const p = c.choosePartition(args.topic, k).partition;
            let list = perPartition.get(p);
            if (!list) perPartition.set(p, (list = []));
            list.push({ key: k, value, headers: [] });
            if (list.length >= BATCH_RECORDS) {
              c.appendBatch(args.topic, p, list);
              perPartition.set(p, []);
            }
          }
          for (const [p, list] of perPartition) if (list.length > 0) c.appendBatch(args.topic, p, list);
          job.view.done += n;
        }
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
      setTimeout(slice, args.ratePerSecond > 0 ? 4 : 0);
    };
    setTimeout(slice, 0);
    return { jobId };
  }
}
