/**
 * Collects an assignor's decisions for the UI when asked to; assignors call it only when one is
 * present, so the benchmark path pays nothing for explanations.
 */
import type { GroupSubscription } from './GroupSubscription';
import type { AssignmentStep } from './types';

export class AssignmentRecorder {
  readonly steps: AssignmentStep[] = [];

  constructor(private readonly group: GroupSubscription) {}

  record(
    action: AssignmentStep['action'],
    member: number,
    partition: number,
    reason: string,
    fromMember?: number,
  ): void {
    const step: AssignmentStep = {
      action,
      memberId: this.group.members[member]?.memberId as string,
      topic: this.group.topicOf(partition),
      partition: this.group.partitionOf(partition),
      reason,
    };
    if (fromMember !== undefined) step.fromMemberId = this.group.members[fromMember]?.memberId as string;
    this.steps.push(step);
  }
}
