import { expect, test } from './fixtures';
import { LessonPage } from './lessonPage';
import { BoardPage } from './boardPage';

/**
 * The README's lesson screenshots (docs/lesson-*.png), made on demand: `SHOTS=1 npx playwright
 * test e2e/lessonShots.spec.ts`. A question before its answer and the reveal after it (assignors),
 * a look-here moment in the lookup stepper (170418), and two lessons' last steps.
 */
test.skip(!process.env.SHOTS, 'screenshots only on demand (SHOTS=1)');

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

for (const vp of VIEWPORTS) {
  test(`screenshots: predict, reveal and look here at ${vp.width}x${vp.height}`, async ({ app, page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const lesson = new LessonPage(app);
    await lesson.start('assignors');
    await lesson.reach(0);
    await lesson.next.click();
    expect(await lesson.reach(1)).toBe('predict');
    await lesson.expectLookInView();
    await page.screenshot({ path: `docs/lesson-predict-${vp.name}.png` });
    await page.getByTestId('lesson-answer-0').click();
    await lesson.revealed();
    await lesson.expectLookInView();
    await page.screenshot({ path: `docs/lesson-reveal-${vp.name}.png` });

    await lesson.start('offset-lookup');
    for (const i of [0, 1]) {
      if ((await lesson.reach(i)) === 'predict') await page.getByTestId('lesson-skip').click();
      await lesson.revealed();
      await lesson.next.click();
    }
    expect(await lesson.reach(2)).toBe('predict');
    await lesson.expectLookInView();
    await page.screenshot({ path: `docs/lesson-look-here-${vp.name}.png` });
  });

  for (const id of ['unclean-election', 'delivery']) {
    test(`screenshot: lesson ${id} at ${vp.width}x${vp.height}`, async ({ app, page }) => {
      test.setTimeout(150_000);
      await page.setViewportSize({ width: vp.width, height: vp.height });
      const lesson = new LessonPage(app);
      await lesson.start(id);
      await lesson.runToEnd();
      await new BoardPage(app).pause();
      await lesson.expectLookInView();
      await page.screenshot({ path: `docs/lesson-${id}-${vp.name}.png` });
    });
  }
}
