/**
 * A Send N job of the page's producer panel: its progress and each slice's work. The host owns
 * the real clock and the timers (it paces slices and answers frames between them); the job only
 * says how much to send now, sends it as produceRecords commands (so the scenario records what
 * was sent at which engine time) and lets a little engine time pass when unpaced.
 */
import { serializeError } from '../index';
import type { ClusterApps } from './ClusterApps';
import { checkSendCount } from './requests';
import type { JobView, ProduceManyArgs } from './types';

/** Bulk produce without a rate: this many records per second of real time. */
const MAX_JOB_RATE = 50_000;
/** Engine time an unpaced job lets pass per slice, so the sender drains while the job runs. */
const JOB_TICK_MS = 5;
/** Records sent between two looks at the time, so a slice ends on time. */
const SEND_RUN = 64;

export class SendJob {
  readonly view: JobView;
  cancelled = false;

  /** Refuses a missing topic or a bad count before the job exists. */
  constructor(
    private readonly apps: ClusterApps,
    jobId: number,
    private readonly args: ProduceManyArgs,
  ) {
    apps.requireTopic(args.topic);
    checkSendCount(args.count);
    this.view = {
      jobId,
      label: `Producing ${args.count.toLocaleString('en-US')} records to ${args.topic}`,
      done: 0,
      total: args.count,
      state: 'running',
      error: null,
    };
  }

  /**
   * One slice, `elapsedMs` of real time after the job started: sends what the rate allows by now
   * while `inTime()` holds; returns the records sent. Ends the job when all are sent, cancelled
   * or refused.
   */
  slice(elapsedMs: number, inTime: () => boolean): number {
    if (this.cancelled) {
      this.view.state = 'cancelled';
      return 0;
    }
    const { args, view } = this;
    const rate = args.ratePerSecond > 0 ? args.ratePerSecond : MAX_JOB_RATE;
    const allowed = Math.min(view.total, Math.floor((elapsedMs / 1000) * rate));
    const before = view.done;
    try {
      while (view.done < allowed && inTime()) {
        const count = Math.min(SEND_RUN, allowed - view.done);
        this.apps.apply({
          op: 'produceRecords',
          topic: args.topic,
          from: view.done,
          count,
          keyPrefix: args.keyPrefix,
          valueBytes: args.valueBytes,
        });
        view.done += count;
      }
      if (args.ratePerSecond <= 0) this.apps.tick(JOB_TICK_MS);
    } catch (e) {
      view.state = 'failed';
      view.error = serializeError(e);
      return view.done - before;
    }
    if (view.done >= view.total) view.state = 'finished';
    return view.done - before;
  }
}
