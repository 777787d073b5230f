import { describe, expect, it } from 'vitest';
import type { BoardMessageView } from '../../engine/apps/types';
import { carried, tokenTitle } from './tokenRecords';

const m = (api: string, kind: 'request' | 'response', effects: BoardMessageView['effects']): BoardMessageView => ({
  id: 1,
  api,
  kind,
  from: 1,
  to: 2,
  client: null,
  sentAtMs: 0,
  arriveAtMs: 1,
  effects,
});

describe('what a token carries', () => {
  it('a Fetch response names the records it brings to the follower', () => {
    const f = m('Fetch', 'response', [
      { topic: 'orders', partition: 0, broker: 2, field: 'leo', from: 5, to: 7 },
      { topic: 'orders', partition: 0, broker: 2, field: 'hw', from: 4, to: 5 },
    ]);
    expect(carried(f, 'orders', 0)).toBe(
      "orders-0 offsets 5–6 onto broker 2's log (LEO 5 → 7); orders-0 HW of broker 2 4 → 5 (offset 4 committed there)",
    );
    expect(tokenTitle(f, 'broker 1 → broker 2', 'orders', 1)).toBe('Fetch response, broker 1 → broker 2');
  });
});
