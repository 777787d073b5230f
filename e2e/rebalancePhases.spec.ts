/**
 * The rebalance drawn as phases on the group card, in lock-step with the engine: a page-side
 * MutationObserver notes each `data-phase` of the card's strip and when the timeline gains a
 * generation's column (performance.now()), so the spec reads the order and how long each phase
 * stayed on screen without a single sleep.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

interface Seen {
  /** chips: each chip's data-shown-partitions in the group's card when the phase was drawn. */
  phases: { phase: string; state?: string; chips?: string[]; at: number }[];
  columns: { id: string; at: number }[];
}

/**
 * Starts noting the phases of `group`'s strip and the columns its timeline gains (page-side code
 * as a string: the e2e project compiles without the DOM's types).
 */
async function observe(page: Page, group: string): Promise<void> {
  await page.evaluate(`(() => {
    const g = ${JSON.stringify(group)};
    const strip = document.querySelector('[data-testid="rebalance-phase-' + g + '"]');
    if (!strip) throw new Error('no phase strip');
    const seen = { phases: [{ phase: strip.getAttribute('data-phase'), at: performance.now() }], columns: [] };
    window.__seen = seen;
    new MutationObserver(() => {
      const phase = strip.getAttribute('data-phase');
      const state = document.querySelector('[data-testid="group-state-' + g + '"]').getAttribute('data-shown-state');
      const chips = [...document.querySelectorAll('[data-testid="group-' + g + '"] [data-shown-partitions]')].map((c) => c.getAttribute('data-shown-partitions'));
      if (seen.phases[seen.phases.length - 1].phase !== phase) seen.phases.push({ phase, state, chips, at: performance.now() });
    }).observe(strip, { attributes: true, attributeFilter: ['data-phase'] });
    const columns = () => [...document.querySelectorAll('[data-testid^="generation-' + g + '-"]')].map((e) => e.getAttribute('data-testid'));
    const known = new Set(columns());
    new MutationObserver(() => {
      for (const id of columns()) if (!known.has(id)) {
        known.add(id);
        seen.columns.push({ id, at: performance.now() });
      }
    }).observe(document.body, { childList: true, subtree: true });
  })()`);
}

async function seen(page: Page): Promise<Seen> {
  return (await page.evaluate('window.__seen')) as Seen;
}

test('a consumer moved out of billing at 1x: its card shows leave, JoinGroup, the leader computing, SyncGroup, assign, in order, each >= 600 ms, and the timeline gains the generation at assign', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await board.stableAt('billing', 1);
  await expect(page.getByTestId('rebalance-phase-billing')).toHaveAttribute('data-phase', 'stable');
  const generation = await board.generation('billing');
  await page.getByTestId('group-select-billing').click();
  await observe(page, 'billing');

  await app.setSpeed('1');
  await page.getByTestId('time-play').click();
  await page.getByTestId('consumer-move-c1').selectOption('analytics');
  await expect
    .poll(async () => (await seen(page)).phases.map((p) => p.phase).join(' '), { timeout: 40_000 })
    .toMatch(/assign stable$/);

  const { phases, columns } = await seen(page);
  expect(phases.map((p) => p.phase)).toEqual(['stable', 'leave', 'join', 'compute', 'sync', 'assign', 'stable']);
  const held = phases.slice(1, -1).map((p, i) => ({ phase: p.phase, ms: (phases[i + 2]?.at ?? 0) - p.at }));
  for (const h of held) expect(h.ms, `${h.phase} held ${Math.round(h.ms)} ms`).toBeGreaterThanOrEqual(600);
  // The card's state badge moves with the strip, never ahead of it.
  expect(phases.slice(1).map((p) => p.state)).toEqual([
    'PreparingRebalance',
    'PreparingRebalance',
    'CompletingRebalance',
    'CompletingRebalance',
    'Stable',
    'Stable',
  ]);
  // The chips own what the phase drawn says (range is eager): nothing once the join phase is
  // complete and until the assignment is drawn, then all six partitions between c2 and c3.
  for (const p of phases.filter((x) => x.phase === 'compute' || x.phase === 'sync'))
    expect(p.chips, p.phase).toEqual(['', '']);
  const assigned = phases.find((x) => x.phase === 'assign')?.chips ?? [];
  expect(assigned.flatMap((c) => c.split(',')).sort()).toEqual(
    ['orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4', 'orders-5'].sort(),
  );
  test.info().annotations.push({
    type: 'phases',
    description: held.map((h) => `${h.phase} ${Math.round(h.ms)} ms`).join(', '),
  });

  // The timeline's new column comes with assign, not before.
  const column = columns.find((c) => c.id === `generation-billing-${generation + 1}`);
  expect(column, 'the new generation is drawn').toBeDefined();
  const assignAt = phases.find((p) => p.phase === 'assign')?.at ?? Number.POSITIVE_INFINITY;
  expect(column?.at ?? 0).toBeGreaterThanOrEqual(assignAt);
  await expect(board.group('billing')).toHaveAttribute('data-generation', String(generation + 1));
});

