/**
 * What a group card and a consumer chip are given, and when they are drawn again: when a prop is
 * another object (sameProps.ts). The board view keeps the identity of every part that did not
 * change (keepIdentity.ts, in boardFramePatch), so a card re-renders when its group, its
 * consumers or its crash changed, whatever field moved. Only the fields that move every frame
 * and that the detail panel draws, not the card, are skipped.
 */
import type { ConsumerCrashView, BoardConsumerView, BoardGroupView } from '../../engine/apps/types';
import type { Session } from '../session';
import { sameProps } from '../sameProps';

export interface GroupCardProps {
  session: Session;
  /** Every group on the board, comma-joined (a string, so unchanged cards skip re-rendering). */
  groupIds: string;
  group: BoardGroupView;
  consumers: BoardConsumerView[];
  crash: ConsumerCrashView | undefined;
  selected: boolean;
  onSelect: (groupId: string) => void;
}

export interface ChipProps {
  session: Session;
  /** Every group on the board, comma-joined (a string, so unchanged chips skip re-rendering). */
  groupIds: string;
  consumer: BoardConsumerView;
  leader: boolean;
}

/** A consumer's fetch positions and consumed count move with every poll; the positions view draws them. */
const CONSUMER_PROGRESS = ['positions', 'recordsConsumed'] as const satisfies readonly (keyof BoardConsumerView)[];
/** A group's lag and generations history grow every engine second; the detail panel draws them. */
const GROUP_HISTORY = ['lag', 'lagNow', 'generations'] as const satisfies readonly (keyof BoardGroupView)[];

export const sameGroupCard = sameProps<GroupCardProps>({ group: GROUP_HISTORY, consumers: CONSUMER_PROGRESS });

export const sameChip = sameProps<ChipProps>({ consumer: CONSUMER_PROGRESS });
