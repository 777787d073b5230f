/**
 * The flying tokens' slice of the page's one store (store.ts): the records and batches in flight
 * between two places on the page, drawn by Flights.tsx.
 */

/** A record in flight between two places on the page (each a data-testid). */
export interface Flight {
  id: number;
  from: string;
  to: string;
  label: string;
  /** The Kafka request it is (Produce for a batch on its way to the leader), or null for a step
   * inside the client (a record handed to the accumulator by send()). */
  api: string | null;
}

/** At most this many tokens fly at once: the oldest give way. */
const MAX_FLIGHTS = 9;

export function withFlight(flights: readonly Flight[], flight: Flight): Flight[] {
  return [...flights.slice(-(MAX_FLIGHTS - 1)), flight];
}
