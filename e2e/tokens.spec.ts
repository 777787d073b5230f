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
      const style = getComputedStyle(t);
      if (Number(style.opacity) === 0 || style.visibility === 'hidden') continue;
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

type Token = { text: string; kind: string; from: string; to: string };

// Resolves with the first token of `api` drawn within `ms` (checked every animation frame), or null.
const firstToken = (api: string, ms: number) => `new Promise((resolve) => {
  const t0 = performance.now();
  const tick = () => {
    const t = document.querySelector('.message-token[data-api="${api}"]');
    if (t) resolve({ text: t.textContent, kind: t.getAttribute('data-kind'), from: t.getAttribute('data-from'), to: t.getAttribute('data-to') });
    else if (performance.now() - t0 > ${ms}) resolve(null);
    else requestAnimationFrame(tick);
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

// ZooKeeper mode: once broker 2's session expires the controller writes the new partition states
// and sends LeaderAndIsr to the replicas (Kafka 3.9 ControllerChannelManager), drawn as tokens too.
test('after a leader is killed, LeaderAndIsr tokens go from the controller, are in the legend, and cover no button', async ({
  app,
  page,
}) => {
  const plane = new PlanePage(app);
  await plane.open();
  await expect(page.locator('[data-testid^="message-fetch-"]').first()).toBeAttached({ timeout: 15_000 });
  await page.getByTestId('broker-kill-2').click();
  await expect(plane.broker(2)).toHaveAttribute('data-state', 'down');
  // The session expires after 6 s of engine time; then the election and its requests. A token
  // lives for its replay only (well under Playwright's polling interval), so the page catches it.
  const lai = (await page.evaluate(firstToken('LeaderAndIsr', 30_000))) as Token | null;
  expect(lai).not.toBeNull();
  expect(lai?.text).toBe('LeaderAndIsr');
  const controller = (await page.getByTestId('controller-summary').textContent())?.match(/broker (\d+)/)?.[1];
  // Engine order: the controller's requests go out first, so the first token seen is one of them.
  expect(lai?.kind).toBe('request');
  expect(lai?.from).toBe(controller);
  expect(lai?.to).toMatch(/^\d+$/);
  await expect(page.getByTestId('api-legend-LeaderAndIsr')).toBeVisible();
  const seen = (await page.evaluate(watch(120))) as Sample;
  expect(seen.hits).toEqual([]);
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
