import { expect, type Locator, type Page } from '@playwright/test';
import type { GlassboxPage } from './fixtures';
import { BoardPage } from './boardPage';

interface LookStrip {
  x: number;
  width: number;
  top: number;
  bottom: number;
  clipTop: number;
  clipBottom: number;
}

/**
 * The marked target's top strip (its first 40 px, or all of it if smaller) and the part of the
 * window every scrolling box around it (the board's column, the side panel) leaves visible.
 */
const READ_LOOK = `(() => {
  const el = document.querySelector('[data-lesson-look]');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  let clipTop = 0;
  let clipBottom = document.documentElement.clientHeight;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll' || o === 'hidden') {
      const b = p.getBoundingClientRect();
      clipTop = Math.max(clipTop, b.top);
      clipBottom = Math.min(clipBottom, b.bottom);
    }
  }
  return { x: r.x, width: r.width, top: r.top, bottom: r.top + Math.min(r.height, 40), clipTop, clipBottom };
})()`;

/**
 * A lesson driven by its stable test ids: `lesson-step` (data-step, data-phase = predict | acting
 * | revealed, data-condition-met), `lesson-answer-<i>`, `lesson-skip`, `lesson-verdict`,
 * `lesson-next`; the element the step is about carries `data-lesson-look`.
 */
export class LessonPage {
  readonly page: Page;
  readonly step: Locator;
  readonly next: Locator;
  readonly card: Locator;

  constructor(readonly app: GlassboxPage) {
    this.page = app.page;
    this.step = this.page.getByTestId('lesson-step');
    this.next = this.page.getByTestId('lesson-next');
    this.card = this.page.getByTestId('lesson');
  }

  /** Opens the page, picks the lesson in the Scenarios tab (confirming the discard) and waits for step 0. */
  async start(id: string): Promise<void> {
    const board = new BoardPage(this.app);
    // A lesson already open is left first: its pinned card would sit over the picker.
    if (await this.card.isVisible()) await this.page.getByTestId('lesson-leave').click();
    else await board.open();
    await board.tab('scenarios');
    await this.page.getByTestId(`lesson-${id}`).click();
    const confirm = this.page.getByTestId('discard-confirm');
    await expect(confirm.or(this.step)).toBeVisible();
    if (await confirm.isVisible()) await confirm.click();
    await expect(this.step).toHaveAttribute('data-step', '0');
  }

  /** Waits until step `i` either asks its question or has its condition met; says which. */
  async reach(i: number): Promise<'predict' | 'revealed'> {
    await expect(this.step).toHaveAttribute('data-step', String(i));
    await expect(this.step).toHaveAttribute('data-phase', /predict|revealed/, { timeout: 60_000 });
    return (await this.step.getAttribute('data-phase')) === 'predict' ? 'predict' : 'revealed';
  }

  async revealed(): Promise<void> {
    await expect(this.step).toHaveAttribute('data-phase', 'revealed', { timeout: 60_000 });
    await expect(this.step).toHaveAttribute('data-condition-met', 'true');
  }

  /**
   * Runs the lesson by Next alone, skipping every question (the sampler's way through), or with
   * `visit` called at every question (before answering) and every reveal. Returns the step count.
   */
  async runToEnd(visit?: (i: number, moment: 'predict' | 'revealed') => Promise<void>): Promise<number> {
    for (let i = 0; ; i++) {
      if ((await this.reach(i)) === 'predict') {
        if (visit) await visit(i, 'predict');
        else await this.page.getByTestId('lesson-skip').click();
        await this.revealed();
      }
      if (visit) await visit(i, 'revealed');
      if (!(await this.next.isEnabled())) return i + 1;
      await this.next.click();
    }
  }

  /** Next (and the answer buttons) are on screen and nothing covers them: a click lands on them. */
  async expectControlsUncovered(): Promise<void> {
    await expect(this.next).toBeInViewport({ ratio: 1 });
    const hit = await this.next.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = el.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return top !== null && (top === el || el.contains(top));
    });
    expect(hit, 'nothing covers lesson-next').toBe(true);
  }

  /**
   * The element the step is about is marked, its top is on screen and not under the lesson card,
   * and the card is wholly on screen: the learner sees both at once.
   */
  async expectLookInView(): Promise<void> {
    await expect(this.page.locator('[data-lesson-look]')).toHaveCount(1, { timeout: 10_000 });
    await expect
      .poll(
        async () => {
          const vp = this.page.viewportSize();
          const card = await this.card.boundingBox();
          if (!vp || !card) return 'no card';
          if (card.y < -1 || card.y + card.height > vp.height + 1) return `card at ${card.y}..${card.y + card.height}`;
          // Read without waiting: a node React re-creates is marked again on the next frame.
          const strip = (await this.page.evaluate(READ_LOOK)) as LookStrip | null;
          if (!strip) return 'not marked';
          if (strip.top < strip.clipTop - 1 || strip.bottom > strip.clipBottom + 1)
            return `target at ${strip.top}, visible ${strip.clipTop}..${strip.clipBottom}`;
          const overlapsX = strip.x < card.x + card.width && strip.x + strip.width > card.x;
          const overlapsY = strip.top < card.y + card.height && strip.bottom > card.y;
          return overlapsX && overlapsY ? `target at ${strip.top} under the card at ${card.y}` : 'in view';
        },
        { timeout: 20_000 },
      )
      .toBe('in view');
  }
}
