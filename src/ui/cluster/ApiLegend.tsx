/**
 * The colour legend of the request tokens: one swatch per Kafka API seen on the board since the
 * page opened (tokens come and go too fast to learn their colours from them alone).
 */
import { type CSSProperties, useRef } from 'react';
import type { BoardView } from '../../engine/apps/types';
import { apiColour, legendApis } from './requestApis';

export function ApiLegend({ view }: { view: BoardView }) {
  // Every API seen so far, kept across views so the legend does not flicker as tokens land.
  const seen = useRef(new Set<string>());
  for (const m of view.messages) seen.current.add(m.api);
  const apis = legendApis(seen.current);
  if (apis.length === 0) return null;
  return (
    <ul className="api-legend small" data-testid="api-legend" aria-label="Request colours">
      {apis.map((api) => (
        <li key={api} data-testid={`api-legend-${api}`} data-api={api}>
          <span className="api-swatch" style={{ '--api-colour': apiColour(api) } as CSSProperties} aria-hidden="true" />
          {api}
        </li>
      ))}
    </ul>
  );
}
