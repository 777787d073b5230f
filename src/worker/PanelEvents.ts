/**
 * The producer panel's events between two frames: every one while the page shows the accumulator,
 * else only the journey of the record the panel follows; beyond MAX_EVENTS_PER_FRAME the oldest
 * are dropped and counted (the views read state, not events).
 */
import { RecordJourney } from '../engine/apps';
import type { UiEvent } from './protocol';

/** Events kept between two frames. */
const MAX_EVENTS_PER_FRAME = 2000;

export class PanelEvents {
  /** The record whose journey the producer panel shows: its events always reach the page. */
  readonly journey = new RecordJourney();
  /** True while the page shows the accumulator (then every producer event is sent). */
  wantAll = false;
  private events: UiEvent[] = [];
  private dropped = 0;

  push(e: UiEvent): void {
    if (!this.wantAll && !this.journey.includes(e)) return;
    if (this.events.length >= MAX_EVENTS_PER_FRAME) {
      this.events.shift();
      this.dropped++;
    }
    this.events.push(e);
  }

  /** The events since the last frame, and how many were dropped; the next frame starts empty. */
  take(): { producer: UiEvent[]; dropped: number } {
    const out = { producer: this.events, dropped: this.dropped };
    this.events = [];
    this.dropped = 0;
    return out;
  }

  /** A new run: its events and the record journey belonged to the old cluster's producer. */
  forget(): void {
    this.events = [];
    this.dropped = 0;
    this.journey.forget();
  }
}
