/// <reference lib="webworker" />
/**
 * The worker's half of the app. It runs ONE engine (src/engine/engine.ts), wrapped by the
 * board (ClusterApps: brokers, controller, groups, scenarios) and persisted to the
 * IdbStore, and serves both halves of the page from it:
 *  - the data path (producer panel, partition logs, lookup, inspector, export/import) reads the
 *    engine's leader replicas (DataPath) and sends through the apps' panel producer (ProducerApp);
 *  - the board's views and actions (applyAction, loadScenario, ...).
 * A reload is a cluster restart: the engine starts from the znodes, recovered replica logs and
 * checkpoints IndexedDB holds (readStoredCluster); engine/apps/clusterMeta.ts is only the scenario link.
 * It holds no Kafka logic of its own. Long work runs in slices between
 * which the worker answers frames, so the page stays live and a job can be cancelled.
 */
import {
  ManualClock,
  KafkaError,
  readStoredCluster,
  recoveryView,
  StoreWriter,
  type Store,
  serializeError,
  lookupView,
  segmentDump,
} from '../engine';
import { IdbStore } from '../storage/IdbStore';
import { MemoryStore } from '../storage/MemoryStore';
import { openBestStore } from '../storage/openBestStore';
import { OwnershipLock } from './ownership';
import {
  addSeedsLookupExample,
  type ClusterApps,
  LESSONS,
  lessonSummary,
  lessonWorld,
  probeStep,
  checkAdvance,
  ContentVersion,
  discardView,
  lostPartitions,
  RecordWindows,
  sameScenario,
  lookupTarget,
  PANEL_CLIENT_ID,
  PRODUCER_EVENT_TYPES,
  DEMO_TOPIC_DEFAULTS,
  SCENARIO_EPOCH_MS,
  type PresetName,
  type ScenarioSpec,
  exportPartitionZip,
  importPartitionZip,
  CLUSTER_META_PATH,
  type ClusterMeta,
  readClusterMeta,
  writeClusterMeta,
  TimeTravel,
  type TravelView,
  type HostedRun,
} from '../engine/apps';
import type {
  ClusterView,
  FrameArgs,
  FrameResult,
  FrameViews,
  OpenArgs,
  OpenResult,
  RecoveryView,
  StorageStatus,
  UiEvent,
  WorkerNotice,
} from './protocol';
import type { HostClock } from './HostClock';
import { HostJobs } from './HostJobs';
import { PanelEvents } from './PanelEvents';
import { LessonJournals } from './LessonJournals';
import { DEFAULT_PRESET, DEFAULT_SEED, type Shown, wipe } from './hostRun';
import { SegmentReads } from './SegmentReads';
import { checkForkDrops, ScenarioChecks } from './scenarioChecks';
import {
  estimateReplay,
  type JobHost,
  MAX_WRITE_BACKLOG_BYTES,
  META_EVERY_MS,
  startReplayJob,
  startSendJob,
} from './hostJobRunners';
import { newRunning, type RunOptions, type Running } from './hostRun';
import { type Handlers, Transfer } from './transfer';

export class EngineHost {
  private run: Running | null = null;
  private storage: StorageStatus = { kind: 'memory', error: null };
  private readonly lock = new OwnershipLock();
  /** The running cluster's id (FrameResult.run): a replace starts a new run, whose versions start over. */
  private runId = 0;
  /** The cluster view's version in this run: it moves when the partition views' signature changes. */
  private clusterVersion = new ContentVersion();
  /** The accumulator view's version in this run: it moves when its JSON changes. */
  private accumulatorVersion = new ContentVersion();
  private readonly windows = new RecordWindows();
  private readonly jobs = new HostJobs();
  /**
   * Topics this run holds that its scenario does not (an import, the seeds' lookup example): no
   * replay brings them back, so a fork would delete them. A fork asks first (travelConfirmFork).
   */
  private unreplayable = new Set<string>();
  /** The past moment at which the page confirmed a fork that deletes them. */
  private forkConfirmedAt: number | null = null;
  private stopped = false;
  private lastMeta = '';
  private lastMetaAt = 0;
  private recovery: RecoveryView[] = [];
  /** Store failures already accounted for (by a re-persist): only later ones count. */
  private failuresSeen = { writer: 0, engine: 0 };
  /** The producer panel's events for the next frame. */
  private readonly panelEvents = new PanelEvents();
  /** The running cluster's past (engine/apps/travel): replays in memory, never in the store. */
  private readonly travel = new TimeTravel(
    () => this.running().apps,
    () => new MemoryStore(),
  );
  /** Ends this host's subscription to the panel's events (a hosted engine outlives its pages). */
  private stopEvents: (() => void) | null = null;

