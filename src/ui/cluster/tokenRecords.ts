/**
 * What a token carries, in words: the records (offsets) a Produce request or a Fetch response
 * brings to a replica's log, the high watermark a follower's Fetch request moves. From the
 * message's effects (BoardMessageView.effects). Pure.
 */
import type { BoardMessageEffect, BoardMessageView } from '../../engine/apps/types';

function offsets(from: number, to: number): string {
  return to - from === 1 ? `offset ${from}` : `offsets ${from}–${to - 1}`;
}

function effectWords(e: BoardMessageEffect): string {
  const tp = `${e.topic}-${e.partition}`;
  if (e.field === 'leo')
    return e.to > e.from
      ? `${tp} ${offsets(e.from, e.to)} onto broker ${e.broker}'s log (LEO ${e.from} → ${e.to})`
      : `${tp} LEO of broker ${e.broker} ${e.from} → ${e.to}`;
  return e.to > e.from
    ? `${tp} HW of broker ${e.broker} ${e.from} → ${e.to} (${offsets(e.from, e.to)} committed there)`
    : `${tp} HW of broker ${e.broker} ${e.from} → ${e.to}`;
}

/** The records and offsets `m` carries (of one partition, if given), or '' when it moved none. */
export function carried(m: BoardMessageView, topic?: string, partition?: number): string {
  return (m.effects ?? [])
    .filter((e) => topic === undefined || (e.topic === topic && e.partition === partition))
    .map(effectWords)
    .join('; ');
}

/** A token's title: the message, its route, and what it carries. */
export function tokenTitle(m: BoardMessageView, route: string, topic?: string, partition?: number): string {
  const what = carried(m, topic, partition);
  return `${m.api} ${m.kind}, ${route}${what ? `: ${what}` : ''}`;
}
