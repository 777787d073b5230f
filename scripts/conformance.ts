/**
 * `npm run conformance [-- --quick] [--tests 0001,0030] [--timeout 180] [--no-write] [--report F]`:
 * librdkafka's own test suite judges the Node host (`npm run broker`), as a client library's
 * maintainers judge a broker. Debian's source package `librdkafka` (the version the machine's
 * kcat links) brings the suite; its test-runner is built once, against that system librdkafka,
 * into a cache directory (GLASSBOX_CACHE, default ~/.cache/glassbox). Every test that applies
 * to a Kafka 3.9 ZooKeeper-mode broker runs alone, against a fresh three-broker host, with a time
 * limit; the table (test, result, seconds, first failure line) is printed and written to
 * docs/CONFORMANCE.md, with the tests that do not apply and why.
 *
 * The full run takes about an hour; `npm test` runs the quick subset (`--quick`, about a minute).
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

interface Options {
  quick: boolean;
  only?: string[];
  timeoutS: number;
  write: boolean;
  port: number;
  /** A JSON file for the CI's closing count (passed, failed, why skipped). */
  report?: string;
}

/** One test of librdkafka's `tests/test.c` table, as declared there. */
export interface SuiteTest {
  id: string;
  name: string;
  flags: string[];
  /** The cluster configuration it needs (tests/scenarios/<scenario>.json). */
  scenario: string;
}

/** The runner's colour codes (ESC [ ... m). */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export type Verdict = 'PASSED' | 'FAILED' | 'SKIPPED' | 'TIMEOUT';

export interface TestResult {
  test: SuiteTest;
  verdict: Verdict;
  seconds: number;
  firstFailure: string;
}

/**
 * The quick subset `npm test` runs (about 70 s on a 2-core machine, one shared host): produce
 * and acks (0001, 0002, 0005, 0007, 0008, 0013, 0073), consume and fetch (0012, 0014, 0021,
 * 0036, 0042), offsets and their commits (0029, 0030, 0031, 0099), groups (0019), admin (0044,
 * 0092), the API versions handshake (0035) and idempotence (0090).
 */
export const QUICK = [
  '0001',
  '0002',
  '0005',
  '0007',
  '0008',
  '0012',
  '0013',
  '0014',
  '0019',
  '0021',
  '0029',
  '0030',
  '0031',
  '0035',
  '0036',
  '0042',
  '0044',
  '0073',
  '0090',
  '0092',
  '0099',
];

/** Tests that cannot apply to this broker, with the reason (beyond the flags read from test.c). */
export const NOT_APPLICABLE: Record<string, string> = {
  '0052': "needs Kafka's shell scripts (kafka-topics.sh via KAFKA_PATH) to create its topic",
  '0077': "needs Kafka's shell scripts (kafka-configs.sh via KAFKA_PATH) to alter a topic's config",
  '0109': "needs Kafka's shell scripts (kafka-acls.sh via KAFKA_PATH) to deny a topic to the consumer",
  '0045_subscribe_update_topic_remove': "needs Kafka's shell scripts (kafka-topics.sh --delete via KAFKA_PATH)",
  '0045_subscribe_update_non_exist_and_partchange':
    "needs Kafka's shell scripts (kafka-topics.sh --alter --partitions via KAFKA_PATH)",
  '0115': 'needs a SASL listener (producer authorization errors)',
  '0119': 'needs a SASL listener (consumer authorization errors)',
  '0126': 'needs an OAUTHBEARER/OIDC listener',
};

/** Tests that exercise transactions, which the host does not serve yet (issue 27). */
export const TRANSACTIONS: Record<string, string> = {
  '0055': 'its transactional sub-test needs InitProducerId with a transactional.id (issue 27)',
  '0061': 'read_committed consumption of transactional batches (issue 27)',
  '0098': 'transactional producer and consumer (issue 27)',
  '0103': 'transactions (issue 27)',
  '0129': 'aborted transactions in fetch responses (issue 27)',
};

