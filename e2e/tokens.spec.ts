import { expect, test } from './fixtures';
import { PlanePage } from './planePage';

/**
 * Request tokens on the brokers board: labelled with their Kafka API (ApiKeys names), coloured by
 * API with a legend, and never over a control; the speed control states its pace.
 */

type Hit = { token: string; button: string };
type Sample = { frames: number; tokenFrames: number; apis: string[]; hits: Hit[] };

// Watches the board for `frames` animation frames: every token's box against every visible
// button's box (a string, so the spec needs no DOM types).
const watch = (frames: number) => `new Promise((resolve) => {
  const out = { frames: 0, tokenFrames: 0, apis: [], hits: [] };
  const apis = new Set();
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const tick = () => {
    const tokens = [...document.querySelectorAll('.message-token')];
    const buttons = [...document.querySelectorAll('button, select')].filter((b) => {
      const r = box(b);
      return r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== 'hidden';
    });
    if (tokens.length > 0) out.tokenFrames++;
    for (const t of tokens) {
      apis.add(t.getAttribute('data-api'));
      const tr = box(t);
      if (Number(getComputedStyle(t).opacity) === 0) continue;
      for (const b of buttons) {
        if (meets(tr, box(b))) out.hits.push({ token: t.getAttribute('data-testid'), button: b.getAttribute('data-testid') || b.textContent });
      }
    }
    if (++out.frames >= ${frames}) {
      out.apis = [...apis];
      resolve(out);
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

test('tokens carry their API, are listed in the colour legend, and never cover a button', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  // Slowed: the clock at 0.25x, so hops are replayed 150 times slower than the clock.
  await page.getByTestId('time-speed').selectOption('0.25');
  await expect(page.getByTestId('time-pace')).toHaveText('1 engine ms = 4 real ms');
  await page.getByTestId('plane-produce').click();
  const fetch = page.locator('[data-testid^="message-fetch-"]').first();
  await expect(fetch).toBeAttached({ timeout: 15_000 });
  await expect(fetch).toHaveAttribute('data-api', 'Fetch');
  await expect(fetch).toHaveText('Fetch');
  // The board says the tokens' pace in the same form as the clock's.
  await expect(page.getByTestId('message-legend')).toContainText('1 engine ms = ');
  await expect(page.getByTestId('message-legend')).toContainText('(1 engine ms = 4 real ms at 0.25x)');

  const seen = (await page.evaluate(watch(120))) as Sample;
  expect(seen.tokenFrames).toBeGreaterThan(0);
  expect(seen.hits).toEqual([]);
  // Every API seen on a token is in the legend, with a swatch of its colour.
  await expect(page.locator('[data-testid^="message-produce-"]').first()).toBeAttached({ timeout: 15_000 });
  for (const api of [...new Set([...seen.apis, 'Produce', 'Fetch'])]) {
    await expect(page.getByTestId(`api-legend-${api}`)).toBeVisible();
  }
  // A request and a response of different APIs are told apart by colour.
  const colours = await page.evaluate(`(() => {
    const c = (api) => {
      const el = document.querySelector('[data-testid="api-legend-' + api + '"] .api-swatch');
      return el ? getComputedStyle(el).backgroundColor : null;
    };
    return [c('Fetch'), c('Produce')];
  })()`);
  expect((colours as string[])[0]).not.toBe((colours as string[])[1]);
  // The tokens' layer ignores the pointer.
  await expect(page.locator('.message-layer')).toHaveCSS('pointer-events', 'none');
});

test('the speed control states its pace for every speed', async ({ app, page }) => {
  const plane = new PlanePage(app);
  await plane.open();
  const pace = page.getByTestId('time-pace');
  await expect(pace).toHaveText('1 engine ms = 1 real ms');
  await page.getByTestId('time-speed').selectOption('4');
  await expect(pace).toHaveText('1 engine ms = 0.25 real ms');
  await page.getByTestId('time-speed').selectOption('0.5');
  await expect(pace).toHaveText('1 engine ms = 2 real ms');
});
