import { useMemo } from 'react';
import type { BoardGroupView } from '../../engine/apps/types';
import { useRebalanceQueue } from './phaseBoard';
import { hiddenFrom } from './phaseQueue';

/**
 * The group as its timeline may draw it: a generation the rebalance shown has not reached
 * assign for yet stays out, so the timeline grows with the phases, not ahead of them.
 */
export function useShownGenerations(group: BoardGroupView): BoardGroupView {
  const from = hiddenFrom(useRebalanceQueue(group.groupId));
  return useMemo(
    () => (from === null ? group : { ...group, generations: group.generations.filter((g) => g.generation < from) }),
    [group, from],
  );
}
