/** One lesson journal per running cluster, begun at its first lesson probe (a lesson probes before its first action). */
import { type ClusterApps, LessonJournal } from '../engine/apps';

export class LessonJournals {
  private readonly journals = new WeakMap<ClusterApps, LessonJournal>();

  of(plane: ClusterApps): LessonJournal {
    let j = this.journals.get(plane);
    if (!j) {
      j = new LessonJournal(plane.engine);
      this.journals.set(plane, j);
    }
    return j;
  }
}
