/**
 * The network's messages the page draws as tokens: every request and answer on the engine's one
 * network (brokers, producers, consumers, a host's real clients), kept by family (RecentMessages), with what each delivery
 * changed on arrival (a replica's LEO or HW: the engine's events name their cause). None are kept
 * above MESSAGE_BROKERS_MAX brokers: the cluster is then drawn at scale, without tokens.
 */
import type { Engine } from '../../index';
import { RecentMessages } from '../RecentMessages';
import type { EngineEvent, BoardMessageView } from '../types';
import { toScenarioMs } from '../scenarioTime';

/** No messages are kept above this many brokers (the cluster is drawn at scale). */
const MESSAGE_BROKERS_MAX = 12;

const MESSAGE_EVENT_TYPES = [
  'messageSent',
  // What the network's deliveries changed (their cause): drawn when the message's token lands.
  'logAppended',
  'highWatermarkChanged',
] as const;

/** What the views read of the message log. */
export interface MessageLogRead {
  /** Those still in flight or arrived at most `lingerMs` before `nowMs` (engine ms since the scenario started), in engine order. */
  live(nowMs: number, lingerMs: number): BoardMessageView[];
}

export class MessageLog implements MessageLogRead {
  private readonly recent = new RecentMessages();
  /** A host's client nodes by the client.id their requests carry (the Node host's real clients). */
  private readonly clientIds = new Map<string, string>();
  private readonly off: () => void;

  constructor(private readonly engine: Engine) {
    this.off = engine.subscribe((e) => this.onEvent(e), [...MESSAGE_EVENT_TYPES]);
  }

  dispose(): void {
    this.off();
  }

  live(nowMs: number, lingerMs: number): BoardMessageView[] {
    return this.recent.live(nowMs, lingerMs);
  }

  /** A real client's connection (network node) is drawn by the client.id it sends. */
  nameClient(node: string, clientId: string): void {
    this.clientIds.set(node, clientId);
  }

  /** What a request did to a user partition's replica (its LEO or HW moved), drawn with its token. */
  private effect(
    e: { cause?: { id: number } | null; topic: string; partition: number; broker: number },
    field: 'leo' | 'hw',
    from: number,
    to: number,
  ): void {
    if (!e.cause || e.topic.startsWith('__')) return;
    this.recent.addEffect(e.cause.id, { topic: e.topic, partition: e.partition, broker: e.broker, field, from, to });
  }

  private onEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'messageSent':
        if (this.engine.cluster.brokers.size <= MESSAGE_BROKERS_MAX) this.record(e);
        return;
      case 'logAppended':
        this.effect(e, 'leo', e.firstOffset, e.logEndOffset);
        return;
      case 'highWatermarkChanged':
        this.effect(e, 'hw', e.old, e.new);
        return;
      default:
        return;
    }
  }

  /** Keeps a message the network sent, as the page draws it. */
  private record(e: Extract<EngineEvent, { type: 'messageSent' }>): void {
    const times = { sentAtMs: toScenarioMs(e.sentAtMs), arriveAtMs: toScenarioMs(e.arriveAtMs) };
    const from = brokerIdOf(e.from);
    const to = brokerIdOf(e.to);
    const node = from === null ? e.from : to === null ? e.to : null;
    const client = node === null ? null : (this.clientIds.get(node) ?? node);
    this.recent.add({ ...times, api: e.api, kind: e.kind, from, to, client }, e.id);
  }
}

/** The broker id of a broker's network node (`broker-<id>`, see brokerNodeId); null for a client. */
function brokerIdOf(node: string): number | null {
  const m = /^broker-(\d+)$/.exec(node);
  return m ? Number(m[1]) : null;
}
