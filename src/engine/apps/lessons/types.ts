/**
 * The lesson model: a lesson is a scenario (preset + seed) and steps. A step with a question asks
 * the learner to predict *before* its actions run; the answer is locked (or the question
 * skipped), then the actions run, engine time passes until the step's condition holds, and the
 * engine's result is revealed beside the prediction, with why. Every step names what on the page
 * it is about (`look`). Everything here is data plus pure functions of a LessonWorld, so the
 * worker and the golden-trace test judge a step the same way.
 */
import type { LookupStep, LookupView, PartitionView } from '../../index';
import type { JournalEntry, OffsetEntry } from './journal';
import type { ScenarioAction, BoardView, PresetName } from '../types';

/** What a step may do when it starts: a recorded scenario action, or the seeds' lookup partition. */
export type LessonAction = ScenarioAction | { op: 'seedsLookupExample' };

/** Engine state a condition, an observation or an answer may read (built by `lessonWorld`). */
export interface LessonWorld {
  view: BoardView;
  /** Every user partition's log as its leader replica has it. */
  logs: PartitionView[];
  lookup(topic: string, partition: number, target: { kind: 'offset' | 'timestamp'; value: number }): LookupView;
  /** RecordBatches in a partition's log (all segments), or only those from `fromOffset` on. */
  batchCount(topic: string, partition: number, fromOffset?: number): number;
  /** The page producer's deliveries (acks answered, failures and the last error name). */
  panel: { acked: number; failed: number; lastError: string | null };
  /** Causes: who changed an ISR, who elected a leader, which produce was refused (since the lesson began). */
  journal: readonly JournalEntry[];
  /** Consumers' offsets traffic: OffsetCommits sent, SyncGroup and OffsetFetch answers (since the lesson began). */
  offsets: readonly OffsetEntry[];
  /** The partition the engine's partitioner gives a key: toPositive(murmur2(utf8(key))) % n. */
  partitionForKey(key: string, partitions: number): number;
}

export type Observation = Record<string, string | number | boolean | null | (string | number)[]>;

/**
 * What on the page a step is about: the page opens its tab or panel, scrolls it into view beside
 * the lesson card and marks it.
 */
export type LessonTarget =
  /** A partition's row (its replicas, LEO, HW, ISR and segments). */
  | { kind: 'partition'; topic: string; partition: number }
  /** A broker's card on the brokers board (controller badge, replicas). */
  | { kind: 'broker'; broker: number }
  /** A consumer group's card (state, generation, members), one member's chip in it, or its last crash's outcome. */
  | { kind: 'group'; group: string; member?: string; crash?: true }
  /** The ZooKeeper znode tree, at `path` (or the nearest ancestor drawn). */
  | { kind: 'znodes'; path: string }
  /**
   * The offset lookup stepper on this lookup, stepped through the last step of kind `through`,
   * marking the stage `show` (the one the step asks about; by default the one `through` is in).
   */
  | {
      kind: 'lookup';
      topic: string;
      partition: number;
      offset: number;
      through: LookupStep['kind'];
      show?: 'segments' | 'index' | 'scan';
    }
  /** The producer's record accumulator (open batches, linger.ms, batch.size). */
  | { kind: 'accumulator' };

export interface LessonQuestion {
  /** Asked before the step's actions run: it gives the setting, never the answer. */
  prompt: string;
  choices: string[];
  /** The engine's result, one of the choices, read once the step's condition holds. */
  answer(w: LessonWorld, startedAtMs: number): string;
  /** Why the engine did that, in Kafka's words and with the engine's numbers. */
  because(w: LessonWorld, startedAtMs: number): string;
}

export interface LessonStep {
  /** What happened: shown once the learner has answered (or skipped) and the actions ran. */
  text: string;
  /** What the step is about on the page, from its start (while the learner predicts). */
  look: LessonTarget;
  /** Where to look once the condition holds, when that is somewhere else (the lookup stepper's next stage). */
  lookAfter?: LessonTarget;
  actions?: LessonAction[];
  /** Gates Next; `startedAtMs` is the engine time the actions ran. Absent: met at once. */
  until?: { label: string; met(w: LessonWorld, startedAtMs: number): boolean };
  /** The key moment: the page drops to real time (1x) and says so. */
  slow?: boolean;
  /** A passing moment: the page pauses the clock when the condition holds, so the next step acts right then. */
  hold?: boolean;
  /** What this step promises, recorded in the golden trace once its condition holds. */
  observe?(w: LessonWorld): Observation;
  question?: LessonQuestion;
}

export type LessonConcept = 'storage' | 'producer' | 'replication' | 'controller' | 'groups';

export interface Lesson {
  id: string;
  concept: LessonConcept;
  title: string;
  preset: PresetName;
  seed: number;
  /** The source post it follows (named, never by its file number) and what of it: the header's tooltip. */
  source: string;
  /** Where the source simplifies Kafka; shown once the lesson's last question is answered, as it may tell. */
  note?: string;
  steps: LessonStep[];
}

/** A lesson as the page receives it: the same lesson, its functions replaced by their texts. */
export type LessonSummary = Omit<Lesson, 'note' | 'steps'> & {
  note: string | null;
  steps: LessonStepSummary[];
};

/** A step without its functions: the gate's label only, the question without its answer. */
export type LessonStepSummary = Pick<LessonStep, 'text' | 'look'> &
  Required<Pick<LessonStep, 'actions' | 'slow' | 'hold'>> & {
    lookAfter: LessonTarget | null;
    until: string | null;
    question: Pick<LessonQuestion, 'prompt' | 'choices'> | null;
  };

/** The worker's judgement of one step: its condition, its observation, the question's answer. */
export interface LessonProbe {
  met: boolean;
  observed: Observation | null;
  /** Only once the condition holds (after the actions ran): predict first, reveal after. */
  answer: string | null;
  because: string | null;
}
