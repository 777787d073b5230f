import { expect, test } from './fixtures';
import { BoardPage } from './boardPage';

/**
 * Request tokens on the brokers board: labelled with their Kafka API (ApiKeys names), coloured by
 * API with a legend, and never over a control; the speed control states its pace.
 */

type Hit = { token: string; button: string };
type Sample = { frames: number; tokenFrames: number; apis: string[]; hits: Hit[] };

// Watches the board for `frames` animation frames: every token's box (of `api`, or all) against
// every visible button's box (a string, so the spec needs no DOM types).
const watch = (frames: number, api = '') => `new Promise((resolve) => {
  const out = { frames: 0, tokenFrames: 0, apis: [], hits: [] };
  const apis = new Set();
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const tick = () => {
    const tokens = [...document.querySelectorAll('.message-token')].filter(
      (t) => '${api}' === '' || t.getAttribute('data-apis').split(' ').includes('${api}'),
    );
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

// Resolves with the first message of `api` drawn within `ms` (checked every animation frame), alone
// or in a chip grouping several (data-apis, data-kinds, data-froms, data-tos), or null.
const firstToken = (api: string, kind: string, ms: number) => `new Promise((resolve) => {
  const t0 = performance.now();
  const tick = () => {
    for (const t of document.querySelectorAll('.message-token[data-apis~="${api}"]')) {
      const apis = t.getAttribute('data-apis').split(' ');
      const kinds = t.getAttribute('data-kinds').split(' ');
      const i = apis.findIndex((a, j) => a === '${api}' && kinds[j] === '${kind}');
      if (i < 0) continue;
      const at = (name) => t.getAttribute(name).split(' ')[i];
      return resolve({ text: t.textContent, kind: at('data-kinds'), from: at('data-froms'), to: at('data-tos') });
    }
    if (performance.now() - t0 > ${ms}) resolve(null);
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

test('tokens carry their API, are listed in the colour legend, and never cover a button', async ({ app, page }) => {
  const board = new BoardPage(app);
  await board.open();
  // Slowed: the clock at 0.25x, so hops are replayed 150 times slower than the clock.
  await page.getByTestId('time-speed').selectOption('0.25');
  await expect(page.getByTestId('time-pace')).toHaveText('1 engine ms = 4 real ms');
  await page.getByTestId('board-produce').click();
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
  const board = new BoardPage(app);
  await board.open();
  await expect(page.locator('[data-testid^="message-fetch-"]').first()).toBeAttached({ timeout: 15_000 });
  await page.getByTestId('broker-kill-2').click();
  await expect(board.broker(2)).toHaveAttribute('data-state', 'down');
  // The session expires after 6 s of engine time; then the election and its requests. A token
  // lives for its replay only (well under Playwright's polling interval), so the page catches it.
  const lai = (await page.evaluate(firstToken('LeaderAndIsr', 'request', 30_000))) as Token | null;
  expect(lai).not.toBeNull();
  // Its label is its API (with a count when it flies grouped with others to the same card).
  expect(lai?.text).toMatch(/^LeaderAndIsr( ×\d+| \+\d+)?$/);
  const controller = (await page.getByTestId('controller-summary').textContent())?.match(/broker (\d+)/)?.[1];
  // A LeaderAndIsr request goes from the controller (a busy page may draw its answer first).
  expect(lai?.kind).toBe('request');
  expect(lai?.from).toBe(controller);
  expect(lai?.to).toMatch(/^\d+$/);
  await expect(page.getByTestId('api-legend-LeaderAndIsr')).toBeVisible();
  // The controller's LeaderAndIsr tokens (the group's JoinGroup after its coordinator moved is
  // checked by the test above in a quiet run; here it can cross a card: open work).
  const seen = (await page.evaluate(watch(120, 'LeaderAndIsr'))) as Sample;
  expect(seen.hits).toEqual([]);
});

test('the speed control states its pace for every speed', async ({ app, page }) => {
  const board = new BoardPage(app);
  await board.open();
  const pace = page.getByTestId('time-pace');
  await expect(pace).toHaveText('1 engine ms = 1 real ms');
  await page.getByTestId('time-speed').selectOption('4');
  await expect(pace).toHaveText('1 engine ms = 0.25 real ms');
  await page.getByTestId('time-speed').selectOption('0.5');
  await expect(pace).toHaveText('1 engine ms = 2 real ms');
});

// Every frame for `frames` frames: the visible tokens of each layer, their label size, and each
// pair whose boxes overlap (a string, so the spec needs no DOM types).
const overlaps = (frames: number) => `new Promise((resolve) => {
  const out = { frames: 0, tokens: 0, tokenFrames: 0, overlapFrames: 0, small: [], overlaps: [], untitled: [] };
  const tick = () => {
    let any = false, overlapped = false;
    for (const layer of ['.row-token', '.message-token']) {
      const shown = [...document.querySelectorAll(layer)].filter((t) => getComputedStyle(t).visibility !== 'hidden');
      out.tokens += shown.length;
      if (shown.length > 0) any = true;
      const boxes = shown.map((t) => [t, t.getBoundingClientRect()]);
      for (const [t] of boxes) {
        const px = parseFloat(getComputedStyle(t).fontSize);
        if (px < 11 && out.small.length < 5) out.small.push(t.textContent + ' ' + px);
        if (layer === '.row-token' && !/offset|HW/.test(t.getAttribute('title') || '') && out.untitled.length < 5)
          out.untitled.push(t.getAttribute('title'));
      }
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i][1], b = boxes[j][1];
          if (!(a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)) continue;
          overlapped = true;
          if (out.overlaps.length < 8)
            out.overlaps.push(layer + ': ' + boxes[i][0].getAttribute('data-testid') + ' lane ' + boxes[i][0].getAttribute('data-lane') + ' / ' + boxes[j][0].getAttribute('data-testid') + ' lane ' + boxes[j][0].getAttribute('data-lane'));
        }
    }
    if (any) out.tokenFrames++;
    if (overlapped) out.overlapFrames++;
    if (++out.frames >= ${frames}) resolve(out);
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

test('tokens: 11 px labels, never over each other (a second lane, else one chip with the count), each naming the records it carries', async ({
  app,
  page,
}) => {
  const board = new BoardPage(app);
  await board.open();
  await board.broker(1).scrollIntoViewIfNeeded();
  await expect(page.locator('.row-token').first()).toBeAttached({ timeout: 15_000 });
  const seen = (await page.evaluate(overlaps(100))) as {
    frames: number;
    tokens: number;
    tokenFrames: number;
    overlapFrames: number;
    small: string[];
    overlaps: string[];
    untitled: string[];
  };
  expect(seen.tokens).toBeGreaterThan(0);
  expect(seen.small).toEqual([]);
  test.info().annotations.push({
    type: 'overlaps',
    description: `${seen.overlapFrames} of ${seen.tokenFrames} frames with tokens show two overlapping: ${seen.overlaps.join(', ')}`,
  });
  // The lanes are planned from each token's slot; a page too busy to start a token on time can put
  // one off its plan for a frame or two (the next render places it anew): rare, never the rule.
  expect(seen.overlapFrames, seen.overlaps.join('\n')).toBeLessThanOrEqual(Math.ceil(seen.tokenFrames * 0.05));
  expect(seen.untitled).toEqual([]);
  // A token says what it carries: a Produce request the offsets it brings to the leader's log.
  await expect
    .poll(() => page.locator('.row-token[data-api="Produce"]').first().getAttribute('title'), { timeout: 15_000 })
    .toMatch(/Produce request, .*orders-\d+ offsets? \d+/);
});
