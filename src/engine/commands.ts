/**
 * The commands that happen to a broker, shared by everything that drives a cluster: the page's
 * actions and the scenario log (EngineCommand in engine/apps, which extends this union) and the
 * fault schedules (FaultStep). One union, one dispatcher, so a kill from the page, from a link
 * and from a Jepsen-style schedule is the same call.
 */
import type { Cluster } from './cluster/Cluster';

export type BrokerCommand =
  /** The process dies: no controlled shutdown, the session expires (kill -9). */
  | { op: 'killBroker'; broker: number }
  /** The machine loses power: what the disk had not made durable is lost with it. */
  | { op: 'powerFailBroker'; broker: number }
  /** A controlled shutdown (leadership moved away first). */
  | { op: 'stopBroker'; broker: number }
  | { op: 'restartBroker'; broker: number }
  /** The broker is cut off from the network (it keeps running). */
  | { op: 'isolateBroker'; broker: number }
  | { op: 'healBroker'; broker: number };

export const BROKER_COMMAND_OPS: readonly BrokerCommand['op'][] = [
  'killBroker',
  'powerFailBroker',
  'stopBroker',
  'restartBroker',
  'isolateBroker',
  'healBroker',
];

export function isBrokerCommand(c: { op: string }): c is BrokerCommand {
  return (BROKER_COMMAND_OPS as readonly string[]).includes(c.op);
}

/**
 * Runs a broker command on the cluster: each op is the Cluster method of the same name (which
 * refuses an unknown broker with its KafkaError).
 */
export function runBrokerCommand(cluster: Cluster, c: BrokerCommand): void {
  cluster[c.op](c.broker);
}
