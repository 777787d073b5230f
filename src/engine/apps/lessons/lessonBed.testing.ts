/**
 * A lesson's headless test bed: the lesson's scenario (preset + seed) in ClusterApps over an
 * in-memory store, the seeds' example adopted through the engine's recovered-logs map as the
 * worker does, and a replay of the lesson's steps. golden.test.ts and the lessons' own tests
 * share it.
 */
import { DataPath, StoreWriter, type UnifiedLog } from '../../index';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import { addSeedsLookupExample } from '../demo';
import { LessonJournal } from './journal';
import { type LessonTrace, replayLesson } from './replay';
import type { Lesson } from './types';
import { lessonWorld } from './world';

/** Replays `lesson` (or its `steps` instead) from its scenario, headless. */
export function replayHeadless(lesson: Lesson, steps: Lesson['steps'] = lesson.steps): Promise<LessonTrace> {
  const store = new MapStore();
  const writer = new StoreWriter(store);
  const recoveredLogs = new Map<string, UnifiedLog>();
  const apps = ClusterApps.fromScenario(
    { seed: lesson.seed, preset: lesson.preset, actions: [], untilMs: 0 },
    { store, writer, recoveredLogs, panelProducer: true },
  );
  const data = new DataPath(apps.engine, recoveredLogs);
  const journal = new LessonJournal(apps.engine);
  const host = {
    apps,
    data,
    seedsLookupExample() {
      addSeedsLookupExample(data, apps.clock, writer);
      apps.tick(200);
    },
  };
  return replayLesson({ ...lesson, steps }, host, () => lessonWorld(apps, data, journal));
}
