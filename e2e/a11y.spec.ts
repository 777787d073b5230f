import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/** axe over the data-path views of issue 5 (top bar, partition logs, side panel); the board has its own spec. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('.topbar')
    .include('.cluster-strip')
    .include('.topic-partitions')
    .include('.side')
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  test(`main views have no serious accessibility violations (${theme})`, async ({ app, page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: theme });
    await app.open();
    await app.produce({ topic: 'orders', key: 'user-7', value: 'hello' });
    // axe walks the DOM many times: on a paused cluster the DOM holds still and a pass takes a
    // fraction of the time (what it checks, colours, names and roles, does not move with the clock).
    await new BoardPage(app).pause();
    expect(await seriousViolations(page), 'producer view').toEqual([]);
    await app.sideTab('accumulator');
    await expect(page.getByTestId('accumulator')).toBeVisible();
    expect(await seriousViolations(page), 'accumulator view').toEqual([]);

    await app.sideTab('lookup');
    await page.getByTestId('lookup-preset').click();
    await page.getByTestId('lookup-play').click();
    await expect(page.getByTestId('lookup-result')).toBeVisible();
    expect(await seriousViolations(page), 'lookup view').toEqual([]);

    await page.getByTestId('topic-tab-orders').click();
    await page.getByTestId('segment-orders-0-0').click();
    await expect(page.getByTestId('segment-inspector')).toBeVisible();
    await page.getByTestId('inspector-tab-hex').click();
    expect(await seriousViolations(page), 'segment inspector, hex').toEqual([]);
    await page.getByTestId('inspector-tab-index').click();
    expect(await seriousViolations(page), 'segment inspector, index').toEqual([]);
  });
}
