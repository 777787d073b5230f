/**
 * Time travel in the browser (issue 12): a seek anywhere in a 10-minute run takes at most 200 ms.
 * The page opens a link to a 10-minute demo run (a broker killed at 2 min and restarted at 4 min),
 * shows the past so the worker builds its checkpoints (until the scrubber's data-checkpoints-complete), then
 * sets the scrubber to seeded random moments and times each one from the input event to the
 * moment shown (the scrubber's data-now: the worker's replay, the frame, React's render).
 */
import type { Browser } from '@playwright/test';

const RUN_MS = 10 * 60_000;

function scenarioHash(): string {
  const body = {
    v: 1,
    seed: 1,
    preset: 'demo',
    actions: [
      { at: 120_000, action: { op: 'killBroker', broker: 1 } },
      { at: 240_000, action: { op: 'restartBroker', broker: 1 } },
    ],
    untilMs: RUN_MS,
    paused: true,
  };
  return `#scenario=${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
}

// Runs in the page: sets the range input as a person does (React listens to input events) and
// resolves when the scrubber shows that moment.
/** The scrubber's attribute, read in the page. */
const attr = (name: string) => `document.querySelector('[data-testid="time-scrubber"]')?.getAttribute('${name}')`;

const SEEK = `(async (at) => {
  const input = document.querySelector('[data-testid="time-scrubber"]');
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const start = performance.now();
  const done = new Promise((resolve) => {
    const check = () => input.getAttribute('data-now') === String(at) ? (observer.disconnect(), resolve(performance.now() - start)) : null;
    const observer = new MutationObserver(check);
    observer.observe(input, { attributes: true });
  });
  setter.call(input, String(at));
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return done;
})`;

export interface TravelSample {
  /** Real ms from opening the link until every checkpoint was built. */
  buildMs: number;
  seeks: number[];
}

export async function travelSample(browser: Browser, url: string, seeks = 20): Promise<TravelSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const opened = Date.now();
  await page.goto(`${url}${scenarioHash()}`);
  const scrubber = page.getByTestId('time-scrubber');
  await scrubber.waitFor({ timeout: 60_000 });
  // A link this long is estimated first and, above a few seconds of replay, asked about (issue 28):
  // say yes, then wait for its replay job to reach the link's end.
  const deadline = Date.now() + 10 * 60_000;
  while ((await page.evaluate(attr('data-max'))) !== String(RUN_MS)) {
    if (Date.now() > deadline) throw new Error(`the ${RUN_MS / 60_000}-minute link did not replay within 10 minutes`);
    const confirm = page.getByTestId('discard-confirm');
    if (await confirm.isVisible()) await confirm.click();
    await page.waitForTimeout(250);
  }
  // In the past the live run waits and the worker builds checkpoints at its faster pace.
  await page.evaluate(`${SEEK}(${RUN_MS - 1000})`);
  await page.waitForFunction(`${attr('data-checkpoints-complete')} === 'true'`, null, {
    timeout: 15 * 60_000,
    polling: 1000,
  });
  const buildMs = Date.now() - opened;
  const times: number[] = [];
  let x = 12345;
  for (let i = 0; i < seeks; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const at = 100 * Math.floor((1000 + (x % (RUN_MS - 2000))) / 100);
    times.push((await page.evaluate(`${SEEK}(${at})`)) as number);
    // Between seeks the worker rebuilds the checkpoint the seek moved, as it does while a learner looks.
    await page.waitForFunction(`${attr('data-checkpoints-complete')} === 'true'`, null, {
      timeout: 5 * 60_000,
      polling: 500,
    });
  }
  await context.close();
  return { buildMs, seeks: times };
}
