/**
 * The invariant sampler (issue 23): every animation frame, reads what the page draws — each
 * replica on the partition rows and the brokers board, each partition card, each broker on the
 * strip and the board, the controller badges, each group card with its phase strip and consumer
 * chips — and counts the frames that draw a state Kafka could not be in:
 *
 * - `hw-above-leo`: a replica's shown HW above its shown LEO;
 * - `follower-ahead`: a follower's shown LEO above its leader's (same surface, same partition);
 * - `hw-above-isr`: the leader's shown HW above the smallest shown LEO of the ISR;
 * - `alive-offline`: a broker drawn alive somewhere while a replica on it is drawn offline, or a
 *   broker drawn in two different states on two surfaces;
 * - `controller`: a surface drawing brokers without exactly one controller badge (and no drawn
 *   "no controller: election in progress"), or two surfaces naming different controllers;
 * - `group`: a group card whose drawn state (`data-shown-state`) disagrees with its drawn
 *   rebalance phase (`data-phase`), or a drawn-Stable group whose chips (`data-shown-partitions`)
 *   share a partition. A card without `data-phase` (a ZooKeeper group, one awaiting its
 *   coordinator) gets the Stable check only, and the report says so.
 *
 * It runs in the page as an init script (nothing of it is in the app): a `requestAnimationFrame`
 * callback sees the DOM exactly as that frame paints it, after React's last commit. Specs install
 * it before opening the page and read the counts with `readInvariants`; the lessons e2e can do the
 * same. The drawn values come from the attributes the components draw their text from
 * (`data-shown-*`, `data-drawn-*`), falling back to the older attributes where a surface has not
 * got the newer ones, so the same sampler measures today's page and tomorrow's.
 */
import type { Page } from '@playwright/test';

export type InvariantKind =
  | 'hw-above-leo'
  | 'follower-ahead'
  | 'hw-above-isr'
  | 'alive-offline'
  | 'controller'
  | 'group';

export interface InvariantReport {
  /** Frames sampled. */
  frames: number;
  /** Frames with at least one violation of each kind. */
  byKind: Partial<Record<InvariantKind, number>>;
  /** Frames with any violation. */
  violations: number;
  /** The first few violations, in words, for the failure message. */
  samples: string[];
  /** A group card without data-phase was sampled: only its Stable check ran. */
  groupPhaseSkipped: boolean;
}