  /**
   * @param notify posts a notice to the page
   * @param hostClock the host's real time (slices of long jobs): realHostClock in the
   *   worker, a ManualHostClock in tests
   * @param hosted a cluster running on its own (the Node host's): served, never ticked (HostedRun)
   */
  /** Scenarios replayed whole in memory before they may replace the cluster. */
  private readonly scenarioChecks = new ScenarioChecks();

  /** Reads of paged-out segments. */
  private readonly segmentReads = new SegmentReads(
    () => this.running().apps.engine,
    (n) => this.notify(n),
  );

  /** What the job runners (hostJobRunners.ts) reach of this host. */
  private readonly jobHost: JobHost = (() => {
    const host = this;
    return {
      get jobs() {
        return host.jobs;
      },
      get hostClock() {
        return host.hostClock;
      },
      get maxWriteBacklogBytes() {
        return host.maxWriteBacklogBytes;
      },
      estimated: null,
      running: () => host.running(),
      isLive: (r: Running) => host.run === r,
      get stopped() {
        return host.stopped;
      },
      notReplaying: () => host.notReplaying(),
      replace: (spec: ScenarioSpec) => host.replace(spec),
      saveMeta: (force: boolean) => host.saveMeta(force),
    };
  })();

  constructor(
    private readonly notify: (n: WorkerNotice) => void,
    private readonly hostClock: HostClock,
    private readonly hosted: HostedRun | null = null,
    /** The write backlog a Send N job waits behind (MAX_WRITE_BACKLOG_BYTES; tests make it small). */
    private readonly maxWriteBacklogBytes = MAX_WRITE_BACKLOG_BYTES,
  ) {}

