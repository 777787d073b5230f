/**
 * Shared Playwright fixtures: every spec gets `app` (a page object over glassbox) and fails if the
 * page logged a console error or threw, so "no console errors in any test" holds everywhere.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export class GlassboxPage {
  readonly errors: string[] = [];
  /**
   * Whether a fresh open shows the first screen's welcome. Off unless a spec turns it on: the
   * specs drive the board, and a welcome taking focus and room above it is firstScreen.spec's.
   */
  welcome = false;
  private welcomeDismissed = false;
  constructor(readonly page: Page) {
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.errors.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => this.errors.push(`page error: ${err.message}`));
  }

  /** Opens the app and waits until the cluster is open (the demo exists or was recovered). */
  async open(path = '/'): Promise<void> {
    if (!this.welcome && !this.welcomeDismissed) {
      // The same key the page's "Explore freely" writes (ui/welcome/welcomeState.ts).
      await this.page.addInitScript(`localStorage.setItem('glassbox.welcome', 'dismissed')`);
      this.welcomeDismissed = true;
    }
    await this.page.goto(path);
    await expect(this.page.getByTestId('app-ready')).toBeAttached({ timeout: 20_000 });
  }

  partition(topic: string, p: number) {
    return this.page.getByTestId(`partition-${topic}-${p}`);
  }

  /** Waits until the worker has answered `n` more frames (the clock's `data-frames`): a wait on state, not a sleep. */
  async frames(n: number): Promise<void> {
    const clock = this.page.getByTestId('time-now');
    const from = Number(await clock.getAttribute('data-frames'));
    await expect.poll(async () => Number(await clock.getAttribute('data-frames'))).toBeGreaterThanOrEqual(from + n);
  }

  /** Sets the clock's speed; on a phone the speed is in the top bar's menu, opened first. */
  async setSpeed(speed: string): Promise<void> {
    const select = this.page.getByTestId('time-speed');
    const menu = this.page.getByTestId('topbar-menu');
    const fold = !(await select.isVisible()) && (await menu.isVisible());
    if (fold) await menu.click();
    await select.selectOption(speed);
    if (fold) await menu.click();
  }

  async sideTab(tab: 'producer' | 'accumulator' | 'inspector' | 'lookup' | 'metrics' | 'events'): Promise<void> {
    await this.page.getByTestId(`side-tab-${tab}`).click();
  }

  /** Sends one record from the producer panel. */
  async produce(r: { topic: string; key: string | null; value: string }): Promise<void> {
    await this.sideTab('producer');
    await this.page.getByTestId('producer-topic').selectOption(r.topic);
    const nullKey = this.page.getByTestId('producer-null-key');
    if (r.key === null) await nullKey.check();
    else {
      await nullKey.uncheck();
      await this.page.getByTestId('producer-key').fill(r.key);
    }
    await this.page.getByTestId('producer-value').fill(r.value);
    await this.page.getByTestId('producer-send').click();
  }

  /** Steps the offset lookup's trace to its end (faster than Play's human pace on a long trace). */
  async stepLookupToResult(): Promise<Locator> {
    const result = this.page.getByTestId('lookup-result');
    const step = this.page.getByTestId('lookup-step');
    for (let i = 0; i < 500 && (await result.count()) === 0; i++) await step.click();
    return result;
  }
}

export const test = base.extend<{ app: GlassboxPage }>({
  app: async ({ page }, use) => {
    const app = new GlassboxPage(page);
    await use(app);
    expect(app.errors, 'console errors during the test').toEqual([]);
  },
});

export { expect };
