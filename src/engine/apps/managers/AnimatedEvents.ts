/**
 * The engine events the page narrates or animates, kept until the host's next frame takes them
 * (at most MAX_EVENTS). The per-fetch and per-append flood is left out: the views read state.
 */
import type { Engine, PlacementStep } from '../../index';
import type { EngineEvent } from '../types';

const MAX_EVENTS = 1500;

const ANIMATED = new Set<string>([
  'znodeCreated',
  'znodeDataChanged',
  'znodeDeleted',
  'sessionExpired',
  'watchFired',
  'controllerElected',
  'controllerResigned',
  'staleControllerRequestRejected',
  'brokerDown',
  'brokerStarted',
  'controlledShutdown',
  'partitionOffline',
  'partitionStateChanged',
  'isrChangeRequested',
  'uncleanLeaderElection',
  'replicaTruncated',
  'reassignmentStarted',
  'reassignmentCompleted',
  'preferredLeaderElection',
  'topicCreated',
  'groupStateChanged',
  'groupGenerationCompleted',
  'groupMemberRemoved',
  'consumerRebalanceCallback',
]);

export class AnimatedEvents {
  private events: EngineEvent[] = [];
  /** The placement steps of the topic being created (they ride on its topicCreated event). */
  private placementSteps: PlacementStep[] | null = null;
  private readonly off: () => void;

  constructor(engine: Engine) {
    this.off = engine.subscribe((e) => this.onEvent(e), [...ANIMATED, 'groupRequestSent'] as EngineEvent['type'][]);
  }

  dispose(): void {
    this.off();
  }

  /** Runs `create` (a topic's creation) with its placement steps attached to the topicCreated it emits. */
  withPlacementSteps(steps: PlacementStep[], create: () => void): void {
    this.placementSteps = steps;
    try {
      create();
    } finally {
      this.placementSteps = null;
    }
  }

  /** The events since the last call (the host's frame carries them to the page). */
  take(): EngineEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }

  private onEvent(e: EngineEvent): void {
    if (e.type === 'topicCreated' && this.placementSteps) e.placementSteps = this.placementSteps;
    if (!isAnimated(e)) return;
    if (this.events.length >= MAX_EVENTS) this.events.shift();
    this.events.push(slim(e));
  }
}

function isAnimated(e: EngineEvent): boolean {
  if (e.type === 'groupRequestSent')
    return e.api === 'JoinGroup' || e.api === 'SyncGroup' || e.api === 'FindCoordinator' || e.api === 'LeaveGroup';
  return ANIMATED.has(e.type);
}

/**
 * Group requests carry protocol bytes (subscriptions, assignments) the page never reads; they are
 * replaced by what the narration needs, so frames stay small.
 */
function slim(e: EngineEvent): EngineEvent {
  if (e.type !== 'groupRequestSent' && e.type !== 'groupResponseSent') return e;
  const b = e.body as { api: string; groupId?: string; key?: string; assignments?: unknown[] };
  const body = {
    api: b.api,
    ...(b.groupId !== undefined ? { groupId: b.groupId } : {}),
    ...(b.key !== undefined ? { key: b.key } : {}),
    ...(b.assignments !== undefined ? { assignments: b.assignments.map(() => ({})) } : {}),
  };
  return { ...e, body } as EngineEvent;
}
