/**
 * Jepsen-style fault schedules: a seeded, replayable list of things that happen to a cluster
 * while a producer writes to it. At most one broker is in trouble at any moment (killed,
 * powered off, or cut off from the network), so with replication factor 3 and
 * min.insync.replicas=2 every partition can always make progress once the controller has
 * reacted; the checks then hold the cluster to its promises.
 *
 * The same seed always yields the same schedule, so a failing seed is a bug report.
 */
import type { BrokerCommand } from '../commands';
import { Rng } from '../Rng';

/** A schedule's step: the broker commands the page and the scenario log use, a produce, or time passing. */
export type FaultStep =
  | { op: 'produce'; count: number; keyed: boolean }
  | { op: 'tick'; ms: number }
  | Extract<BrokerCommand, { op: 'killBroker' | 'powerFailBroker' | 'restartBroker' | 'isolateBroker' | 'healBroker' }>;

export interface FaultScheduleOptions {
  brokers: readonly number[];
  /** Number of steps before the final heal-and-settle. */
  steps: number;
  /** Most records a single produce step sends. */
  maxBatch?: number;
  /** Longest tick, ms. */
  maxTickMs?: number;
  /** How many brokers may be in trouble at once (default 1). */
  maxTroubled?: number;
}

export interface FaultSchedule {
  seed: number;
  steps: FaultStep[];
}

/** Builds the schedule for a seed. */
export function generateFaultSchedule(seed: number, options: FaultScheduleOptions): FaultSchedule {
  const rng = new Rng(seed);
  const maxBatch = options.maxBatch ?? 8;
  const maxTickMs = options.maxTickMs ?? 3000;
  const steps: FaultStep[] = [];
  const maxTroubled = options.maxTroubled ?? 1;
  // The brokers currently in trouble and how each one's trouble ends.
  const troubled: { broker: number; recover: 'restartBroker' | 'healBroker' }[] = [];
  for (let i = 0; i < options.steps; i++) {
    const x = rng.next();
    const healthy = options.brokers.filter((b) => !troubled.some((t) => t.broker === b));
    if (x < 0.4) {
      steps.push({ op: 'produce', count: 1 + rng.nextInt(maxBatch), keyed: rng.next() < 0.5 });
    } else if (x < 0.7) {
      steps.push({ op: 'tick', ms: 1 + rng.nextInt(maxTickMs) });
    } else if (troubled.length >= maxTroubled || healthy.length === 0 || (troubled.length > 0 && rng.next() < 0.5)) {
      const t = troubled.splice(rng.nextInt(troubled.length), 1)[0] as {
        broker: number;
        recover: 'restartBroker' | 'healBroker';
      };
      steps.push({ op: t.recover, broker: t.broker });
    } else {
      const broker = rng.pick(healthy);
      const kind = rng.nextInt(3);
      if (kind === 0) {
        steps.push({ op: 'killBroker', broker });
        troubled.push({ broker, recover: 'restartBroker' });
      } else if (kind === 1) {
        steps.push({ op: 'powerFailBroker', broker });
        troubled.push({ broker, recover: 'restartBroker' });
      } else {
        steps.push({ op: 'isolateBroker', broker });
        troubled.push({ broker, recover: 'healBroker' });
      }
    }
  }
  for (const t of troubled) steps.push({ op: t.recover, broker: t.broker });
  return { seed, steps };
}

export function describeStep(step: FaultStep): string {
  switch (step.op) {
    case 'produce':
      return `produce ${step.count}${step.keyed ? ' keyed' : ''}`;
    case 'tick':
      return `tick ${step.ms}ms`;
    default:
      return `${step.op.replace('Broker', '')} broker ${step.broker}`;
  }
}
