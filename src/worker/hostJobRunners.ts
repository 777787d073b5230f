/**
 * The host's long work as jobs (HostJobs): a Send N job sends through the panel's producer and a
 * long replay runs a scenario link, each in slices of JOB_SLICE_MS of real time between which the
 * worker answers frames and Cancel; and the estimate that decides whether a replay is one.
 */
import { serializeError } from '../engine';
import {
  ClusterApps,
  type ReplayEstimate,
  ScenarioReplay,
  type ScenarioSpec,
  SendJob,
  sameScenario,
} from '../engine/apps';
import { MemoryStore } from '../storage/MemoryStore';
import type { HostClock } from './HostClock';
import type { HostJob, HostJobs } from './HostJobs';
import type { Running } from './hostRun';
import type { JobView, ProduceManyArgs } from './protocol';

/** One slice of a long job: the worker answers frames between slices. */
export const JOB_SLICE_MS = 12;
/**
 * A Send N job waits while more than this is handed to IndexedDB and not yet saved: a busy
 * machine's IndexedDB can fall behind 5,000 records/s, and every byte waiting (and every segment
 * the cache may not page out before it is saved) stays in memory. Like a broker whose disk is
 * slow, the produce path slows down instead of memory growing without bound.
 */
export const MAX_WRITE_BACKLOG_BYTES = 32 * 1024 * 1024;
/** How often (engine ms) the cluster's metadata file is rewritten even when nothing structural changed. */
export const META_EVERY_MS = 5000;
/** A replay's cost is estimated from a replay of its first this many engine ms, timed after the first WARM_UP_MS. */
const PROBE_MS = 3000;
const WARM_UP_MS = 1000;
/** A replay estimated to take longer than this (real ms) runs as a job, in slices between frames. */
const SLICED_REPLAY_MS = 1000;
/** ... and longer than this, the page asks first, saying how long. */
const ASK_REPLAY_MS = 10_000;
/**
 * A link of the scenario already running, whose time is this far past the running cluster's,
 * is a run further on (it runs on to the link's time); closer, it is the page's own address
 * (written every 500 ms, while the stored clock is written every META_EVERY_MS), and nothing runs.
 */
const SAME_RUN_SLACK_MS = 2 * META_EVERY_MS;

/** What the job runners need of the host. */
export interface JobHost {
  readonly jobs: HostJobs;
  readonly hostClock: HostClock;
  /** The write backlog a Send N job waits behind. */
  readonly maxWriteBacklogBytes: number;
  /** The last replay estimate, kept while the page asks about the same link. */
  estimated: { key: string; estimate: ReplayEstimate } | null;
  /** The live run (throws when there is none). */
  running(): Running;
  /** Whether `r` is still the live run (a reset or a take-over replaces it). */
  isLive(r: Running): boolean;
  /** The host stopped (ownership lost). */
  readonly stopped: boolean;
  /** Refuses while a replay runs. */
  notReplaying(): void;
  /** Starts `spec` over on the wiped store. */
  replace(spec: ScenarioSpec): Promise<void>;
  saveMeta(force: boolean): void;
}

/**
 * What replaying `spec` would cost here, or null when there is nothing to replay (it is the
 * scenario running, at most SAME_RUN_SLACK_MS further on). Estimated from a replay of its first
 * PROBE_MS engine ms in memory (whose refusal, if an action there is refused, is the answer).
 */
export function estimateReplay(host: JobHost, spec: ScenarioSpec): ReplayEstimate | null {
  const r = host.running();
  const same = sameScenario(spec, r.apps);
  if (same && spec.untilMs - r.apps.nowMs <= SAME_RUN_SLACK_MS) return null;
  const key = `${same ? r.apps.nowMs : ''}|${JSON.stringify(spec)}`;
  if (host.estimated?.key === key) return host.estimated.estimate;
  const probe = new ScenarioReplay(
    new ClusterApps(spec.seed, spec.preset, { store: new MemoryStore(), panelProducer: true }),
    spec,
  );
  // The first engine second warms up (a fresh cluster, code not yet optimized): timed after it.
  const warm = Math.min(probe.endMs, WARM_UP_MS);
  if (warm > 0) probe.slice(() => probe.apps.nowMs < warm);
  const t1 = host.hostClock.now();
  const probeTo = Math.min(probe.endMs, PROBE_MS);
  if (probeTo > probe.apps.nowMs) probe.slice(() => probe.apps.nowMs < probeTo);
  const perEngineMs = (host.hostClock.now() - t1) / Math.max(1, probe.apps.nowMs - warm);
  // A run of the same scenario goes on from its now, once; another is replayed twice (in memory, then stored).
  const engineMs = same ? spec.untilMs - r.apps.nowMs : probe.endMs;
  const passes = same ? 1 : 2;
  const estimatedMs = Math.round(passes * engineMs * perEngineMs);
  const estimate = {
    engineMs,
    estimatedMs,
    sliced: estimatedMs > SLICED_REPLAY_MS,
    ask: estimatedMs > ASK_REPLAY_MS,
  };
  host.estimated = { key, estimate };
  return estimate;
}

