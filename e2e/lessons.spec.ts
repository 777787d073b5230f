import type { Page } from '@playwright/test';
import { expect, type GlassboxPage, test } from './fixtures';
import { PlanePage } from './planePage';

/**
 * Every lesson runs end to end by lesson-next alone: each step's actions run when it starts, and
 * Next is offered only once the engine shows the step's condition (data-condition-met). The
 * lesson's last step shows what it promises. Steps that are not the key moment run at 16x.
 */
const LESSONS = [
  'segments',
  'offset-lookup',
  'time-lookup',
  'retention',
  'compaction',
  'partitioner',
  'accumulator',
  'acks',
  'isr',
  'controller-failover',
  'unclean-election',
  'placement',
  'reassignment',
  'group-coordinator',
  'assignors',
  'delivery',
  'static-membership',
  'zookeeper-consumer',
];

async function startLesson(app: GlassboxPage, id: string): Promise<void> {
  const page = app.page;
  const plane = new PlanePage(app);
  await plane.open();
  await plane.tab('scenarios');
  await page.getByTestId(`lesson-${id}`).click();
  const confirm = page.getByTestId('discard-confirm');
  const step = page.getByTestId('lesson-step');
  await expect(confirm.or(step)).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
  await expect(step).toHaveAttribute('data-step', '0');
}

/** Clicks Next whenever the step's condition holds, until the last step's condition holds. */
async function runToEnd(page: Page): Promise<number> {
  const step = page.getByTestId('lesson-step');
  const next = page.getByTestId('lesson-next');
  for (let i = 0; ; i++) {
    await expect(step).toHaveAttribute('data-step', String(i));
    await expect(step).toHaveAttribute('data-condition-met', 'true', { timeout: 60_000 });
    if (!(await next.isEnabled())) return i;
    await next.click();
  }
}

for (const id of LESSONS) {
  test(`lesson ${id} runs end to end by Next alone`, async ({ app, page }) => {
    test.setTimeout(150_000);
    await startLesson(app, id);
    await runToEnd(page);
    await expect(page.getByTestId('lesson-next')).toHaveText('Lesson complete');
    if (id === 'unclean-election') {
      await new PlanePage(app).tab('cluster');
      await expect(page.getByTestId('lost-offsets')).toContainText('payments-0');
      await expect(page.getByTestId('lesson-observed-lost')).toHaveText(/^payments-0 offsets 0-\d+$/);
    }
    if (id === 'delivery') {
      await expect(page.getByTestId('lesson-observed-duplicates')).toHaveText(/^[1-9]\d*$/);
      await expect(page.getByTestId('lesson-observed-losses')).toHaveText(/^[1-9]\d*$/);
      await new PlanePage(app).tab('groups');
      await expect(page.getByTestId('group-observed-redelivered-analytics')).toContainText(/[1-9]/);
      await expect(page.getByTestId('group-observed-lost-billing')).toContainText(/[1-9]/);
    }
  });
}

test('a prediction is checked against the engine: key user-7 goes where murmur2 says', async ({ app, page }) => {
  await startLesson(app, 'partitioner');
  const question = page.getByTestId('lesson-question');
  await expect(question).toContainText('user-7');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-condition-met', 'true', { timeout: 30_000 });
  // toPositive(murmur2("user-7")) % 4 = 0 (the golden trace; Kafka's BuiltInPartitioner).
  await page.getByTestId('lesson-answer-0').click();
  await expect(page.getByTestId('lesson-verdict')).toHaveAttribute('data-correct', 'true');
  await expect(page.getByTestId('lesson-verdict')).toContainText('users-0');
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-condition-met', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('lesson-observed-logEndOffsets')).toHaveText('1 · 0 · 0 · 0');
});