/** Reads the suite's table of tests (`struct test tests[]` in tests/test.c). */
export function readSuite(testC: string): SuiteTest[] {
  const from = testC.indexOf('struct test tests[] = {');
  const table = testC.slice(from, testC.indexOf('\n};', from));
  const out: SuiteTest[] = [];
  // Each entry runs from its `_TEST(` to the next one: the flags, then optional named fields.
  for (const entry of table.split('_TEST(').slice(1)) {
    const m = /^(\d{4})_(\w+),\s*([^,)]*)/.exec(entry);
    if (!m) continue;
    const [, id = '', name = '', flagText = ''] = m;
    const flags = flagText
      .split('|')
      .map((f) => f.trim())
      .filter((f) => f.startsWith('TEST_F_'));
    // A test runs in the scenarios its `.scenario` names ("default" when it names none).
    const scenario = /\.scenario\s*=\s*"([^"]*)"/.exec(entry)?.[1]?.split(',')[0] ?? 'default';
    if (!out.some((t) => t.id === id && t.name === name)) out.push({ id, name, flags, scenario });
  }
  return out;
}

/**
 * Kafka's own defaults for the timings the Node host shortens so the page shows elections,
 * ISR changes and retention within seconds (FIDELITY.md): librdkafka's suite is written against
 * Kafka's defaults. 0059_bsearch, for one, writes records stamped in 1970 and reads them back
 * seconds later; with a 2 s retention check they are gone, with Kafka's 5 minutes they are not.
 */
export const KAFKA_TIMINGS = [
  'log.retention.check.interval.ms=300000',
  'log.cleaner.backoff.ms=15000',
  'replica.lag.time.max.ms=30000',
  'zookeeper.session.timeout.ms=18000',
];

/**
 * The broker configs of librdkafka's test scenarios (tests/scenarios/*.json, which its trivup
 * clusters start with), as `npm run broker` overrides.
 */
export const SCENARIOS: Record<string, string[]> = {
  default: ['auto.create.topics.enable=true', 'num.partitions=4', 'default.replication.factor=3', ...KAFKA_TIMINGS],
  noautocreate: [
    'auto.create.topics.enable=false',
    'num.partitions=4',
    'default.replication.factor=3',
    ...KAFKA_TIMINGS,
  ],
};

/** Why a test does not apply to a Kafka 3.9 ZooKeeper-mode broker, or undefined if it does. */
export function whyNotApplicable(t: SuiteTest): string | undefined {
  if (t.flags.includes('TEST_F_LOCAL')) return 'runs without a broker (librdkafka against itself or its mock cluster)';
  if (!SCENARIOS[t.scenario]) return `needs librdkafka's "${t.scenario}" test scenario`;
  if (t.flags.includes('TEST_F_MANUAL'))
    return 'TEST_F_MANUAL: librdkafka runs it only when asked for by name (8000_idle idles until stopped)';
  if (t.flags.includes('TEST_F_KNOWN_ISSUE'))
    return 'marked TEST_F_KNOWN_ISSUE by librdkafka: skipped by its own runner';
  return NOT_APPLICABLE[`${t.id}_${t.name}`] ?? NOT_APPLICABLE[t.id];
}

/** The verdict and first failure line of one `test-runner` run's output. */
export function judge(
  output: string,
  exitCode: number | null,
  timedOut: boolean,
): Omit<TestResult, 'test' | 'seconds'> {
  const lines = output.replace(ANSI_COLOUR, '').split('\n');
  // The runner prints `### Test "<name> (<sub-test>)" failed at <file>:<line>: ###` and then the
  // assertion's message on the next line: the message says what the broker did wrong.
  const at = lines.findIndex((l) => /^### Test .* failed/.test(l.trim()));
  const failure =
    at >= 0
      ? `${lines[at + 1]?.trim() ?? ''} (${(lines[at] ?? '').trim().replace(/^### Test "([^"]*)".*/, '$1')})`
      : (lines.find((l) => /TEST FAILURE|Test \S+ FAILED/.test(l)) ?? '');
  const firstFailure = failure.trim().slice(0, 240);
  if (timedOut) return { verdict: 'TIMEOUT', firstFailure };
  if (/Test \S+ SKIPPED/.test(output) && !/Test \S+ FAILED/.test(output)) {
    const reason = lines.find((l) => /SKIPPING|skipping|Skipping/.test(l)) ?? '';
    return {
      verdict: 'SKIPPED',
      firstFailure: reason
        .replace(/^\[[^\]]*\]\s*/, '')
        .trim()
        .slice(0, 240),
    };
  }
  if (exitCode === 0 && /Test \S+ PASSED|ALL TESTS PASSED/.test(output)) return { verdict: 'PASSED', firstFailure: '' };
  return { verdict: 'FAILED', firstFailure };
}