  readonly handlers: Handlers = {
    open: (args) => this.open(args),
    frame: (args) => this.frame(args),
    snapshot: () => this.view(),
    lookup: (args) =>
      this.segmentReads.paged(() => {
        const log = this.shown().data.log(args.topic, args.partition);
        return lookupView(args.topic, args.partition, log, lookupTarget(args));
      }),
    seedsLookupPreset: async () => {
      const r = await this.present();
      const where = addSeedsLookupExample(r.data, r.clock, r.writer);
      this.unreplayable.add(where.topic);
      // Let the controller create the topic and the broker open the example's log.
      r.apps.tick(200);
      this.saveMeta(true);
      return where;
    },
    produceRecord: async (args) => {
      const r = await this.present();
      // The journey is set before the send: the partitioner's events fire inside it.
      this.panelEvents.journey.follow(r.producer.clientId, r.producer.nextSendId);
      const { topic, key, value, headers } = args;
      const sent = r.apps.apply({ op: 'produceRecord', topic, key, value, headers });
      if (!sent) throw new Error('a produceRecord command answers with its send');
      this.panelEvents.journey.correct(sent.sendId);
      r.userRecords++;
      return sent;
    },
    produceRecords: async (args) => {
      await this.present();
      return startSendJob(this.jobHost, args);
    },
    cancelJob: ({ jobId }) => {
      this.jobs.cancel(jobId);
      return null;
    },
    setProducerSettings: async (patch) => {
      const apps = (await this.present()).apps;
      apps.apply({ op: 'configureProducer', settings: patch });
      return apps.panelSettings;
    },
    runUntilIdle: async () => ({ advancedMs: (await this.present()).apps.runUntilIdle() }),
    reset: () => this.reset(),
    repersist: () => this.repersist(),
    segment: (args) =>
      this.segmentReads.paged(() => {
        const r = this.shown();
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
      await r.apps.engine.loadSegments(r.data.log(topic, partition).logSegments.filter((s) => !s.resident));
      return this.segmentReads.paged(() => {
        const r = this.running();
        const out = exportPartitionZip(r.data.log(topic, partition), `${topic}-${partition}`);
        return new Transfer(out, [out.zip.buffer as ArrayBuffer]);
      });
    },
    importPartition: async ({ zip, fileName }) => {
      const r = await this.present();
      const result = await importPartitionZip(r.data, r.store, r.clock, r.writer, zip, fileName);
      this.unreplayable.add(result.topic);
      r.apps.tick(200);
      this.saveMeta(true);
      return result;
    },
    applyAction: async (action) => {
      const apps = (await this.present()).apps;
      apps.apply(action);
      this.saveMeta(false);
      return apps.view();
    },
    loadScenario: async (spec) => {
      const r = this.running();
      if (spec === null) return r.apps.view();
      this.notReplaying();
      const replay = estimateReplay(this.jobHost, spec);
      if (replay?.sliced) {
        throw new KafkaError(
          'INVALID_REQUEST',
          `replaying this scenario would take about ${Math.round(replay.estimatedMs / 1000)} s here: start it as a job (startScenarioJob), which answers frames and can be cancelled`,
          { estimatedMs: replay.estimatedMs },
        );
      }
      if (sameScenario(spec, r.apps)) {
        // The scenario running, further on: run on to the link's time.
        if (replay) r.apps.runTo(spec.untilMs);
        return r.apps.view();
      }
      // Another run: replayed in memory first (a failing action throws here, nothing touched),
      // then started over on the wiped store.
      this.scenarioChecks.replayInMemory(spec);
      await this.replace(spec);
      return this.running().apps.view();
    },
    checkScenario: (spec) => {
      const r = this.running();
      const same = sameScenario(spec, r.apps);
      const replay = estimateReplay(this.jobHost, spec);
      if (!same && !replay?.sliced) this.scenarioChecks.replayInMemory(spec);
      return { ...discardView(r.apps, r.data, r.presetTopics, r.userRecords, !same), replay };
    },
    startScenarioJob: (spec) => startReplayJob(this.jobHost, spec),
    previewPlacement: (args) => this.requireApps().previewPlacement(args),
    advanceClock: async ({ ms }) => {
      checkAdvance(ms);
      const apps = (await this.present()).apps;
      apps.tick(ms);
      return apps.view();
    },
    lessons: () => LESSONS.map(lessonSummary),
    lessonProbe: ({ id, step, startedAtMs }) => {
      const lesson = LESSONS.find((l) => l.id === id);
      if (!lesson) throw new KafkaError('INVALID_REQUEST', `No lesson ${id}.`);
      const r = this.running();
      return probeStep(lesson, step, lessonWorld(r.apps, r.data, this.journals.of(r.apps)), startedAtMs);
    },
    travelSeek: ({ atMs }) => this.seek(atMs),
    travelConfirmFork: ({ atMs }) => {
      this.forkConfirmedAt = atMs;
      return null;
    },
    travelNext: ({ kind }) => {
      const atMs = this.travel.nextMoment(kind);
      return { travel: atMs === null ? this.travelView() : this.seek(atMs), atMs };
    },
  };

  /** Each moment shown is a new run for the page: it draws it from scratch, and animates none of it. */
  private seek(atMs: number): TravelView {
    this.running();
    if (this.travel.seek(atMs)) this.newRun();
    return this.travelView();
  }

  /** Refuses to act while a long replay runs: it decides what the cluster is. */
  private notReplaying(): void {
    if (this.jobs.replay)
      throw new KafkaError('INVALID_REQUEST', 'a link is being replayed: wait for it to finish or cancel it first');
  }

  /** The live run, ready for an action (taken in the past, it forks the run there: TimeTravel). */
  private async present(): Promise<Running> {
    this.notReplaying();
    const past = this.travel.past;
    if (past) checkForkDrops(past.apps.nowMs, this.unreplayable, this.forkConfirmedAt, this.running());
    if (await this.travel.forkIfPast((spec) => this.replace(spec))) this.saveMeta(true);
    return this.running();
  }

  /** The page is shown another picture: it holds none of its views. */
  private newRun(): void {
    this.runId++;
    this.clusterVersion = new ContentVersion();
    this.accumulatorVersion = new ContentVersion();
    this.windows.clear();
  }

  private travelView(): TravelView {
    return this.travel.view(this.run?.apps.nowMs ?? 0);
  }

  /** The live run or, while it is shown, its past. */
  private shown(): Shown {
    return this.travel.past ?? this.running();
  }

  /** One journal per running cluster, begun at its first lesson probe (a lesson probes before its first action). */
  private readonly journals = new LessonJournals();

  /** The page went away (a Node host's page closed its socket): its jobs stop, its events are no longer kept. */
  close(): void {
    this.jobs.cancelAll();
    this.stopEvents?.();
  }

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

  private requireApps(): ClusterApps {
    return this.running().apps;
  }

  private running(): Running {
    if (this.stopped)
      throw new KafkaError('KAFKA_STORAGE_ERROR', 'Another tab owns this cluster now; this tab has stopped.');
    if (!this.run) throw new KafkaError('BROKER_NOT_AVAILABLE', 'The cluster is not open yet.');
    return this.run;
  }

  private async open(args: OpenArgs): Promise<OpenResult> {
    const h = this.hosted;
    if (h) {
      this.storage = { kind: h.durable ? 'files' : 'memory', error: null };
      this.start({
        store: h.store,
        spec: h.apps.scenario(),
        fresh: false,
        clock: h.clock,
        writer: h.writer,
        hostedApps: h.apps,
      });
      return {
        status: 'opened',
        storage: this.storage,
        created: false,
        recovery: [],
        exclusive: true,
        view: this.view(),
      };
    }
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
    else
      this.start({ store, spec: { seed: DEFAULT_SEED, preset: DEFAULT_PRESET, actions: [], untilMs: 0 }, fresh: true });
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
   * Builds the board on `store` (a scenario replay, the preset alone, or with `stored` a restart
   * from what the store kept), with the data path around it.
   */
  private start(options: RunOptions): void {
    this.run = newRunning(options);
    const apps = this.run.apps;
    // The panel's events, from the engine's one event path (each restart of it adds -<generation>).
    this.stopEvents?.();
    this.stopEvents = apps.engine.subscribe((e) => {
      if ('producer' in e && (e.producer === PANEL_CLIENT_ID || e.producer.startsWith(`${PANEL_CLIENT_ID}-`)))
        this.pushEvent(e as UiEvent);
    }, PRODUCER_EVENT_TYPES);
    // A new run: the page holds none of its views, so its first frame carries them all, even a
    // cluster view with no partitions (the page must drop the old cluster's partitions then).
    this.runId++;
    this.clusterVersion = new ContentVersion();
    this.accumulatorVersion = new ContentVersion();
    this.windows.clear();
    this.lastMeta = '';
    this.travel.restart();
    this.unreplayable = new Set();
    this.forkConfirmedAt = null;
    this.panelEvents.forget();
  }

  /**
   * A cluster restart from the store, as a ZooKeeper-mode cluster restarts: the persistent znodes
   * come back, every replica log is recovered (LogLoader) and hosted at its checkpointed high
   * watermark, the brokers register again and the controller they elect reads the znodes.
   * meta/cluster.json only links the run to its scenario (seed, preset, recorded actions, clock).
   */
  private async restore(store: Store, meta: ClusterMeta): Promise<void> {
    const clock = new ManualClock(Math.max(SCENARIO_EPOCH_MS, meta.nowMs));
    const writer = new StoreWriter(store);
    const stored = await readStoredCluster(store, { clock, writer, topicDefaults: DEMO_TOPIC_DEFAULTS });
    this.recovery = stored.reports.filter((r) => !r.dir.includes('/__')).map((r) => recoveryView(r.dir, r.report));
    const spec = { seed: meta.seed, preset: meta.preset as PresetName, actions: meta.actions, untilMs: 0 };
    if (stored.znodes.length > 0) {
      this.start({ store, spec, fresh: false, clock, writer, stored });
    } else {
      // Saved before znodes were stored: only the preset can be rebuilt, on the recovered logs.
      this.start({ store, spec: { ...spec, actions: [] }, fresh: false, clock, writer, stored });
      this.running().apps.recorder.restore(meta.actions);
    }
    const r = this.running();
    // Unknown for files written before the panel's records were counted: count them as some.
    r.userRecords = meta.userRecords ?? 1;
    // The stored past is not the scenario's replay: no time travel before this restart.
    this.travel.restored(r.apps.nowMs);
    r.apps.tick(300);
  }

  /**
   * Replaces the running cluster by a scenario's replay on the wiped store. The old cluster stops
   * first (no frame ticks it while its files are deleted, or it would write some back).
   */
  private async replace(spec: ScenarioSpec): Promise<void> {
    const r = this.running();
    this.jobs.cancelAll(this.jobs.replay);
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
    this.start({ store: r.store, spec, fresh: true });
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
    this.jobs.cancelAll();
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
      // Nothing is durable any more, not even what the Store had confirmed: no durable offset, no
      // saved topic, until "Save again from memory" hands everything over and the Store confirms it.
      this.run?.apps.engine.storeLost();
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
    this.failuresSeen = { writer: r.writer.failures.length, engine: r.apps.engine.storeFailures.length };
    const lost = lostPartitions(
      r.apps.engine.rewriteStoreFiles(),
      (t, p) => r.apps.cluster.partitionState(t, p)?.leader,
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
    if (!r || this.stopped || this.hosted) return;
    const meta: ClusterMeta = {
      version: 2,
      seed: r.apps.seed,
      preset: r.apps.preset,
      actions: [...r.apps.actions],
      nowMs: r.clock.now(),
      userRecords: r.userRecords,
    };
    // Structure: a new action, another run, whether the panel sent anything. A Send N job's slices
    // folding into its action, the clock and the running count go with the periodic writes (the
    // records themselves are in the logs; the scenario is the link and the board's restart).
    const structure = `${meta.seed}|${meta.preset}|${meta.actions.length}|${Math.min(1, r.userRecords)}`;
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
  private topicSaved(r: Shown, topic: string): boolean {
    return r.apps.engine.isZnodeSaved(`/brokers/topics/${topic}`);
  }

  private frame(args: FrameArgs): FrameResult {
    const r = this.run;
    if (!r || this.stopped)
      return {
        run: this.runId,
        nowMs: 0,
        events: { producer: [], dropped: 0, board: [] },
        views: {},
        windows: [],
        jobs: [],
        travel: this.travelView(),
      };
    const { have } = args;
    this.panelEvents.wantAll = have.accumulator !== undefined;
    // While the past is shown the live run is paused: its clock does not move.
    if (args.advanceMs > 0 && this.travel.past === null && !this.hosted && !this.jobs.replay)
      r.apps.tick(args.advanceMs);
    this.checkStorage(r);
    this.saveMeta(false);
    const live = r;
    const shown = this.shown();
    // Versions of another run mean nothing here: the page then holds none of this run's views.
    const held = (name: keyof FrameViews) => (args.run === this.runId ? (have[name] ?? -1) : -1);
    const views: FrameViews = {};
    if (have.cluster !== undefined) {
      const signature = `${shown.data.signature()}|${shown.data.topics().map((t) => this.topicSaved(shown, t))}`;
      if (this.clusterVersion.observe(signature) !== held('cluster')) views.cluster = this.view();
    }
    if (have.board !== undefined && shown.apps.version !== held('board')) views.board = shown.apps.view();
    if (have.accumulator !== undefined) {
      const accumulator = shown.apps.panelAccumulator();
      const version = this.accumulatorVersion.observe(JSON.stringify(accumulator));
      if (version !== held('accumulator')) views.accumulator = { ...accumulator, version };
    }
    if (have.eventLog !== undefined && shown.apps.eventLog.version !== held('eventLog'))
      views.eventLog = shown.apps.eventLog.view();
    if (have.metrics !== undefined && shown.apps.metrics.version !== held('metrics'))
      views.metrics = shown.apps.metrics.view();
    // A window goes with the cluster view's turn (or at once, when the page has just asked for it).
    const windows = this.windows.take(shown.data, args.windows, have.cluster !== undefined);
    this.segmentReads.pump(live.apps.engine);
    const board = (this.hosted ?? live.apps).takeEvents();
    const events = { ...this.panelEvents.take(), board };
    const jobs = this.jobs.takeChanged();
    if (!this.hosted && !this.jobs.replay) this.travel.work();
    return { run: this.runId, nowMs: shown.apps.nowMs, events, views, windows, jobs, travel: this.travelView() };
  }

  /** A Store failure (quota, IndexedDB gone) switches the page to "nothing is being saved". */
  private checkStorage(r: Running): void {
    const failure =
      r.writer.failures[this.failuresSeen.writer] ?? r.apps.engine.storeFailures[this.failuresSeen.engine];
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
    this.panelEvents.push(e);
  }

  private view(): ClusterView {
    if (!this.run) return { version: 0, nowMs: 0, partitions: [] };
    const r = this.shown();
    return {
      version: this.clusterVersion.version,
      nowMs: r.apps.nowMs,
      partitions: r.data.views((t) => this.topicSaved(r, t)),
    };
  }
}
