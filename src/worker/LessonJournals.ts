/** One lesson journal per running cluster, begun at its first lesson probe (a lesson probes before its first action). */
import { type ClusterApps, LessonJournal } from '../engine/apps';

export class LessonJournals {
  private readonly journals = new WeakMap<ClusterApps, LessonJournal>();

  of(apps: ClusterApps): LessonJournal {
    let j = this.journals.get(apps);
    if (!j) {
      j = new LessonJournal(apps.engine);
      this.journals.set(apps, j);
    }
    return j;
  }
}