/** The sampler, as the init script's source (a string: the spec needs no DOM types). */
const SAMPLER = String.raw`(() => {
  const STATE_OF = { leave: 'PreparingRebalance', join: 'PreparingRebalance', compute: 'CompletingRebalance',
    sync: 'CompletingRebalance', assign: 'Stable', stable: 'Stable' };
  const report = { frames: 0, byKind: {}, violations: 0, samples: [], on: true, groupPhaseSkipped: false };
  window.__glassboxInvariants = report;
  const num = (v) => (v === null || v === '' ? null : Number(v));
  // <prefix><topic>-<partition>-<broker>; a topic name may hold dashes.
  const tpb = (id, prefix) => {
    const parts = id.slice(prefix.length).split('-');
    const broker = Number(parts.pop());
    const partition = Number(parts.pop());
    return { topic: parts.join('-'), partition, broker };
  };
  function replicas() {
    const out = [];
    for (const el of document.querySelectorAll('[data-testid^="glance-replica-"]')) {
      const id = tpb(el.getAttribute('data-testid'), 'glance-replica-');
      const role = el.getAttribute('data-drawn-role') || el.getAttribute('data-role');
      out.push({ surface: 'rows', ...id, role: role === 'in-sync' || role === 'out-of-sync' ? 'follower' : role,
        isr: el.hasAttribute('data-drawn-isr') ? el.getAttribute('data-drawn-isr') === 'true' : role === 'leader' || role === 'in-sync',
        leo: num(el.getAttribute('data-shown-leo')), hw: num(el.getAttribute('data-shown-hw')) });
    }
    for (const el of document.querySelectorAll('li.replica[data-testid^="replica-"]')) {
      const id = tpb(el.getAttribute('data-testid'), 'replica-');
      out.push({ surface: 'board', ...id, role: el.getAttribute('data-shown-role') || el.getAttribute('data-role'),
        isr: (el.getAttribute('data-drawn-isr') || el.getAttribute('data-isr')) === 'true',
        leo: num(el.getAttribute('data-shown-leo')), hw: num(el.getAttribute('data-shown-hw')) });
    }
    return out;
  }
  function brokers() {
    const out = [];
    for (const el of document.querySelectorAll('[data-testid^="strip-broker-"]')) {
      const id = Number(el.getAttribute('data-testid').slice('strip-broker-'.length));
      let state = el.getAttribute('data-drawn-state');
      if (!state) state = el.classList.contains('alive') ? 'alive' : el.classList.contains('isolated') ? 'isolated' : 'down';
      out.push({ surface: 'strip', id, state, controller: !!el.querySelector('.strip-controller') });
    }
    for (const el of document.querySelectorAll('[data-testid^="glance-broker-"][data-drawn-state]')) {
      const id = Number(el.getAttribute('data-testid').slice('glance-broker-'.length));
      out.push({ surface: 'rows', id, state: el.getAttribute('data-drawn-state'), controller: null });
    }
    for (const el of document.querySelectorAll('article.broker[data-testid^="broker-"]')) {
      const id = Number(el.getAttribute('data-testid').slice('broker-'.length));
      let state = el.getAttribute('data-drawn-state');
      if (!state) {
        const s = el.getAttribute('data-state');
        state = s === 'down' ? 'down' : el.classList.contains('broker-isolated') ? 'isolated' : el.getAttribute('data-alive') === 'true' ? 'alive' : 'down';
      }
      out.push({ surface: 'board', id, state, controller: !!el.querySelector('[data-testid^="controller-badge-"]') });
    }
    return out;
  }
  function groups(out) {
    for (const card of document.querySelectorAll('section.group-card[data-testid^="group-"]')) {
      const g = card.getAttribute('data-testid').slice('group-'.length);
      // What the card draws: data-phase and data-shown-state / data-shown-generation, moved in step
      // with its rebalance phases (data-state and data-generation are the engine's). A card without
      // data-phase (a ZooKeeper group, a group awaiting its coordinator, or a page from before the
      // phases) gets the Stable check only, and the report says the phase checks were skipped.
      const attr = (el, drawn, engine) => (el.hasAttribute(drawn) ? el.getAttribute(drawn) : el.getAttribute(engine));
      const state = attr(card, 'data-shown-state', 'data-state');
      const phase = card.getAttribute('data-phase');
      if (phase === null) report.groupPhaseSkipped = true;
      if (phase) {
        const want = phase === 'stable' ? ['Stable', 'Empty'] : [STATE_OF[phase]];
        if (state && !want.includes(state)) out.push(['group', g + ': state ' + state + ' drawn in phase ' + phase]);
      }
      const owned = new Map();
      for (const chip of card.querySelectorAll('[data-testid^="consumer-"][data-partitions]')) {
        const name = chip.getAttribute('data-testid').slice('consumer-'.length);
        if (state !== 'Stable' || chip.getAttribute('data-state') !== 'running') continue;
        for (const p of (attr(chip, 'data-shown-partitions', 'data-partitions') || '').split(',')) {
          if (!p) continue;
          if (owned.has(p)) out.push(['group', g + ': Stable, and ' + p + ' drawn on ' + owned.get(p) + ' and ' + name]);
          owned.set(p, name);
        }
      }
    }
  }
  function check() {
    const out = [];
    const rs = replicas();
    const byPartition = new Map();
    for (const r of rs) {
      const k = r.surface + '|' + r.topic + '-' + r.partition;
      if (!byPartition.has(k)) byPartition.set(k, []);
      byPartition.get(k).push(r);
      if (r.role !== 'offline' && r.leo !== null && r.hw !== null && r.hw > r.leo)
        out.push(['hw-above-leo', r.surface + ' ' + r.topic + '-' + r.partition + ' broker ' + r.broker + ': HW ' + r.hw + ' > LEO ' + r.leo]);
    }
    for (const [k, list] of byPartition) {
      const leader = list.find((r) => r.role === 'leader');
      if (!leader || leader.leo === null) continue;
      for (const r of list)
        if (r !== leader && r.role !== 'offline' && r.leo !== null && r.leo > leader.leo)
          out.push(['follower-ahead', k + ': broker ' + r.broker + ' LEO ' + r.leo + ' > leader ' + leader.broker + ' LEO ' + leader.leo]);
      const isr = list.filter((r) => r.isr && r.leo !== null);
      const min = Math.min(...isr.map((r) => r.leo));
      if (leader.hw !== null && isr.length > 0 && leader.hw > min)
        out.push(['hw-above-isr', k + ': leader HW ' + leader.hw + ' > smallest ISR LEO ' + min]);
    }
    // The partition cards: the leader's log, HW and LEO as drawn.
    for (const el of document.querySelectorAll('[data-testid^="partition-"][data-shown-leo]')) {
      const leo = num(el.getAttribute('data-shown-leo'));
      const hw = num(el.getAttribute('data-shown-hw'));
      if (leo !== null && hw !== null && hw > leo)
        out.push(['hw-above-leo', 'card ' + el.getAttribute('data-testid') + ': HW ' + hw + ' > LEO ' + leo]);
    }
    const bs = brokers();
    const drawn = new Map();
    for (const b of bs) {
      const seen = drawn.get(b.id);
      if (seen && seen.state !== b.state)
        out.push(['alive-offline', 'broker ' + b.id + ' drawn ' + seen.state + ' on the ' + seen.surface + ' and ' + b.state + ' on the ' + b.surface]);
      if (!seen) drawn.set(b.id, b);
    }
    for (const r of rs) {
      if (r.role !== 'offline') continue;
      for (const b of bs)
        if (b.id === r.broker && b.state === 'alive')
          out.push(['alive-offline', 'broker ' + b.id + ' drawn alive on the ' + b.surface + ' while ' + r.topic + '-' + r.partition + ' on it is drawn offline on the ' + r.surface]);
    }
    const controllers = new Map();
    for (const surface of ['strip', 'board']) {
      const on = bs.filter((b) => b.surface === surface && b.controller !== null);
      if (on.length === 0) continue;
      const badges = on.filter((b) => b.controller).map((b) => b.id);
      const election = document.querySelector('[data-testid="no-controller-' + surface + '"]');
      if (badges.length === 1 && !election) controllers.set(surface, badges[0]);
      else if (!(badges.length === 0 && election))
        out.push(['controller', surface + ': ' + badges.length + ' controller badges' + (election ? ' and an election drawn' : '')]);
    }
    if (new Set(controllers.values()).size > 1)
      out.push(['controller', 'controller drawn as ' + [...controllers].map(([s, id]) => 'broker ' + id + ' on the ' + s).join(', ')]);
    groups(out);
    return out;
  }
  function frame() {
    if (report.on) {
      report.frames++;
      let found;
      try { found = check(); } catch (e) { found = [['sampler', String(e)]]; }
      if (found.length > 0) {
        report.violations++;
        const kinds = new Set(found.map((f) => f[0]));
        for (const k of kinds) report.byKind[k] = (report.byKind[k] || 0) + 1;
        for (const f of found) if (report.samples.length < 12 && !report.samples.includes(f[0] + ': ' + f[1])) report.samples.push(f[0] + ': ' + f[1]);
      }
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
})()`;

