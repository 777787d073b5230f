import { describe, expect, it } from 'vitest';
import { chipWidth, collide, type Flight, groupLabel, placeFlights } from './tokenLanes';

const LANES = [-9, 9];

const flight = (id: string, startsAt: number, x0: number, x1: number, y = 100): Flight => ({
  id,
  startsAt,
  landsAt: startsAt + 600,
  x0,
  y0: y,
  x1,
  y1: y,
  width: chipWidth('Produce'),
});

describe('token lanes: no two labels overlap', () => {
  it('two tokens on the same short path 150 ms apart would overlap: the second takes the other lane', () => {
    const a = flight('a', 0, 0, 200);
    const b = flight('b', 150, 0, 200);
    expect(collide(a, b)).toBe(true);
    const p = placeFlights([a, b], new Map(), LANES);
    expect(p.get('a')).toEqual({ lane: 0 });
    expect(p.get('b')).toEqual({ lane: 1 });
  });

  it('a token finding every lane taken joins the chip it would cover (grouped, labelled with the count)', () => {
    const p = placeFlights(
      [flight('a', 0, 0, 200), flight('b', 100, 0, 200), flight('c', 200, 0, 200)],
      new Map(),
      LANES,
    );
    expect(p.get('c')).toEqual({ into: 'a' });
    expect(groupLabel(['Fetch', 'Fetch', 'Fetch'])).toBe('Fetch ×3');
    expect(groupLabel(['LeaderAndIsr', 'UpdateMetadata'])).toBe('LeaderAndIsr +1');
    expect(groupLabel(['Fetch', 'LeaderAndIsr'])).toBe('LeaderAndIsr +1');
  });

  it('tokens far apart in time or in another row share a lane; placements stay as first given', () => {
    const a = flight('a', 0, 0, 200);
    const later = flight('later', 700, 0, 200);
    const below = flight('below', 0, 0, 200, 160);
    const p = placeFlights([a, later, below], new Map(), LANES);
    expect([p.get('later'), p.get('below')]).toEqual([{ lane: 0 }, { lane: 0 }]);
    // A new view: b already in lane 1 stays there even though lane 0 is free now.
    const q = placeFlights([flight('b', 150, 0, 200)], new Map([['b', { lane: 1 }]]), LANES);
    expect(q.get('b')).toEqual({ lane: 1 });
  });
});