/**
 * One entry's verdict from a run of its whole test number: its own lines (`[<name> /...]`, its
 * `### Test "<name>..."` failure and the line after it, its PASSED/SKIPPED/FAILED banner).
 */
export function judgeEntry(
  output: string,
  name: string,
  exitCode: number | null,
  timedOut: boolean,
): Omit<TestResult, 'test' | 'seconds'> {
  const lines = output.replace(ANSI_COLOUR, '').split('\n');
  // `### Test "<name>" failed` or `### Test "<name> (<sub-test>)" failed`: never a longer name.
  const failureOf = (l: string) => l.includes(`Test "${name}"`) || l.includes(`Test "${name} (`);
  const own = lines.filter(
    (l, i) =>
      l.startsWith(`[${name} `) ||
      l.startsWith(`[${name}/`) ||
      failureOf(l) ||
      (failureOf(lines[i - 1] ?? '') && (lines[i - 1] ?? '').startsWith('###')),
  );
  const text = own.join('\n');
  if (text.includes(`Test ${name} PASSED`)) return { verdict: 'PASSED', firstFailure: '' };
  // Never started (the runner skipped it silently) while the run went well.
  if (own.length === 0 && exitCode === 0 && !timedOut)
    return { verdict: 'SKIPPED', firstFailure: 'not run by the test-runner in this scenario' };
  if (own.length === 0) return judge(output, exitCode, timedOut);
  if (text.includes(`Test ${name} SKIPPED`)) return judge(text, 0, false);
  return judge(text, exitCode === 0 ? 1 : exitCode, timedOut);
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { quick: false, timeoutS: 180, write: true, port: 19092 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') o.quick = true;
    else if (a === '--no-write') o.write = false;
    else if (a === '--tests') o.only = (argv[++i] ?? '').split(',').filter(Boolean);
    else if (a === '--timeout') o.timeoutS = Number(argv[++i]);
    else if (a === '--port') o.port = Number(argv[++i]);
    else if (a === '--report') o.report = argv[++i];
    else throw new Error(`unknown flag ${a}`);
  }
  return o;
}

