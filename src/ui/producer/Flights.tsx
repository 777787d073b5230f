import { type CSSProperties, useLayoutEffect, useRef } from 'react';
import { apiColour } from '../cluster/requestApis';
import { uiStore, useUi } from '../store';
import { type Flight, withFlight } from './flightSlice';

let nextFlight = 1;

/**
 * Sends a token flying from one element to another (both found by data-testid), labelled with the
 * Kafka request it is (`api`, coloured as on the board) or, for a step inside the client, `label`.
 */
export function fly(from: string, to: string, label: string, api: string | null = null): void {
  if (typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  uiStore.setState((s) => ({ flights: withFlight(s.flights, { id: nextFlight++, from, to, label, api }) }));
}

function centre(testId: string): { x: number; y: number } | null {
  const el = document.querySelector(`[data-testid="${CSS.escape(testId)}"]`);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return null;
  return { x: r.left + Math.min(r.width / 2, 60), y: r.top + Math.min(r.height / 2, 14) };
}

function Token({ flight }: { flight: Flight }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const a = centre(flight.from);
    const b = centre(flight.to);
    const done = () => uiStore.setState((s) => ({ flights: s.flights.filter((f) => f.id !== flight.id) }));
    if (!el || !a || !b) {
      done();
      return;
    }
    // The motion runs on the compositor (transform only); React never touches these styles.
    const animation = el.animate(
      [
        { transform: `translate(${a.x}px, ${a.y}px) scale(0.6)`, opacity: 0 },
        { transform: `translate(${a.x}px, ${a.y}px) scale(1)`, opacity: 1, offset: 0.15 },
        { transform: `translate(${b.x}px, ${b.y}px) scale(1)`, opacity: 1, offset: 0.85 },
        { transform: `translate(${b.x}px, ${b.y}px) scale(0.6)`, opacity: 0 },
      ],
      { duration: 700, easing: 'ease-in-out' },
    );
    animation.onfinish = done;
    return () => animation.cancel();
  }, [flight]);
  return (
    <div
      ref={ref}
      className="flight-token"
      data-testid="flight-token"
      data-api={flight.api ?? ''}
      style={flight.api ? ({ '--api-colour': apiColour(flight.api) } as CSSProperties) : undefined}
    >
      {flight.api ? `${flight.api} · ${flight.label}` : flight.label}
    </div>
  );
}

/** The layer the tokens fly in: under the controls (styles.css), ignoring the pointer. */
export function FlightLayer() {
  const flights = useUi((s) => s.flights);
  return (
    <div className="flight-layer" aria-hidden="true">
      {flights.map((f) => (
        <Token key={f.id} flight={f} />
      ))}
    </div>
  );
}
