/**
 * The lesson model: a lesson is a scenario (preset + seed) and steps. A step's actions run when
 * the step starts; its condition over engine state gates Next; a question asks the learner to
 * predict before the engine's answer is revealed. Everything here is data plus pure functions
 * of a LessonWorld, so the worker and the golden-trace test judge a step the same way.
 */
import type { LookupView, PartitionView } from '../../index';
import type { JournalEntry } from './journal';
import type { EngineCommand, PlaneView, PresetName } from '../types';

/** What a step may do when it starts: a recorded engine command, or the seeds' lookup partition. */
export type LessonAction = EngineCommand | { op: 'seedsLookupExample' };

/** Engine state a condition, an observation or an answer may read (built by `lessonWorld`). */
export interface LessonWorld {
  view: PlaneView;
  /** Every user partition's log as its leader replica has it. */
  logs: PartitionView[];
  lookup(topic: string, partition: number, target: { kind: 'offset' | 'timestamp'; value: number }): LookupView;
  /** RecordBatches in a partition's log (all segments). */
  batchCount(topic: string, partition: number): number;
  /** The page producer's deliveries (acks answered, failures and the last error name). */
  panel: { acked: number; failed: number; lastError: string | null };
  /** Causes: who changed an ISR, who elected a leader, which produce was refused (since the lesson began). */
  journal: readonly JournalEntry[];
  /** The partition the engine's partitioner gives a key: toPositive(murmur2(utf8(key))) % n. */
  partitionForKey(key: string, partitions: number): number;
}

export type Observation = Record<string, string | number | boolean | null | (string | number)[]>;

export interface LessonQuestion {
  prompt: string;
  choices: string[];
  /** The right choice, computed from the engine once the step's condition holds. */
  answer(w: LessonWorld): string;
}

export interface LessonStep {
  /** What the learner watches; written for after the step's actions ran. */
  text: string;
  actions?: LessonAction[];
  /** Gates Next; `startedAtMs` is the engine time the step started. Absent: met at once. */
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
  /** The seed post it follows, and where it simplifies Kafka (shown as a note). */
  source: string;
  note?: string;
  steps: LessonStep[];
}

/** A lesson as the page receives it: the same lesson, its functions replaced by their texts. */
export type LessonSummary = Omit<Lesson, 'note' | 'steps'> & {
  note: string | null;
  steps: LessonStepSummary[];
};

/** A step without its functions: the gate's label only, the question without its answer. */
export type LessonStepSummary = Pick<LessonStep, 'text'> &
  Required<Pick<LessonStep, 'actions' | 'slow' | 'hold'>> & {
    until: string | null;
    question: Pick<LessonQuestion, 'prompt' | 'choices'> | null;
  };

/** The worker's judgement of one step: its condition, its observation, the question's answer. */
export interface LessonProbe {
  met: boolean;
  observed: Observation | null;
  /** Only once the condition holds: predict first, reveal after. */
  answer: string | null;
}
