/**
 * A broker as every surface draws it (the strip, the board's card, the partition rows' column):
 * one state, named the same everywhere, from the engine's view of the process and of its
 * ZooKeeper session. Kafka has a state between alive and dead: after kill -9 the process is gone,
 * but its ZooKeeper session lives on until zookeeper.session.timeout.ms passes without a
 * heartbeat; until then /brokers/ids/<id> (and /controller, if it was the controller) still name
 * it, and the controller has not reacted (its replicas keep leadership on paper). Pure.
 */
import type { BoardBrokerView, BoardView, ZnodeView } from '../../engine/apps/types';

export type BrokerDrawnState =
  /** Running and registered. */
  | 'alive'
  /** Running, cut off the network (and from ZooKeeper). */
  | 'isolated'
  /** Process gone, its ZooKeeper session not expired yet. */
  | 'session-alive'
  /** Process gone and its session expired (or closed). */
  | 'down'
  /** Controlled shutdown under way. */
  | 'shutting-down'
  /** Running, not (yet or any more) registered in ZooKeeper. */
  | 'unregistered';

export interface BrokerDrawn {
  state: BrokerDrawnState;
  /** While the session outlives the process: engine ms until it expires. */
  sessionLeftMs: number | null;
}

export function brokerDrawn(b: BoardBrokerView, nowMs: number, sessionTimeoutMs: number): BrokerDrawn {
  if (b.state === 'down') {
    if (!b.alive) return { state: 'down', sessionLeftMs: null };
    // CoordinationStore.expireSessions: expired once now - lastHeartbeat >= the session timeout.
    const left = b.lastHeartbeatMs === null ? 0 : Math.max(0, b.lastHeartbeatMs + sessionTimeoutMs - nowMs);
    return { state: 'session-alive', sessionLeftMs: left };
  }
  if (b.state === 'shuttingDown') return { state: 'shutting-down', sessionLeftMs: null };
  if (b.isolated) return { state: 'isolated', sessionLeftMs: null };
  return { state: b.alive ? 'alive' : 'unregistered', sessionLeftMs: null };
}

/** Seconds, one decimal: a countdown that moves with the engine's clock. */
function seconds(ms: number): string {
  return (Math.ceil(ms / 100) / 10).toFixed(1);
}

/** The state in words, the same on every surface. */
export function brokerWords(d: BrokerDrawn): string {
  switch (d.state) {
    case 'session-alive':
      return `process gone, session alive for ${seconds(d.sessionLeftMs ?? 0)} s`;
    case 'shutting-down':
      return 'shutting down';
    default:
      return d.state;
  }
}

/** The broker /controller names (its process may be gone while its session lives), or null. */
export function controllerZnode(znodes: readonly ZnodeView[]): number | null {
  const node = znodes.find((z) => z.path === '/controller');
  if (!node) return null;
  const m = /"brokerid":\s*(\d+)/.exec(node.data);
  return m ? Number(m[1]) : null;
}

export interface ControllerDrawn {
  /** The broker drawn with the controller badge, or null: no controller, an election in progress. */
  broker: number | null;
  /** The badge's broker has no running process: /controller still names it until its session expires. */
  processGone: boolean;
}

/**
 * The controller as drawn: the active one; else the broker /controller still names (its process
 * is gone, its session not yet: nobody else can take over before the ephemeral node goes); else
 * nobody, while the brokers race to create /controller.
 */
export function controllerDrawn(view: Pick<BoardView, 'controller' | 'znodes'>): ControllerDrawn {
  if (view.controller !== null) return { broker: view.controller, processGone: false };
  const named = controllerZnode(view.znodes);
  return named === null ? { broker: null, processGone: false } : { broker: named, processGone: true };
}

/** What the strip, the board and the rows say when no broker is controller. */
export const NO_CONTROLLER_WORDS = 'no controller: election in progress';
