/**
 * Shared Playwright fixtures: every spec gets `app` (a page object over glassbox) and fails if the
 * page logged a console error or threw, so "no console errors in any test" holds everywhere.
 */
import { test as base, expect, type Page } from '@playwright/test';

export class GlassboxPage {
  readonly errors: string[] = [];
  constructor(readonly page: Page) {
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.errors.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => this.errors.push(`page error: ${err.message}`));
  }

  /** Opens the app and waits until the cluster is open (the demo exists or was recovered). */
  async open(path = '/'): Promise<void> {
    await this.page.goto(path);
    await expect(this.page.getByTestId('app-ready')).toBeAttached();
  }

  partition(topic: string, p: number) {
    return this.page.getByTestId(`partition-${topic}-${p}`);
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