/** Installs the sampler in every document `page` opens from now on (call before opening the app). */
export async function installInvariantSampler(page: Page): Promise<void> {
  await page.addInitScript(SAMPLER);
}

/** The counts so far, and starts counting afresh (`reset`: e.g. after the setup of a scenario). */
export async function readInvariants(page: Page, reset = false): Promise<InvariantReport> {
  return (await page.evaluate(`(() => {
    const r = window.__glassboxInvariants;
    if (!r) return null;
    const out = { frames: r.frames, byKind: { ...r.byKind }, violations: r.violations, samples: [...r.samples], groupPhaseSkipped: r.groupPhaseSkipped };
    if (${reset}) { r.frames = 0; r.byKind = {}; r.violations = 0; r.samples = []; r.groupPhaseSkipped = false; }
    return out;
  })()`)) as InvariantReport;
}

/** Turns sampling on or off (off while a spec sets a scenario up through states it does not judge). */
export async function sampleInvariants(page: Page, on: boolean): Promise<void> {
  await page.evaluate(`window.__glassboxInvariants && (window.__glassboxInvariants.on = ${on})`);
}

/** One line per scenario for the test's output: frames, violations, and by kind. */
export function describeReport(name: string, r: InvariantReport): string {
  const kinds = Object.entries(r.byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const skipped = r.groupPhaseSkipped
    ? ' [some group cards drew no rebalance phase (a ZooKeeper group, or one awaiting its coordinator): only their Stable check ran]'
    : '';
  return `invariants ${name}: ${r.violations} of ${r.frames} frames violate${kinds ? ` (${kinds})` : ''}${skipped}${
    r.samples.length > 0 ? `\n  ${r.samples.join('\n  ')}` : ''
  }`;
}
