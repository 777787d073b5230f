import { expect, GlassboxPage, test } from './fixtures';

test('a second tab gets the ownership notice and can take over', async ({ app, page, context }) => {
  await app.open();
  const second = new GlassboxPage(await context.newPage());
  await second.page.goto('/');
  const notice = second.page.getByTestId('ownership-notice');
  await expect(notice).toContainText('open in another tab');
  await expect(second.page.getByTestId('app-ready')).toHaveCount(0);

  await second.page.getByTestId('take-over').click();
  await expect(second.page.getByTestId('app-ready')).toBeAttached();
  await expect(second.partition('orders', 0)).toBeVisible();
  // The first tab stopped its engine and says so.
  await expect(page.getByTestId('ownership-notice')).toContainText('took this cluster over');
  expect(second.errors).toEqual([]);
});

test('Reset cluster asks first, then empties the cluster back to the demo', async ({ app, page }) => {
  await app.open();
  const leo0 = await app.partition('orders', 0).getAttribute('data-leo');
  await app.sideTab('lookup');
  await page.getByTestId('lookup-preset').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toBeVisible();
  for (let i = 0; i < 3; i++) await app.produce({ topic: 'orders', key: 'user-2', value: 'x' });

  await page.getByTestId('reset-cluster').click();
  await expect(page.getByTestId('reset-dialog')).toBeVisible();
  await page.getByTestId('reset-cancel').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toBeVisible();

  await page.getByTestId('reset-cluster').click();
  await page.getByTestId('reset-confirm').click();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toHaveCount(0);
  await expect(app.partition('orders', 0)).toHaveAttribute('data-leo', leo0 ?? '');
  // And it stays reset across a reload.
  await page.reload();
  await expect(page.getByTestId('app-ready')).toBeAttached();
  await expect(page.getByTestId('topic-tab-seeds-lookup')).toHaveCount(0);
  await expect(app.partition('orders', 0)).toHaveAttribute('data-leo', leo0 ?? '');
});