/**
 * A long scenario as a job, in slices of JOB_SLICE_MS between which frames are answered: the
 * scenario running is run on to the link's time; another is replayed in memory first (a refused
 * action fails the job and changes nothing), then on the wiped store. Cancelled during the check,
 * nothing changed; cancelled afterwards, the cluster is the link's run up to where it got.
 */
export function startReplayJob(host: JobHost, spec: ScenarioSpec): { jobId: number } {
  host.notReplaying();
  const r = host.running();
  const same = sameScenario(spec, r.apps);
  const endS = (ms: number) => Math.ceil(ms / 1000);
  let replay = same
    ? new ScenarioReplay(r.apps, { actions: [], untilMs: spec.untilMs })
    : new ScenarioReplay(
        new ClusterApps(spec.seed, spec.preset, { store: new MemoryStore(), panelProducer: true }),
        spec,
      );
  const from = same ? r.apps.nowMs : 0;
  const total = endS(replay.endMs - from) * (same ? 1 : 2);
  const job: HostJob = {
    cancelled: false,
    view: {
      jobId: host.jobs.newId(),
      label: same
        ? `Running on to the link's time, ${(spec.untilMs / 1000).toLocaleString('en-US')} s (engine seconds)`
        : `Replaying the link, ${endS(replay.endMs).toLocaleString('en-US')} engine seconds: in memory, then on the stored cluster`,
      done: 0,
      total,
      state: 'running',
      error: null,
    },
  };
  const jobId = job.view.jobId;
  host.jobs.add(job);
  host.jobs.replay = job;
  let stored = same;
  const end = (state: JobView['state'], error: unknown = null) => {
    job.view.state = state;
    job.view.error = error === null ? null : serializeError(error);
    host.jobs.replay = null;
    host.jobs.changed(jobId);
    if (stored) host.saveMeta(true);
  };
  const slice = async () => {
    if (job.cancelled || host.stopped) return end('cancelled');
    const sliceEnd = host.hostClock.now() + JOB_SLICE_MS;
    try {
      replay.slice(() => host.hostClock.now() < sliceEnd);
    } catch (e) {
      return end('failed', e);
    }
    job.view.done = Math.min(total, (stored && !same ? total / 2 : 0) + endS(replay.apps.nowMs - from));
    host.jobs.changed(jobId);
    if (replay.done) {
      if (stored) return end('finished');
      // Checked whole in memory: now on the wiped store, from a fresh cluster.
      try {
        await host.replace({ ...spec, actions: [], untilMs: 0 });
      } catch (e) {
        return end('failed', e);
      }
      stored = true;
      replay = new ScenarioReplay(host.running().apps, spec);
    }
    host.hostClock.setTimeout(() => void slice(), 4);
  };
  host.hostClock.setTimeout(() => void slice(), 0);
  return { jobId };
}

/**
 * Sends `count` records through the panel's producer (a SendJob) in slices of about
 * JOB_SLICE_MS of real time; frames (and cancel) are answered between slices.
 */
export function startSendJob(host: JobHost, args: ProduceManyArgs): { jobId: number } {
  const r = host.running();
  const job = new SendJob(r.apps, host.jobs.newId(), args);
  const jobId = job.view.jobId;
  host.jobs.add(job);
  const started = host.hostClock.now();
  let waitedMs = 0;
  let waitStarted: number | null = null;
  const slice = () => {
    if (!host.isLive(r)) job.cancelled = true;
    // IndexedDB is behind: send nothing until it catches up (the job's clock stops meanwhile).
    if (!job.cancelled && r.writer.bytesInFlight > host.maxWriteBacklogBytes) {
      waitStarted ??= host.hostClock.now();
      host.hostClock.setTimeout(slice, 20);
      return;
    }
    if (waitStarted !== null) {
      waitedMs += host.hostClock.now() - waitStarted;
      waitStarted = null;
    }
    const sliceEnd = host.hostClock.now() + JOB_SLICE_MS;
    r.userRecords += job.slice(host.hostClock.now() - started - waitedMs, () => host.hostClock.now() < sliceEnd);
    host.jobs.changed(jobId);
    if (job.view.state === 'running') host.hostClock.setTimeout(slice, 4);
  };
  host.hostClock.setTimeout(slice, 0);
  return { jobId };
}
