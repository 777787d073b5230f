/**
 * Page object for the board (brokers, controller, groups, scenarios), used with the
 * shared `app` fixture from fixtures.ts. The cluster's clock is paused first so every spec
 * drives time itself ("+1 s" / "+10 s" fast-forward the board), which keeps runs deterministic.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { GlassboxPage } from './fixtures';

export class BoardPage {
  readonly page: Page;
  constructor(readonly app: GlassboxPage) {
    this.page = app.page;
  }

  /** The app opened at the demo with its clock paused (on `tab` if given): where most specs start. */
  static async paused(app: GlassboxPage, tab?: 'cluster' | 'groups' | 'scenarios'): Promise<BoardPage> {
    const board = new BoardPage(app);
    await board.open();
    await board.pause();
    if (tab) await board.tab(tab);
    return board;
  }

  /** Opens the app (optionally at a scenario link) and waits until the board is up. */
  async open(path = '/'): Promise<void> {
    await this.app.open(path);
    await expect(this.page.getByTestId('board')).toHaveAttribute('data-ready', 'true');
  }

  /** Pauses the shared engine clock so only the spec moves time. */
  async pause(): Promise<void> {
    const play = this.page.getByTestId('time-play');
    if ((await play.getAttribute('aria-pressed')) === 'true') await play.click();
    await expect(play).toHaveAttribute('aria-pressed', 'false');
  }

  async tab(tab: 'cluster' | 'groups' | 'scenarios'): Promise<void> {
    await this.page.getByTestId(`board-tab-${tab}`).click();
  }

  /** Fast-forwards the cluster by `seconds` (in 10 s and 1 s presses). */
  async advance(seconds: number): Promise<void> {
    let left = seconds;
    while (left >= 10) {
      await this.page.getByTestId('board-advance-10000').click();
      left -= 10;
    }
    while (left >= 1) {
      await this.page.getByTestId('board-advance-1000').click();
      left -= 1;
    }
  }

  /** Engine ms since the scenario started. */
  async now(): Promise<number> {
    return Number(await this.page.getByTestId('board-clock').getAttribute('data-now'));
  }

  broker(id: number): Locator {
    return this.page.getByTestId(`broker-${id}`);
  }

  replica(topic: string, p: number, broker: number): Locator {
    return this.page.getByTestId(`replica-${topic}-${p}-${broker}`);
  }

  group(id: string): Locator {
    return this.page.getByTestId(`group-${id}`);
  }

  consumer(name: string): Locator {
    return this.page.getByTestId(`consumer-${name}`);
  }

  async generation(group: string): Promise<number> {
    return Number(await this.group(group).getAttribute('data-generation'));
  }

  /** The broker leading a partition, read from the replica marked leader. */
  async leaderOf(topic: string, p: number): Promise<number | null> {
    const leader = this.page.locator(`[data-testid^="replica-${topic}-${p}-"][data-role="leader"]`);
    if ((await leader.count()) === 0) return null;
    const id = await leader.first().getAttribute('data-testid');
    return Number(id?.split('-').pop());
  }

  /** Advances until `group` is Stable at generation `min` or later (at most 40 s of engine time). */
  async stableAt(group: string, min: number): Promise<void> {
    await this.advanceUntil(
      async () =>
        (await this.group(group).getAttribute('data-state')) === 'Stable' && (await this.generation(group)) >= min,
      40,
    );
  }

  /** Advances the cluster a second at a time until `check` holds (at most `maxSeconds`). */
  async advanceUntil(check: () => Promise<boolean>, maxSeconds = 60): Promise<void> {
    for (let i = 0; i < maxSeconds; i++) {
      if (await check()) return;
      await this.advance(1);
    }
    expect(await check(), `condition still false after ${maxSeconds} s of engine time`).toBe(true);
  }
}