function sh(cmd: string, cwd?: string): void {
  execSync(cmd, { cwd, stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** Where the suite is kept between runs. */
function cacheDir(): string {
  const cache = process.env.GLASSBOX_CACHE ?? join(homedir(), '.cache', 'glassbox');
  mkdirSync(cache, { recursive: true });
  return cache;
}

function installedVersion(pkg: string): string | undefined {
  try {
    const v = execSync(`dpkg-query -W -f='\${Version}' ${pkg}`, { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return v || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The system's librdkafka (Debian's `librdkafka1`, the one kcat links) and the source tree of the
 * same version (`apt-get source --download-only`, unpacked with tar: no build dependencies).
 * Throws a `SuiteUnavailable` saying what is missing when it cannot be had here.
 */
export class SuiteUnavailable extends Error {}

function ensureSource(cache: string): string {
  const have = () =>
    readdirSync(cache).find((d) => /^librdkafka-\d/.test(d) && existsSync(join(cache, d, 'tests', 'test.c')));
  let src = have();
  if (src) return join(cache, src);
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get'))
    throw new SuiteUnavailable("librdkafka's test sources are not cached and apt-get source needs root on Debian");
  // deb-src entries beside the deb ones (deb822 `.sources` on Debian 12, or a one-line list).
  const srcList = '/etc/apt/sources.list.d/debian-src.sources';
  if (!existsSync(srcList) && existsSync('/etc/apt/sources.list.d/debian.sources')) {
    const deb = readFileSync('/etc/apt/sources.list.d/debian.sources', 'utf8');
    writeFileSync(srcList, deb.replace(/^Types: deb$/gm, 'Types: deb-src'));
  } else if (!existsSync(srcList) && existsSync('/etc/apt/sources.list')) {
    const lines = readFileSync('/etc/apt/sources.list', 'utf8').match(/^deb\s.*$/gm) ?? [];
    if (lines.length > 0)
      writeFileSync(
        '/etc/apt/sources.list.d/debian-src.list',
        `${lines.map((l) => l.replace(/^deb/, 'deb-src')).join('\n')}\n`,
      );
  }
  try {
    sh('apt-get update -qq');
    if (!installedVersion('librdkafka1')) sh('apt-get install -y -qq librdkafka1');
    const version = installedVersion('librdkafka1');
    sh(`apt-get source --download-only -qq librdkafka${version ? `=${version}` : ''}`, cache);
    const orig = readdirSync(cache).find((f) => /^librdkafka_.*\.orig\.tar\.gz$/.test(f));
    if (!orig) throw new SuiteUnavailable('apt-get source librdkafka brought no source archive');
    sh(`tar xzf ${orig}`, cache);
  } catch (e) {
    if (e instanceof SuiteUnavailable) throw e;
    throw new SuiteUnavailable(
      `could not fetch librdkafka's sources: ${e instanceof Error ? e.message.split('\n')[0] : e}`,
    );
  }
  src = have();
  if (!src) throw new SuiteUnavailable('the librdkafka source archive holds no tests/test.c');
  return join(cache, src);
}

/**
 * The configure results the test sources read (`config.h`, normally written by librdkafka's
 * mklove configure): Linux with C11 threads and the socket emulator the SOCKEM tests use.
 */
const TEST_CONFIG_H = [
  '#ifndef _CONFIG_H_',
  '#define _CONFIG_H_',
  '#define SOLIB_EXT ".so"',
  '#define WITH_GCC 1',
  '#define WITH_C11THREADS 1',
  '#define WITH_LIBDL 1',
  '#define WITH_SOCKEM 1',
  '#define WITH_SYSLOG 1',
  '#define HAVE_REGEX 1',
  '#define HAVE_RAND_R 1',
  '#define HAVE_STRNDUP 1',
  '#define HAVE_STRERROR_R 1',
  '#define HAVE_STRCASESTR 1',
  '#define HAVE_PTHREAD_SETNAME_GNU 1',
  '#define HAVE_GETRUSAGE 1',
  '#define HAVE_ATOMICS_32 1',
  '#define HAVE_ATOMICS_32_ATOMIC 1',
  '#define ATOMIC_OP32(OP1,OP2,PTR,VAL) __atomic_ ## OP1 ## _ ## OP2(PTR, VAL, __ATOMIC_SEQ_CST)',
  '#define HAVE_ATOMICS_64 1',
  '#define HAVE_ATOMICS_64_ATOMIC 1',
  '#define ATOMIC_OP64(OP1,OP2,PTR,VAL) __atomic_ ## OP1 ## _ ## OP2(PTR, VAL, __ATOMIC_SEQ_CST)',
  '#define ATOMIC_OP(OP1,OP2,PTR,VAL) __atomic_ ## OP1 ## _ ## OP2(PTR, VAL, __ATOMIC_SEQ_CST)',
  '#endif',
  '',
].join('\n');

/**
 * The entry points test.c's table names that no C file defines: the C++ tests, which need
 * librdkafka++. Where it is missing they are built as tests that skip and say why.
 */
export function cppOnlyMains(testC: string, cSources: readonly string[]): string[] {
  const named = new Set([...testC.matchAll(/_TEST_DECL\((\w+)\)/g)].map((m) => `main_${m[1]}`));
  const defined = new Set(
    cSources.flatMap((c) => [...c.matchAll(/\bint\s+(main_\w+)\s*\(/g)].map((m) => m[1] as string)),
  );
  return [...named].filter((m) => !defined.has(m)).sort();
}

function hasCommand(c: string): boolean {
  try {
    execSync(`command -v ${c}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
}

/** Whether the linker finds `lib`, e.g. `librdkafka++.so.1`. */
function hasLibrary(lib: string): boolean {
  try {
    return execSync('ldconfig -p', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .includes(`${lib} `);
  } catch {
    return false;
  }
}

/**
 * librdkafka's test-runner, built against the system's librdkafka (the test sources need only
 * its public API plus three small helpers, tinycthread_extra, rdlist and the socket emulator,
 * compiled in), so no librdkafka build is needed: seconds, not minutes. With `cpp` (the full run)
 * the C++ tests are built too, against Debian's librdkafka++1 (installed as root when missing);
 * without it they become tests that skip and say why. Returns the source tree (the tests'
 * working directory) and the binary.
 */
function ensureSuite(cpp: boolean): { dir: string; runner: string } {
  const cache = cacheDir();
  const dir = ensureSource(cache);
  if (cpp && !hasLibrary('librdkafka++.so.1') && process.getuid?.() === 0 && hasCommand('apt-get')) {
    try {
      sh('apt-get install -y -qq librdkafka++1');
    } catch {
      // the C++ tests then skip, saying why
    }
  }
  const withCpp = cpp && hasLibrary('librdkafka++.so.1') && hasCommand('g++');
  // The build's version in its name: a cached runner built with other flags is not reused.
  const runner = join(dir, 'tests', withCpp ? 'test-runner-glassbox-2-cpp' : 'test-runner-glassbox-2');
  if (existsSync(runner)) return { dir, runner };
  const cc = ['gcc', 'cc'].find(hasCommand);
  if (!cc) throw new SuiteUnavailable('no C compiler (gcc) to build the test-runner');
  const tests = join(dir, 'tests');
  const build = join(tests, withCpp ? 'glassbox-build-cpp' : 'glassbox-build');
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build);
  if (!existsSync(join(dir, 'config.h'))) writeFileSync(join(dir, 'config.h'), TEST_CONFIG_H);
  // The C tests as its Makefile picks them ([08]*-*.c), the runner's own files, and the helpers.
  const cFiles = readdirSync(tests).filter((f) => /^[08]\d*-.*\.c$/.test(f));
  const cppFiles = withCpp ? readdirSync(tests).filter((f) => /^[08]\d*-.*\.cpp$/.test(f)) : [];
  const own = ['test.c', 'rusage.c', 'sockem.c', 'sockem_ctrl.c'];
  const stubs = withCpp
    ? []
    : cppOnlyMains(
        readFileSync(join(tests, 'test.c'), 'utf8'),
        cFiles.map((f) => readFileSync(join(tests, f), 'utf8')),
      );
  writeFileSync(
    join(build, 'cpp_tests_not_built.c'),
    [
      '#include "test.h"',
      ...stubs.map(
        (m) => `int ${m}(int argc, char **argv) { TEST_SKIP("C++ test, not built: needs librdkafka++\\n"); return 0; }`,
      ),
      '',
    ].join('\n'),
  );
  const sources = [
    ...cFiles.map((f) => join(tests, f)),
    ...own.map((f) => join(tests, f)),
    ...['tinycthread.c', 'tinycthread_extra.c', 'rdlist.c'].map((f) => join(dir, 'src', f)),
    join(build, 'cpp_tests_not_built.c'),
  ];
  // __FILE__ as the Makefile gives it (a bare file name): some tests name their topics after it.
  const include = `-I${tests} -I${join(dir, 'src')} -I${join(dir, 'src-cpp')} -fmacro-prefix-map=${tests}/=`;
  const list = (files: string[]) => files.map((f) => `'${f}'`).join(' ');
  try {
    // Two at a time, unoptimised: the tests wait on the broker, not on the CPU.
    sh(`printf '%s\\n' ${list(sources)} | xargs -P2 -n12 ${cc} -O0 -w ${include} -c`, build);
    if (withCpp) {
      const cppSources = [...cppFiles, 'testcpp.cpp'].map((f) => join(tests, f));
      sh(`printf '%s\\n' ${list(cppSources)} | xargs -P2 -n6 g++ -O0 -w ${include} -c`, build);
      sh(`g++ -rdynamic -o '${runner}' *.o -l:librdkafka++.so.1 -l:librdkafka.so.1 -lpthread -lm -ldl`, build);
    } else sh(`${cc} -rdynamic -o '${runner}' *.o -l:librdkafka.so.1 -lpthread -lm -ldl`, build);
  } catch (e) {
    throw new SuiteUnavailable(`the test-runner did not build: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
  }
  return { dir, runner };
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} did not open`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

async function startBroker(
  port: number,
  scenario: string,
): Promise<{ proc: ChildProcess; data: string; log: () => string }> {
  const overrides = (SCENARIOS[scenario] ?? []).flatMap((o) => ['--override', o]);
  const data = mkdtempSync(join(tmpdir(), 'glassbox-conformance-'));
  // One process (node with tsx's loader), so its exit means no broker writes the data dir any more.
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/node/brokerMain.ts',
      '--brokers',
      '3',
      '--port',
      String(port),
      '--http-port',
      '0',
      '--data',
      data,
      ...overrides,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout?.on('data', (d) => {
    out += d;
  });
  proc.stderr?.on('data', (d) => {
    out += d;
  });
  try {
    for (const p of [port, port + 1, port + 2]) await waitForPort(p, 60_000);
  } catch (e) {
    proc.kill('SIGKILL');
    // Say why: the broker's own last words (a missing dependency, a port in use, ...).
    throw new Error(`${e instanceof Error ? e.message : e}; the broker said:\n${out.slice(-2000)}`);
  }
  return { proc, data, log: () => out };
}

function stopBroker(b: { proc: ChildProcess; data: string }): Promise<void> {
  return new Promise((resolve) => {
    const kill = setTimeout(() => b.proc.kill('SIGKILL'), 10_000);
    b.proc.once('exit', () => {
      clearTimeout(kill);
      rmSync(b.data, { recursive: true, force: true, maxRetries: 5 });
      resolve();
    });
    b.proc.kill('SIGTERM');
  });
}

/**
 * Runs the entries of one test number and scenario: librdkafka's runner picks tests by their
 * number (`TESTS` is matched against "0045", not the name), so every entry of a number that the
 * scenario allows runs in one go, and each entry is judged from its own lines.
 */
function runGroup(
  testsDir: string,
  runner: string,
  conf: string,
  group: readonly SuiteTest[],
  timeoutS: number,
  quick: boolean,
): Promise<TestResult[]> {
  const first = group[0] as SuiteTest;
  const started = Date.now();
  return new Promise((resolve) => {
    const proc = spawn(runner, ['-S', '-p1', ...(quick ? ['-Q'] : [])], {
      cwd: testsDir,
      env: {
        ...process.env,
        // This run's own config file: two runs at once (other ports) never read each other's.
        RDKAFKA_TEST_CONF: conf,
        TESTS: first.id,
        TEST_SCENARIO: first.scenario,
        TEST_KAFKA_VERSION: '3.9.0',
        TEST_LEVEL: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.stderr.on('data', (d) => {
      out += d;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutS * 1000);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      resolve(group.map((t) => ({ test: t, seconds, ...judgeEntry(out, `${t.id}_${t.name}`, code, timedOut) })));
    });
  });
}

export function table(results: readonly TestResult[], skipped: readonly { test: SuiteTest; why: string }[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const passed = results.filter((r) => r.verdict === 'PASSED').length;
  const lines = [
    '# librdkafka conformance',
    '',
    `librdkafka ${process.env.RDKAFKA_VERSION ?? '2.0.2'}'s own test suite (Debian's source package) against \`npm run broker -- --brokers 3\`,`,
    "one test number at a time with `TEST_KAFKA_VERSION=3.9.0` (the runner runs all entries of a number together; each entry is judged from its own lines), each on a fresh host started with the configs of its scenario and Kafka's default timings. Written by `npm run conformance`.",
    '',
    `**${passed} passed** of ${results.length} run (${((100 * passed) / Math.max(1, results.length)).toFixed(0)} %; without the ${
      results.filter((r) => TRANSACTIONS[r.test.id]).length
    } transaction tests, issue 27: ${passed - results.filter((r) => TRANSACTIONS[r.test.id] && r.verdict === 'PASSED').length} of ${
      results.filter((r) => !TRANSACTIONS[r.test.id]).length
    }); ${results.filter((r) => r.verdict === 'SKIPPED').length} of them skipped by the suite itself (the reason is in the row); ${skipped.length} do not apply (listed below).`,
    '',
    '| test | result | seconds | first failure line |',
    '| --- | --- | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.test.id}_${r.test.name} | ${r.verdict}${TRANSACTIONS[r.test.id] && r.verdict !== 'PASSED' ? ' (expected: transactions)' : ''} | ${r.seconds.toFixed(1)} | ${esc(r.firstFailure)} |`,
    ),
    '',
    '## Tests that do not apply',
    '',
    '| test | why |',
    '| --- | --- |',
    ...skipped.map((s) => `| ${s.test.id}_${s.test.name} | ${esc(s.why)} |`),
    '',
  ];
  return lines.join('\n');
}

/** What `--report` writes for `.ci/run`'s closing count. */
interface Report {
  passed: number;
  failed: number;
  skipped?: string;
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  let suiteAt: { dir: string; runner: string };
  try {
    suiteAt = ensureSuite(!o.quick);
  } catch (e) {
    if (!(e instanceof SuiteUnavailable)) throw e;
    // Not a failure of the broker: the judge is missing. Said plainly, counted as not run.
    console.log(`conformance: SKIPPED, librdkafka's test suite is not available here: ${e.message}`);
    writeReport(o, { passed: 0, failed: 0, skipped: e.message });
    return;
  }
  const testsDir = join(suiteAt.dir, 'tests');
  const suite = readSuite(readFileSync(join(testsDir, 'test.c'), 'utf8'));
  const skipped: { test: SuiteTest; why: string }[] = [];
  const toRun: SuiteTest[] = [];
  for (const t of suite) {
    if (o.only && !o.only.includes(t.id)) continue;
    if (!o.only && o.quick && !QUICK.includes(t.id)) continue;
    const why = whyNotApplicable(t);
    if (why) skipped.push({ test: t, why });
    else toRun.push(t);
  }
  const conf = join(mkdtempSync(join(tmpdir(), 'glassbox-test-conf-')), 'test.conf');
  writeFileSync(
    conf,
    [
      `bootstrap.servers=127.0.0.1:${o.port},127.0.0.1:${o.port + 1},127.0.0.1:${o.port + 2}`,
      'test.timeout.multiplier=3',
      '',
    ].join('\n'),
  );
  const results: TestResult[] = [];
  // The quick subset shares one host, as librdkafka's own CI runs its suite against one cluster
  // (every test makes its own topics and groups); the full run gives each test a fresh host, so
  // one test's topics, groups and throttles never judge the next.
  let shared: Awaited<ReturnType<typeof startBroker>> | undefined;
  const groups = new Map<string, SuiteTest[]>();
  for (const t of toRun) groups.set(`${t.id}|${t.scenario}`, [...(groups.get(`${t.id}|${t.scenario}`) ?? []), t]);
  for (const group of groups.values()) {
    const scenario = (group[0] as SuiteTest).scenario;
    const broker = o.quick ? (shared ??= await startBroker(o.port, 'default')) : await startBroker(o.port, scenario);
    const rs = await runGroup(testsDir, suiteAt.runner, conf, group, o.timeoutS, o.quick);
    if (!o.quick) await stopBroker(broker);
    for (const r of rs) {
      results.push(r);
      console.log(`${r.test.id}_${r.test.name}  ${r.verdict}  ${r.seconds.toFixed(1)} s  ${r.firstFailure}`);
      if (r.verdict !== 'PASSED' && r.verdict !== 'SKIPPED' && o.quick) console.log(broker.log().slice(-4000));
    }
  }
  if (shared) await stopBroker(shared);
  const md = table(results, skipped);
  if (o.write && !o.only && !o.quick) writeFileSync(join(ROOT, 'docs', 'CONFORMANCE.md'), md);
  const passed = results.filter((r) => r.verdict === 'PASSED').length;
  const notRun = results.filter((r) => r.verdict === 'SKIPPED').length;
  const expected = results.filter(
    (r) => r.verdict !== 'PASSED' && r.verdict !== 'SKIPPED' && TRANSACTIONS[r.test.id],
  ).length;
  const failed = results.length - passed - notRun - expected;
  console.log(
    `conformance: ${passed} passed, ${failed} failed, ${notRun} skipped by the suite (${expected} expected failures: transactions, issue 27)`,
  );
  writeReport(o, { passed, failed });
  process.exit(failed > 0 ? 1 : 0);
}

function writeReport(o: Options, r: Report): void {
  if (!o.report) return;
  mkdirSync(join(o.report, '..'), { recursive: true });
  writeFileSync(o.report, `${JSON.stringify(r)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  });
}
