import { expect, test } from './fixtures';

test('the clock runs at 1x on open; space pauses and plays, right arrow steps 10 ms', async ({ app, page }) => {
  await app.open();
  const play = page.getByTestId('time-play');
  const clock = page.getByTestId('time-now');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('time-speed')).toHaveValue('1');
  const t0 = await clock.textContent();
  await expect(clock).not.toHaveText(t0 ?? '');

  await page.locator('body').press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // A frame asked for while playing may still land; the ones after it advance nothing.
  await app.frames(2);
  const paused = (await clock.textContent()) ?? '';
  await app.frames(20);
  await expect(clock).toHaveText(paused);

  // One step is 10 ms of engine time (the clock shows hh:mm:ss.mmm).
  await page.locator('body').press('ArrowRight');
  const ms = (t: string) => {
    const [h, m, s] = t.split(':').map(Number);
    return ((h as number) * 3600 + (m as number) * 60 + (s as number)) * 1000;
  };
  await expect.poll(async () => Math.round(ms((await clock.textContent()) ?? '') - ms(paused))).toBe(10);

  await page.getByTestId('time-speed').selectOption('16');
  await page.locator('body').press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
});
