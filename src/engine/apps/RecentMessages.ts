import type { BoardMessageEffect, BoardMessageView } from './types';

/**
 * The network's recent messages the page draws as tokens: every request and response the engine
 * sends (the brokers' follower Fetches, the producers' Produce, the controller's LeaderAndIsr,
 * UpdateMetadata and StopReplica, the brokers' AlterPartition and ControlledShutdown, the
 * consumers' group requests), each family capped on its own so a busy stream never crowds a
 * rare one out and the frame stays bounded however busy the cluster is.
 *
 * Ids are the board's own, counted in the order the engine sent the messages, so sorting by send
 * time then id is engine order.
 */
export type MessageFamily = 'replication' | 'produce' | 'controller' | 'group' | 'chatter';

/**
 * How many of each family are kept, newest last. Heartbeats and the consumers' fetches,
 * ListOffsets and Metadata ("chatter") come every few hundred ms from every consumer, so only the
 * latest few are kept: a sample, not the whole stream.
 */
export const MESSAGE_CAPS: Readonly<Record<MessageFamily, number>> = {
  replication: 24,
  produce: 12,
  controller: 24,
  group: 16,
  chatter: 6,
};

/** The most messages a frame ever carries. */
export const MAX_BOARD_MESSAGES = Object.values(MESSAGE_CAPS).reduce((a, b) => a + b, 0);

const CONTROLLER_APIS = new Set([
  'LeaderAndIsr',
  'UpdateMetadata',
  'StopReplica',
  'ControlledShutdown',
  'AlterPartition',
]);
const GROUP_APIS = new Set(['FindCoordinator', 'JoinGroup', 'SyncGroup', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch']);

/** Which family a message is kept in: broker-to-broker Fetch is replication, a client's Fetch is chatter. */
export function familyOf(api: string, clientEnd: boolean): MessageFamily {
  if (api === 'Fetch') return clientEnd ? 'chatter' : 'replication';
  if (api === 'Produce' || api === 'InitProducerId') return 'produce';
  if (CONTROLLER_APIS.has(api)) return 'controller';
  if (GROUP_APIS.has(api)) return 'group';
  return 'chatter';
}

export class RecentMessages {
  private readonly byFamily = new Map<MessageFamily, BoardMessageView[]>();
  /** The kept messages of the broker network by their network id, so their effects can be added. */
  private readonly byNetworkId = new Map<number, BoardMessageView>();
  private readonly networkIds = new WeakMap<BoardMessageView, number>();
  private nextId = 1;

  /**
   * Keeps one message (its id is assigned here); a message with no broker end is not drawn.
   * `networkId`: the network's own id of it, for effects.
   */
  add(m: Omit<BoardMessageView, 'id'>, networkId?: number): void {
    if (m.from === null && m.to === null) return;
    const family = familyOf(m.api, m.client !== null);
    let list = this.byFamily.get(family);
    if (!list) this.byFamily.set(family, (list = []));
    const kept: BoardMessageView = { ...m, id: this.nextId++ };
    list.push(kept);
    if (networkId !== undefined) {
      this.byNetworkId.set(networkId, kept);
      this.networkIds.set(kept, networkId);
    }
    if (list.length > MESSAGE_CAPS[family]) {
      const gone = list.shift() as BoardMessageView;
      const id = this.networkIds.get(gone);
      if (id !== undefined) this.byNetworkId.delete(id);
    }
  }

  /**
   * A replica offset the message with network id `networkId` moved on arrival (the engine's event
   * names its cause). Two moves of one field in one delivery are one effect, from the first
   * value to the last. False when that message is not kept (nothing to draw it on).
   */
  addEffect(networkId: number, effect: BoardMessageEffect): boolean {
    const m = this.byNetworkId.get(networkId);
    if (!m) return false;
    const effects = (m.effects ??= []);
    const same = effects.find(
      (e) =>
        e.field === effect.field &&
        e.broker === effect.broker &&
        e.partition === effect.partition &&
        e.topic === effect.topic,
    );
    if (same) same.to = effect.to;
    else effects.push(effect);
    return true;
  }

  /** Those still in flight or arrived at most `lingerMs` before `nowMs`, in engine order. */
  live(nowMs: number, lingerMs: number): BoardMessageView[] {
    const out: BoardMessageView[] = [];
    for (const list of this.byFamily.values()) {
      for (const m of list) if (m.arriveAtMs + lingerMs >= nowMs) out.push(m);
    }
    return out.sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
  }
}
