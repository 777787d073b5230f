/**
 * The board's slice of the page's one store (store.ts: `useBoard`, `setBoard`): the
 * latest BoardView from the worker, plus what the page derives from engine events for motion —
 * the election and rebalance narrations, znodes that just changed (to flash them), and a
 * placement being stepped through. Nothing here is invented, every line comes from an engine
 * event or view.
 */
import type {
  EventLogView,
  MetricsView,
  PlacementPreview,
  EngineEvent,
  BoardView,
  ScenarioSpec,
} from '../../engine/apps/types';
import { keepIdentity } from '../keepIdentity';
import { type GroupStoryLine, narrate, type StoryLine } from './narrate';

export type { GroupStoryLine, StoryLine };

export type BoardTab = 'cluster' | 'groups' | 'scenarios';

export interface PlacementShow {
  title: string;
  preview: PlacementPreview;
  /** How many steps are shown so far. */
  shown: number;
  /** 'preview' before the topic exists; 'created' replays the engine's own steps of a created topic. */
  source: 'preview' | 'created';
}

export interface BoardState {
  view: BoardView | null;
  tab: BoardTab;
  story: StoryLine[];
  groupStory: GroupStoryLine[];
  /** Znode path -> engine ms of its last change, for the flash. */
  changedZnodes: Record<string, number>;
  /** The last refused action's error, in words. */
  error: string | null;
  /** A notice about the link the page was opened with (e.g. it was invalid). */
  linkNotice: string | null;
  /** The link's scenario when opening it was declined: it can still be opened from the notice. */
  pendingLink: ScenarioSpec | null;
  placement: PlacementShow | null;
  /** A consumer picked up with the keyboard, waiting for a group to be chosen. */
  picked: string | null;
  /** The one event log and Kafka's metrics, as the worker last sent them (asked for while their tab is open). */
  eventLog: EventLogView | null;
  metrics: MetricsView | null;
  /** What the event last chosen in the log is about: the board highlights it. */
  focus: EventFocus | null;
}

export interface EventFocus {
  /** The entry's n. */
  entry: number;
  brokers: number[];
  /** `<topic>-<partition>` */
  partitions: string[];
  groups: string[];
}

export const initialBoardState: BoardState = {
  view: null,
  tab: 'cluster',
  story: [],
  groupStory: [],
  changedZnodes: {},
  error: null,
  linkNotice: null,
  pendingLink: null,
  placement: null,
  picked: null,
  eventLog: null,
  metrics: null,
  focus: null,
};

const MAX_STORY = 80;
const MAX_GROUP_STORY = 150;
let nextLine = 1;

function offsetsPartitions(view: BoardView | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of view?.groups ?? []) out[g.groupId] = g.offsetsPartition;
  return out;
}

/**
 * The view with the parts the memoized cards are given (groups, consumers, crashes) kept as the
 * last view's objects wherever they did not change (keepIdentity), so a card compares its props
 * by identity. The rest stays as it came: the replication timelines and the token layers follow
 * each frame's partitions and messages as new objects (partitionTimeline's `advance` takes an
 * unchanged object as "no new view", which would drop the messages that arrived with it).
 */
export function withKeptCards(prev: BoardView | null, view: BoardView): BoardView {
  if (!prev) return view;
  return {
    ...view,
    groups: keepIdentity(prev.groups, view.groups),
    consumers: keepIdentity(prev.consumers, view.consumers),
    crashes: keepIdentity(prev.crashes, view.crashes),
  };
}

/**
 * What one frame changes in the slice: the board view when one is drawn now, and the lines,
 * znode flashes and placement its events tell.
 */
export function boardFramePatch(s: BoardState, view: BoardView | null, events: EngineEvent[]): Partial<BoardState> {
  const patch: Partial<BoardState> = {};
  if (view) patch.view = withKeptCards(s.view, view);
  if (events.length === 0) return patch;
  const n = narrate(events, offsetsPartitions(view ?? s.view));
  if (n.story.length > 0)
    patch.story = [...s.story, ...n.story.map((l) => ({ ...l, id: nextLine++ }))].slice(-MAX_STORY);
  if (n.groupStory.length > 0)
    patch.groupStory = [...s.groupStory, ...n.groupStory.map((l) => ({ ...l, id: nextLine++ }))].slice(
      -MAX_GROUP_STORY,
    );
  if (Object.keys(n.znodes).length > 0) patch.changedZnodes = { ...s.changedZnodes, ...n.znodes };
  for (const e of events) {
    if (e.type === 'topicCreated' && !e.topic.startsWith('__') && e.placementSteps.length > 0) {
      const brokers = (view ?? s.view)?.brokers.map((b) => ({ id: b.id, rack: b.rack })) ?? [];
      patch.placement = {
        title: `Placing ${e.topic}: ${e.partitions} partitions × RF ${e.replicationFactor}`,
        preview: { brokers, assignment: e.assignment, steps: e.placementSteps, error: null },
        shown: 0,
        source: 'created',
      };
    }
  }
  return patch;
}

export type { EngineEvent };