test('the auto slow-down: at 16x a rebalance plays at 1x and says so; switched off, it does not', async ({
  app,
  page,
}) => {
  const board = await BoardPage.paused(app, 'groups');
  await board.stableAt('billing', 1);
  const slow = page.getByTestId('auto-slow');
  await expect(slow).toBeChecked();
  // The first generation's phases have played: the slow-down that follows is the move's.
  await expect(page.getByTestId('rebalance-phase-billing')).toHaveAttribute('data-phase', 'stable');
  await expect(page.getByTestId('auto-slow-note')).toHaveCount(0);

  await page.getByTestId('time-speed').selectOption('16');
  await page.getByTestId('time-play').click();
  await page.getByTestId('consumer-move-c1').selectOption('analytics');
  const note = page.getByTestId('auto-slow-note');
  await expect(note).toHaveAttribute('data-for', 'rebalance');
  await expect(note).toContainText('1 engine ms = 1 real ms');
  await expect(note).toContainText('slowed from 16x');
  // The speed chosen stays the learner's; the note goes when the rebalance has played.
  await expect(page.getByTestId('time-speed')).toHaveValue('16');
  await expect(note).toHaveCount(0, { timeout: 30_000 });

  await slow.uncheck();
  await page.evaluate(`(() => {
    window.__noted = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="auto-slow-note"]')) window.__noted = true;
    }).observe(document.body, { childList: true, subtree: true });
  })()`);
  const strip = page.getByTestId('rebalance-phase-analytics');
  const generation = await board.generation('analytics');
  await page.getByTestId('consumer-move-c1').selectOption('billing');
  await expect(board.group('analytics')).toHaveAttribute('data-generation', String(generation + 1), {
    timeout: 30_000,
  });
  await expect(strip).toHaveAttribute('data-phase', 'stable');
  expect(await page.evaluate('window.__noted')).toBe(false);
});

// The README's screenshots (docs/rebalance-phases-*.png), on demand: `SHOTS=1 npx playwright test
// e2e/rebalancePhases.spec.ts -g screenshot`. Taken as billing's card reaches the leader computing the assignment.
for (const vp of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`screenshot: a rebalance in phases at ${vp.width}x${vp.height}`, async ({ app, page }) => {
    test.skip(!process.env.SHOTS, 'screenshots only on demand (SHOTS=1)');
    await page.setViewportSize(vp);
    const board = new BoardPage(app);
    await board.open();
    await board.pause();
    await board.tab('groups');
    await board.stableAt('billing', 1);
    await expect(page.getByTestId('rebalance-phase-billing')).toHaveAttribute('data-phase', 'stable', {
      timeout: 20_000,
    });
    await page.evaluate(`document.querySelector('[data-testid="group-billing"]').scrollIntoView({ block: 'start' })`);
    await app.setSpeed('1');
    await page.getByTestId('time-play').click();
    await page.getByTestId('consumer-move-c1').selectOption('analytics');
    await expect(page.getByTestId('rebalance-phase-billing')).toHaveAttribute('data-phase', 'sync', {
      timeout: 30_000,
    });
    await page.screenshot({ path: `docs/rebalance-phases-${vp.width}.png` });
  });
}
