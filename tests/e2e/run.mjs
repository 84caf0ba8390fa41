#!/usr/bin/env node
// End-to-end tests of the release page in Debian's headless Chromium, driven by playwright-core.
//
//   node tests/e2e/run.mjs          (after scripts/build.sh; scripts/test.sh runs both)
//
// Environment:
//   DIST_DIR        directory to serve (default: <repo>/dist)
//   CHROMIUM        browser binary (default: /usr/bin/chromium); nothing is ever downloaded
//   E2E_OUT         screenshot directory (default: <repo>/tests/e2e/out)
//   E2E_TIMEOUT_MS  watchdog for the whole run (default: 300000)
//   E2E_ONLY        run only the tests whose name matches this regular expression
//
// The page is served by a tiny static server on 127.0.0.1 (random port). Every request the browser
// makes is recorded; a request to any other host fails the test it happens in (and is aborted).
// Page errors and console errors fail the test they happen in too.
//
// DOM contract the tests rely on (the Yew UI provides it):
//   #try-example                       button that loads and diagnoses the flagship trace
//   #trace-input                       the textarea
//   #status[data-state]                "done" once the current input is diagnosed ("working" while busy,
//                                      "error" on failure); must not read "done" for stale input
//   .chain .exception[data-class]      one per throwable of the cause chain, root cause first
//   .finding[data-rule]                one per finding, with a non-empty title (.title / .finding-title / h2-h4)
//   .frame.highlighted .role           frames the finding points at, with their role text
//   [data-fact=checkpoint|operators|subtask|version]   context read out of the text
//   .no-trace                          the clear message shown when the input holds no stack trace
//   .chain .ln[data-ln]                the gutter: the line (or "45–56" range) of the pasted text of a
//                                      header, frame or fold, drawn by CSS, aria-hidden, holding no text;
//                                      empty when the trace sits on one line of the input
//   li.fold > details                  a folded group: its frames are built when it opens (toggle event)
//   .skipped-causes                    a long trace's throwables not shown in full (.cause-line each, when open)
//   article.trace > .finding, .share, .facts, .chain   the parts of a trace, in this order
//   #shortcuts-help[role=dialog]       the keyboard shortcuts help (? opens it, Esc closes it);
//                                      #shortcuts-button opens it too, #close-shortcuts closes it
//   progress#progress                  shown while the worker reads a big input
//   window.__traceDoctorTimings        optional: { parse_ms, diagnose_ms, render_ms, ... }
//
// The last line printed is always `e2e: N passed, M failed`; the exit code is 1 if anything failed.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const DIST = path.resolve(process.env.DIST_DIR || path.join(REPO, 'dist'));
const OUT = path.resolve(process.env.E2E_OUT || path.join(HERE, 'out'));
const CASES_DIR = path.join(REPO, 'tests', 'cases');
const RULES_DIR = path.join(REPO, 'rules');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const WATCHDOG_MS = Number(process.env.E2E_TIMEOUT_MS || 300_000);

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const FLAGSHIP_RULE = 'async-wait-inflight-cme';
const FLAGSHIP_ROLES = [
  'the map being iterated',
  'Kryo copying a generic-typed POJO field',
  "the async operator's in-flight records (operator list state)",
  'synchronous phase of the operator-state snapshot',
  'checkpoint barrier arrived here',
];
const TITLE_SELECTOR = '.title, .finding-title, h2, h3, h4';
const HUGE_BYTES = 2 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// results and the final line

let passed = 0;
let failed = 0;
let finished = false;

function finish(code) {
  if (finished) return;
  finished = true;
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  process.exitCode = code ?? (failed > 0 ? 1 : 0);
}

function fatal(message) {
  console.log(`FAIL setup: ${message}`);
  failed += 1;
  finish(1);
  process.exit(1);
}

const watchdog = setTimeout(() => {
  console.log(`FAIL watchdog: the run took longer than ${WATCHDOG_MS} ms`);
  failed += 1;
  finish(1);
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

// ---------------------------------------------------------------------------------------------
// playwright-core from <repo>/.tools (installed by scripts/setup.sh), or tests/e2e/node_modules

function loadPlaywright() {
  const bases = [path.join(REPO, '.tools', 'package.json'), path.join(HERE, 'package.json')];
  for (const base of bases) {
    try {
      return createRequire(base)('playwright-core');
    } catch {
      // try the next place
    }
  }
  fatal(`playwright-core not found under ${path.join(REPO, '.tools', 'node_modules')}; run scripts/setup.sh`);
}

// ---------------------------------------------------------------------------------------------
// static server for DIST

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

const served = []; // { method, path, status, bytes }
const SUB_PATH = '/docs/tools/trace-doctor/';
const SINGLE_FILE = path.resolve(process.env.SINGLE_FILE || path.join(REPO, 'dist-single', 'trace-doctor.html'));

function startServer(root) {
  const server = http.createServer(async (req, res) => {
    const record = { method: req.method, path: req.url, status: 0, bytes: 0 };
    served.push(record);
    const send = (status, headers, body) => {
      record.status = status;
      record.bytes = body ? body.length : 0;
      res.writeHead(status, { 'Cache-Control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(405, { 'Content-Type': 'text/plain' }, Buffer.from('method not allowed'));
      }
      const url = new URL(req.url, 'http://127.0.0.1');
      let rel = decodeURIComponent(url.pathname);
      // The same files under a deep sub-path, as on a static host's project page.
      if (rel.startsWith(SUB_PATH)) rel = rel.slice(SUB_PATH.length - 1);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(root, '.' + path.posix.normalize(rel));
      if (file !== root && !file.startsWith(root + path.sep)) {
        return send(403, { 'Content-Type': 'text/plain' }, Buffer.from('forbidden'));
      }
      let body;
      try {
        body = await fsp.readFile(file);
      } catch {
        return send(404, { 'Content-Type': 'text/plain' }, Buffer.from('not found'));
      }
      const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
      return send(200, { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff' }, body);
    } catch (err) {
      return send(500, { 'Content-Type': 'text/plain' }, Buffer.from(String(err)));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------------------------------------------------------------------------------------------
// helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
const ms = (x) => (typeof x === 'number' && Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a');

function withTimeout(promise, timeoutMs, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `fn` (async, returns truthy when satisfied) until it holds or `timeoutMs` passes. */
async function eventually(fn, timeoutMs = 2000, every = 50) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v || Date.now() >= end) return v;
    await sleep(every);
  }
}

/** Rule ids whose rule.toml says `platform = "flink"`. */
function flinkRuleIds() {
  const ids = [];
  let dirs = [];
  try {
    dirs = fs.readdirSync(RULES_DIR, { withFileTypes: true }).filter((d) => d.isDirectory());
  } catch {
    return ids;
  }
  for (const d of dirs) {
    let toml;
    try {
      toml = fs.readFileSync(path.join(RULES_DIR, d.name, 'rule.toml'), 'utf8');
    } catch {
      continue;
    }
    const id = /^id\s*=\s*"([^"]+)"/m.exec(toml)?.[1] || d.name;
    if (/^platform\s*=\s*"flink"/m.test(toml)) ids.push(id);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// main

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  fatal(`${path.join(DIST, 'index.html')} does not exist; run scripts/build.sh first`);
}
if (!fs.existsSync(CHROMIUM)) fatal(`${CHROMIUM} does not exist; run scripts/setup.sh`);
fs.mkdirSync(OUT, { recursive: true });

const { chromium } = loadPlaywright();
const server = await startServer(DIST).catch((e) => fatal(`static server: ${e.message}`));
const HOST = `127.0.0.1:${server.address().port}`;
const ORIGIN = `http://${HOST}`;
const PAGE_URL = `${ORIGIN}/`;
console.log(`e2e: serving ${DIST} at ${PAGE_URL}; browser ${CHROMIUM}; screenshots in ${OUT}`);

// Everything that must fail the test during which it happens.
const issues = [];
const requests = []; // every request the browser made: { url, type, local }
const external = [];

function isLocal(urlString) {
  let u;
  try {
    u = new URL(urlString);
  } catch {
    return false;
  }
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  // The single-file build, opened from disk, may read itself and nothing else.
  if (u.protocol === 'file:') return decodeURIComponent(u.pathname) === SINGLE_FILE;
  return (u.protocol === 'http:' || u.protocol === 'ws:') && u.host === HOST;
}

const userDataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'trace-doctor-e2e-'));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    timeout: 60_000,
    acceptDownloads: false,
    serviceWorkers: 'block',
  });
} catch (e) {
  await fsp.rm(userDataDir, { recursive: true, force: true });
  server.close();
  fatal(`launching ${CHROMIUM}: ${e.message}`);
}

// Count and record every request; abort (and fail on) anything that leaves the local server.
context.on('request', (req) => {
  const url = req.url();
  const local = isLocal(url);
  requests.push({ url, type: req.resourceType(), local });
  if (!local) {
    external.push(url);
    issues.push(`request to a host other than ${HOST}: ${req.method()} ${url}`);
  }
});
await context.route((url) => !isLocal(url.href), (route) => route.abort('blockedbyclient'));

context.on('response', (res) => {
  if (isLocal(res.url()) && res.status() >= 400) {
    issues.push(`HTTP ${res.status()} for ${res.url()}`);
  }
});
context.on('requestfailed', (req) => {
  const err = req.failure()?.errorText || '';
  // Requests cut short by our own navigation are not the page's fault.
  if (isLocal(req.url()) && !/ERR_ABORTED/.test(err)) issues.push(`request failed: ${req.url()} (${err})`);
});

// Timing probes, installed before any page script runs: when the app mounted, when #try-example
// was clicked, when the first .finding appeared (all performance.now(), i.e. ms since navigation start).
await context.addInitScript(() => {
  const t = (window.__e2e = { mounted: null, click: null, firstFinding: null });
  const obs = new MutationObserver(() => {
    if (t.mounted === null && document.querySelector('#try-example, #trace-input')) t.mounted = performance.now();
    if (t.firstFinding === null && document.querySelector('.finding')) {
      t.firstFinding = performance.now();
      obs.disconnect();
    }
  });
  obs.observe(document, { childList: true, subtree: true });
  document.addEventListener(
    'click',
    (e) => {
      if (t.click === null && e.target instanceof Element && e.target.closest('#try-example')) t.click = performance.now();
    },
    true,
  );
});

function watchPage(page, label) {
  page.on('pageerror', (err) => issues.push(`[${label}] page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const loc = msg.location();
      const where = loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : '';
      issues.push(`[${label}] console error: ${msg.text()}${where}`);
    }
  });
  page.on('crash', () => issues.push(`[${label}] the page crashed`));
  page.on('websocket', (ws) => {
    requests.push({ url: ws.url(), type: 'websocket', local: isLocal(ws.url()) });
    if (!isLocal(ws.url())) issues.push(`[${label}] websocket to another host: ${ws.url()}`);
  });
  page.setDefaultTimeout(30_000);
  return page;
}

const ONLY = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;

async function test(name, fn) {
  if (ONLY && !ONLY.test(name)) return;
  const mark = issues.length;
  const problems = [];
  const check = (ok, message) => {
    if (!ok) problems.push(message);
    return ok;
  };
  const t0 = performance.now();
  try {
    await fn(check);
  } catch (e) {
    // Playwright quotes the whole argument in its call log: keep the message short.
    const lines = `threw: ${(e && e.message) || e}`.split('\n').slice(0, 6);
    problems.push(lines.map((l) => (l.length > 300 ? l.slice(0, 300) + '…' : l)).join('\n      '));
  }
  problems.push(...issues.slice(mark));
  const took = (performance.now() - t0).toFixed(0);
  if (problems.length === 0) {
    passed += 1;
    console.log(`PASS ${name} (${took} ms)`);
  } else {
    failed += 1;
    console.log(`FAIL ${name} (${took} ms)`);
    for (const p of problems) console.log(`    - ${p}`);
  }
}

async function openApp(page) {
  await page.goto(PAGE_URL, { waitUntil: 'load', timeout: 30_000 });
  await page.locator('#trace-input').waitFor({ state: 'visible', timeout: 20_000 });
  // Each test starts from an empty input: drop the text an earlier test left kept in the browser.
  const kept = await page.evaluate(() => {
    const keys = ['trace-doctor.input', 'trace-doctor.previous'];
    const had = keys.some((k) => localStorage.getItem(k) !== null || sessionStorage.getItem(k) !== null);
    localStorage.clear();
    sessionStorage.clear();
    return had;
  });
  if (kept) {
    await page.reload({ waitUntil: 'load', timeout: 30_000 });
    await page.locator('#trace-input').waitFor({ state: 'visible', timeout: 20_000 });
  }
}

async function statusState(page) {
  return page.evaluate(() => document.querySelector('#status')?.getAttribute('data-state') ?? null);
}

async function waitDone(page, timeout) {
  await page.waitForSelector('#status[data-state="done"]', { state: 'attached', timeout });
}

async function factText(page, fact) {
  const loc = page.locator(`[data-fact="${fact}"]`);
  if ((await loc.count()) === 0) return null;
  return norm(await loc.first().textContent());
}

async function checkFact(check, page, fact, needles) {
  const text = await factText(page, fact);
  if (!check(text !== null, `no [data-fact="${fact}"] element`)) return;
  for (const n of needles) check(text.includes(String(n)), `[data-fact="${fact}"] is "${text}", lacks "${n}"`);
}

async function findingIds(page) {
  return page.$$eval('.finding[data-rule]', (els) => els.map((e) => e.getAttribute('data-rule')));
}

// ---------------------------------------------------------------------------------------------
// the tests

const page = watchPage(await context.newPage(), 'main');
const flagshipText = fs.readFileSync(path.join(CASES_DIR, 'seed.txt'), 'utf8');
const timing = {};

// (a) the flagship example
await test('flagship: try-example shows the async-wait-inflight-cme diagnosis', async (check) => {
  await openApp(page);
  await page.locator('#try-example').click();
  const finding = page.locator(`.finding[data-rule="${FLAGSHIP_RULE}"]`).first();
  await finding.waitFor({ state: 'visible', timeout: 15_000 });

  const title = norm(await finding.locator(TITLE_SELECTOR).first().textContent({ timeout: 2000 }).catch(() => ''));
  check(title.length > 0, `the finding has no title text (looked for ${TITLE_SELECTOR})`);

  const frames = page.locator('.frame.highlighted');
  const nFrames = await frames.count();
  check(nFrames >= 5, `expected at least 5 .frame.highlighted, found ${nFrames}`);
  const roles = (await page.locator('.frame.highlighted .role').allTextContents()).map(norm);
  for (const role of FLAGSHIP_ROLES) {
    check(roles.some((r) => r.includes(role)), `no highlighted frame with role "${role}" (roles: ${JSON.stringify(roles)})`);
  }

  const classes = await page.$$eval('.chain .exception', (els) => els.map((e) => e.getAttribute('data-class')));
  check(
    classes[0] === 'java.util.ConcurrentModificationException',
    `first .chain .exception should be the root cause java.util.ConcurrentModificationException, got ${JSON.stringify(classes)}`,
  );
  check(classes.length === 3, `expected 3 throwables in .chain, found ${classes.length}`);
  // The picture of the race, drawn from this trace: its checkpoint, chain and map class.
  const svgText = norm(await page.locator('.finding.primary figure.diagram svg').textContent().catch(() => ''));
  check(svgText.includes('575') && svgText.includes('HashMap') && svgText.includes('ual_transform_IpLabel'), `the diagram names checkpoint 575, HashMap and the chain: "${svgText.slice(0, 160)}"`);
  check((await page.locator('.finding.primary .dg-throws').count()) === 1, 'the diagram marks where the exception is thrown');
  check((await page.locator('.finding.primary figure.diagram svg[role="img"] title').count()) === 1, 'the diagram has a title for screen readers');

  await checkFact(check, page, 'checkpoint', ['575']);
  await checkFact(check, page, 'operators', ['ual_transform_UserLogBlackUidJudger', 'ual_transform_IpLabel']);
  await checkFact(check, page, 'subtask', ['18', '60']);
  await checkFact(check, page, 'version', ['1.13']);

  // (e) timings of this load
  Object.assign(
    timing,
    await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      const wasm = res.find((r) => r.name.endsWith('.wasm'));
      return {
        app: window.__traceDoctorTimings ?? null,
        probe: window.__e2e ?? null,
        domContentLoaded: nav ? nav.domContentLoadedEventEnd : null,
        load: nav ? nav.loadEventEnd : null,
        wasm: wasm ? { name: wasm.name.split('/').pop(), fetchMs: wasm.duration, bytes: wasm.encodedBodySize } : null,
      };
    }),
  );
  // In-page benchmark: the exported bench_diagnose runs parse + diagnose + view model.
  timing.bench = await page.evaluate(async () => {
    const text = document.querySelector('#trace-input').value;
    const b = window.wasmBindings && window.wasmBindings.bench_diagnose;
    if (!b) return null;
    const r = b(text, 300);
    return { mean: r[0], median: r[1], min: r[2], max: r[3], iterations: 300, bytes: text.length };
  });
  await page.screenshot({ path: path.join(OUT, 'flagship.png'), fullPage: true });
});

// (e) timing printout (informational, not pass/fail)
{
  const p = timing.probe || {};
  console.log(`timing: window.__traceDoctorTimings = ${timing.app ? JSON.stringify(timing.app) : '(not exposed)'}`);
  const b = timing.bench;
  console.log(
    b
      ? `timing: in-page benchmark, flagship (${b.bytes} chars) parse + diagnose + view model x${b.iterations}: mean ${b.mean.toFixed(3)} ms, median ${b.median.toFixed(3)} ms, min ${b.min.toFixed(3)} ms, max ${b.max.toFixed(3)} ms`
      : 'timing: in-page benchmark not exposed (window.wasmBindings.bench_diagnose)',
  );
  console.log(
    `timing: navigation start -> DOMContentLoaded ${ms(timing.domContentLoaded)}, load ${ms(timing.load)}, ` +
      `app mounted ${ms(p.mounted)}` +
      (timing.wasm ? `; ${timing.wasm.name} (${timing.wasm.bytes} bytes) fetched in ${ms(timing.wasm.fetchMs)}` : ''),
  );
  console.log(
    `timing: navigation start -> first .finding ${ms(p.firstFinding)} ` +
      `(try-example clicked at ${ms(p.click)}; click -> first .finding ${ms(
        p.firstFinding != null && p.click != null ? p.firstFinding - p.click : null,
      )})`,
  );
}

// the flagship at a phone's width
await test('open a file: "Open a file…" reads a log from disk into the input and diagnoses it; a file over the limit is refused with a message, the text kept', async (check) => {
  await openApp(page);
  const file = path.join(REPO, 'rules', 'restore-path-not-found', 'match-lab-checkpoint-dir-1.20.3.txt');
  await page.locator('#open-file-input').setInputFiles(file);
  await waitDone(page, 15_000);
  const text = fs.readFileSync(file, 'utf8');
  check((await page.locator('#trace-input').inputValue()) === text, 'the file\'s text is in the input, unchanged');
  const ids = await page.locator('article.trace').first().locator('.finding[data-rule]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
  check(ids[0] === 'restore-path-not-found', `first finding ${JSON.stringify(ids)}`);
  // Over the limit: a message, and the text in the input stays as it was.
  // A sparse file on disk: the browser gets its path, not 101 MB over the wire.
  const huge = path.join(OUT, 'huge.log');
  fs.writeFileSync(huge, '');
  fs.truncateSync(huge, 101_000_000);
  await page.locator('#open-file-input').setInputFiles(huge);
  await page.locator('#file-note').waitFor({ timeout: 10_000 });
  const note = await page.locator('#file-note').textContent();
  check(/100 MB/.test(note), `the note says the limit: "${note}"`);
  check((await page.locator('#trace-input').inputValue()) === text, 'the text is kept when a file is refused');
  fs.unlinkSync(huge);
  // An empty file and a binary file are refused too, saying why; the text stays.
  for (const [name, bytes, words] of [['empty.log', Buffer.alloc(0), /empty/], ['app.bin', Buffer.from([0, 1, 2, 255, 254, 0, 7, 8]), /not look like text/]]) {
    const f = path.join(OUT, name);
    fs.writeFileSync(f, bytes);
    await page.locator('#open-file-input').setInputFiles(f);
    await eventually(async () => words.test(await page.locator('#file-note').textContent().catch(() => '')), 10_000);
    check(words.test(await page.locator('#file-note').textContent()), `${name}: the note says why`);
    check((await page.locator('#trace-input').inputValue()) === text, `${name}: the text is kept`);
    fs.unlinkSync(f);
  }
  // UTF-16 without a byte-order mark (some Windows tools save it): read, not refused.
  const wide = path.join(OUT, 'utf16le.log');
  fs.writeFileSync(wide, Buffer.from(text, 'utf16le'));
  await page.click('#clear');
  check((await page.locator('#trace-input').inputValue()) === '', 'cleared before the UTF-16 file');
  await page.locator('#open-file-input').setInputFiles(wide);
  await eventually(async () => (await page.locator('#trace-input').inputValue()) === text, 10_000);
  check((await page.locator('#trace-input').inputValue()) === text, 'a UTF-16LE file without a byte-order mark is read as its text');
  fs.unlinkSync(wide);
  // A Chinese mail saved as GBK (Chinese Windows): read as GB18030, and the note says so.
  const gbk = path.join(OUT, 'gbk.log');
  fs.writeFileSync(gbk, Buffer.from('b4f3bcd2bac3a3acced2c3c7b5c4d7f7d2b5b1a8b4edc8e7cfc2a3ba0a6a6176612e6c616e672e496c6c6567616c5374617465457863657074696f6e3a20d7b4ccacb2bbb6d40a09617420636f6d2e61636d652e4a6f622e72756ea3a84a6f622e6a617661a3ba3132a3a90a', 'hex'));
  await page.locator('#open-file-input').setInputFiles(gbk);
  await eventually(async () => (await page.locator('#trace-input').inputValue()).includes('大家好'), 10_000);
  check((await page.locator('#trace-input').inputValue()).startsWith('大家好，我们的作业报错如下：'), 'a GBK file is read as its Chinese text');
  check(/GB18030/.test(await page.locator('#file-note').textContent().catch(() => '')), 'the note says the file was read as GB18030');
  fs.unlinkSync(gbk);
  // Latin-1 is not guessed: read as UTF-8 with the bytes replaced, and the note says what to do.
  const latin = path.join(OUT, 'latin1.log');
  fs.writeFileSync(latin, Buffer.from('556e67fc6c746967652045696e676162650a', 'hex'));
  await page.locator('#open-file-input').setInputFiles(latin);
  await eventually(async () => (await page.locator('#trace-input').inputValue()).startsWith('Ung'), 10_000);
  check((await page.locator('#trace-input').inputValue()) === 'Ung\ufffdltige Eingabe\n', 'a Latin-1 file keeps its readable text');
  check(/not UTF-8/.test(await page.locator('#file-note').textContent().catch(() => '')), 'the note says the file is not UTF-8');
  fs.unlinkSync(latin);
});

await test('first screen: a facts strip (checkpoint, chain, subtask, version) above the findings, and a Share / Reply button that opens the Share panel', async (check) => {
  await openApp(page);
  await page.click('#try-example');
  await waitDone(page, 10_000);
  const strip = norm(await page.locator('article.trace').first().locator('.facts-strip').textContent());
  check(/575/.test(strip) && /18 of 60/.test(strip) && /1\.13/.test(strip), `the strip: ${strip}`);
  const first = await page.$eval('main:not([hidden])', (m) => {
    const a = m.querySelector('.facts-strip');
    const b = m.querySelector('.finding[data-rule]');
    return !!(a && b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  check(first, 'the strip comes before the first finding');
  await page.click('#to-share');
  await page.waitForSelector('#share-link', { timeout: 10_000 });
  check(await page.locator('#share').evaluate((d) => d.open), 'the Share panel is open');
});

await test('flagship at 390 px wide: renders without horizontal page scroll', async (check) => {
  const narrow = watchPage(await context.newPage(), 'narrow');
  try {
    await narrow.setViewportSize({ width: 390, height: 844 });
    await openApp(narrow);
    await narrow.locator('#try-example').click();
    await narrow.locator(`.finding[data-rule="${FLAGSHIP_RULE}"]`).first().waitFor({ state: 'visible', timeout: 15_000 });
    const scrollWidth = await narrow.evaluate(() => document.documentElement.scrollWidth);
    if (!check(scrollWidth <= 391, `the page scrolls sideways at 390 px: document scrollWidth is ${scrollWidth}`)) {
      // Name the outermost elements that stick out, so the culprit is easy to find.
      const culprits = await narrow.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        const name = (e) =>
          e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + [...e.classList].map((c) => `.${c}`).join('');
        return [...document.body.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > vw + 1 && e.parentElement.getBoundingClientRect().right <= vw + 1)
          .slice(0, 6)
          .map((e) => `${name(e)} (right edge ${Math.round(e.getBoundingClientRect().right)} px, "${(e.textContent || '').trim().slice(0, 40)}")`);
      });
      for (const c of culprits) check(false, `sticks out: ${c}`);
    }
    await narrow.screenshot({ path: path.join(OUT, 'flagship-narrow.png'), fullPage: true });
  } finally {
    await narrow.close();
  }
});

// ---- issue 6: layout, the line-number gutter, keyboard ---------------------------------------

/** The element that has the focus: its id, classes, and whether it is a highlighted frame. */
async function focused(p) {
  return p.evaluate(() => {
    const a = document.activeElement;
    return a ? { id: a.id, tag: a.tagName.toLowerCase(), cls: a.className, inDialog: !!a.closest('#shortcuts-help') } : null;
  });
}

await test('layout: the diagnosis comes first (findings, then Share, facts, the annotated trace); Share does not move it', async (check) => {
  await openApp(page);
  await page.fill('#trace-input', flagshipText);
  await waitDone(page, 10_000);
  // The order of the parts of each trace card, in the DOM.
  const order = await page.$$eval('main:not([hidden]) article.trace', (cards) =>
    cards.map((card) =>
      [...card.querySelectorAll(':scope > .finding, :scope > .share, :scope > .facts, :scope > .chain')].map((e) =>
        e.classList.contains('finding') ? 'finding' : e.classList[0],
      ),
    ),
  );
  check(
    JSON.stringify(order[0]) === JSON.stringify(['finding', 'share', 'facts', 'chain']),
    `the first trace's parts in DOM order: ${JSON.stringify(order[0])} (expected finding, share, facts, chain)`,
  );
  const before = (s) => page.$eval('main:not([hidden])', (m, s) => {
    const [a, b] = s.map((x) => m.querySelector(x));
    return !!(a && b && a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
  }, s);
  check(await before(['.finding[data-rule]', '.chain']), 'the first finding is before the annotated trace');
  check(await before(['.finding[data-rule]', '#share']), 'the first finding is before the Share panel');
  // In the first screen at 1280 x 900, and it stays where it is when Share opens.
  const top = () => page.$eval('.finding.primary', (e) => Math.round(e.getBoundingClientRect().top + window.scrollY));
  const t0 = await top();
  check(t0 < 400, `the finding starts ${t0} px down the page (it should be in the first screen, near the top)`);
  await openShare(page);
  check((await top()) === t0, `opening Share moved the finding from ${t0} px to ${await top()} px`);
  // Light and dark follow the system setting.
  const bg = async (scheme) => {
    await page.emulateMedia({ colorScheme: scheme });
    return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  };
  const light = await bg('light');
  const dark = await bg('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  check(light !== dark && /\b2[0-5]\d\b/.test(light) && !/\b2[0-5]\d\b/.test(dark), `body background light ${light}, dark ${dark}`);
});

await test('line numbers: the gutter gives each header, frame and fold its lines in the pasted text; they are not copied with it', async (check) => {
  await openApp(page);
  const text = flagshipText;
  const lines = text.split(/\r?\n/);
  const lineOf = (re) => lines.findIndex((l) => re.test(l)) + 1;
  await page.fill('#trace-input', text);
  await waitDone(page, 10_000);
  await page.$$eval('.chain details', (ds) => ds.forEach((d) => { d.open = true; }));
  // A fold builds its frames when it opens (on its toggle event).
  const built = await eventually(() => page.$$eval('.chain li.fold > details', (ds) => ds.every((d) => d.querySelector('.frame'))), 3_000);
  check(built, 'an opened fold shows no frames');
  const gutter = await page.$$eval('.chain .exception', (exs) =>
    exs.map((ex) => ({
      cls: ex.getAttribute('data-class'),
      ln: ex.querySelector(':scope > summary .ln')?.getAttribute('data-ln') ?? null,
      frames: [...ex.querySelectorAll('.frame')].map((f) => ({
        ln: f.querySelector('.ln')?.getAttribute('data-ln') ?? null,
        text: f.querySelector('.frame-text').textContent.replace(/\s*↻\s*$/, '').replace(/^at /, ''),
        restored: f.classList.contains('restored'),
      })),
      folds: [...ex.querySelectorAll('.fold > details > summary')].map((s) => ({
        ln: s.querySelector('.ln')?.getAttribute('data-ln') ?? null,
        label: s.querySelector('.fold-text').textContent,
        n: s.parentElement.querySelectorAll('.frame').length,
      })),
    })),
  );
  // The `Caused by:` lines, as grep would number them.
  const cme = gutter.find((e) => e.cls === 'java.util.ConcurrentModificationException');
  const want = lineOf(/^Caused by: java\.util\.ConcurrentModificationException/);
  check(want > 0 && cme && cme.ln === String(want), `the root cause's gutter reads ${cme && cme.ln}; "Caused by: java.util.ConcurrentModificationException" is line ${want} of seed.txt`);
  const cpe = gutter.find((e) => e.cls === 'org.apache.flink.runtime.checkpoint.CheckpointException');
  const wantCpe = lineOf(/^Caused by: org\.apache\.flink\.runtime\.checkpoint\.CheckpointException/);
  check(cpe && cpe.ln && cpe.ln.split('–')[0] === String(wantCpe), `CheckpointException's gutter reads ${cpe && cpe.ln}, its header is line ${wantCpe}`);
  let frames = 0;
  for (const ex of gutter) {
    for (const f of ex.frames) {
      frames += 1;
      const at = lines[Number(f.ln) - 1] || '';
      check(/^\d+$/.test(f.ln || '') && at.includes(`at ${f.text}`), `frame ${f.text} has gutter ${f.ln}, but that line reads ${JSON.stringify(at.trim().slice(0, 90))}`);
    }
    for (const fold of ex.folds) {
      const m = /^(\d+)–(\d+)$/.exec(fold.ln || '');
      if (!check(m, `fold "${fold.label}" has no line range in its gutter (${fold.ln})`)) continue;
      const [a, b] = [Number(m[1]), Number(m[2])];
      if (!/shared with the enclosing/.test(fold.label)) {
        const span = lines.slice(a - 1, b);
        check(b - a + 1 === fold.n && span.every((l) => /^\s+at /.test(l)), `fold "${fold.label}" reads lines ${a}–${b}: ${fold.n} frames, lines ${JSON.stringify(span.map((l) => l.trim().slice(0, 30)))}`);
      }
    }
  }
  check(frames >= 40, `only ${frames} frames checked`);
  // Selected and copied, the trace carries no line number; the gutter is hidden from screen readers.
  const copied = await page.evaluate(() => {
    const root = document.querySelector('.chain .exception.root');
    const sel = window.getSelection();
    sel.selectAllChildren(root.querySelector('ol.frames'));
    const s = sel.toString();
    sel.removeAllRanges();
    return s;
  });
  check(copied.includes('at java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)'), `the selection holds the frames: ${JSON.stringify(copied.slice(0, 120))}`);
  check(!/^\s*\d+\s*(–\s*\d+)?\s*$/m.test(copied) && !/^\s*\d+\s*at /m.test(copied), `line numbers in the copied text: ${JSON.stringify(copied.slice(0, 200))}`);
  check(!/, lines? \d/.test(copied) && !copied.includes('the map being iterated'), `words for screen readers or role labels in the copied text: ${JSON.stringify(copied.slice(0, 300))}`);
  const exposed = await page.$$eval('.chain .ln', (els) => els.filter((e) => e.getAttribute('aria-hidden') !== 'true' || e.textContent !== '').length);
  check(exposed === 0, `${exposed} gutter cells are exposed to screen readers or hold text`);
  const spoken = await page.$eval('.chain .exception.root > summary', (s) => s.querySelector('.sr-only')?.textContent || '');
  check(spoken.includes(`line ${want}`), `the root cause's title says its line to screen readers: "${spoken}"`);
});

await test('keyboard: / focuses the input, j/k walk the highlighted frames, o toggles a group, ? opens the shortcuts help, Esc closes it', async (check) => {
  await openApp(page);
  await page.click('#try-example');
  await waitDone(page, 10_000);
  const text = await page.inputValue('#trace-input');
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  // "/" goes to the input, and is not typed into it.
  await page.keyboard.press('/');
  check((await focused(page))?.id === 'trace-input', `"/" focused ${JSON.stringify(await focused(page))}`);
  check((await page.inputValue('#trace-input')) === text, 'the "/" was typed into the input');
  // Typing: no shortcut fires, every key is text.
  await page.keyboard.press('End');
  await page.keyboard.type('jk?');
  check((await focused(page))?.id === 'trace-input', 'j, k and ? typed in the input kept the focus there');
  check((await page.inputValue('#trace-input')).endsWith('jk?'), 'j, k and ? typed in the input are text');
  check((await page.locator('#shortcuts-help').count()) === 0, '? typed in the input opened the help');
  await page.fill('#trace-input', text);
  await waitDone(page, 10_000);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  // j, j, k over the highlighted frames.
  const ids = await page.$$eval('main:not([hidden]) .frame.highlighted', (els) => els.map((e) => e.id));
  check(ids.length >= 5, `${ids.length} highlighted frames`);
  await page.keyboard.press('j');
  const first = await focused(page);
  check(first?.id === ids[0], `j focused ${JSON.stringify(first)}, the first highlighted frame is ${ids[0]}`);
  const ring = await page.evaluate(() => {
    const a = document.activeElement;
    const r = a.getBoundingClientRect();
    const s = getComputedStyle(a);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), inView: r.top >= 0 && r.bottom <= window.innerHeight };
  });
  check(ring.style !== 'none' && ring.width >= 2, `the focused frame shows no ring: outline ${ring.style} ${ring.width}px`);
  check(ring.inView, 'the focused frame was scrolled into view');
  await page.keyboard.press('j');
  check((await focused(page))?.id === ids[1], `the second j focused ${(await focused(page))?.id}, expected ${ids[1]}`);
  await page.keyboard.press('k');
  check((await focused(page))?.id === ids[0], `k went back to ${(await focused(page))?.id}, expected ${ids[0]}`);
  await page.keyboard.press('n');
  check((await focused(page))?.id === ids[1], 'n is j');
  await page.keyboard.press('p');
  check((await focused(page))?.id === ids[0], 'p is k');
  // o on a highlighted frame outside a fold leaves its exception open and the focus on the frame
  // (it toggles only a fold of frames around it); o on the exception's title closes and opens it.
  const exId = await page.evaluate(() => document.activeElement.closest('details.exception').id);
  await page.keyboard.press('o');
  const afterO = await page.evaluate((id) => ({ open: document.getElementById(id).open, frame: document.activeElement.classList.contains('frame') }), exId);
  check(afterO.open && afterO.frame, `o on a frame: exception open ${afterO.open}, focus still on the frame ${afterO.frame}`);
  await page.focus(`[id="${exId}"] > summary`);
  await page.keyboard.press('o');
  check(!(await page.evaluate((id) => document.getElementById(id).open, exId)), 'o on the title closes the exception');
  await page.keyboard.press('o');
  check(await page.evaluate((id) => document.getElementById(id).open, exId), 'o on the title opens the exception again');
  // o and Enter on a folded group.
  const fold = await page.$eval('details.exception.root li.fold > details', (d) => d.id);
  await page.focus(`[id="${fold}"] > summary`);
  await page.keyboard.press('o');
  check(await page.evaluate((id) => document.getElementById(id).open, fold), 'o opens a folded group');
  await page.keyboard.press('Enter');
  check(!(await page.evaluate((id) => document.getElementById(id).open, fold)), 'Enter closes it');
  // ? opens the help, which takes the focus; Esc closes it and gives the focus back.
  await page.keyboard.press('?');
  const help = page.locator('#shortcuts-help');
  check(await help.isVisible(), '? did not open the shortcuts help');
  check((await focused(page))?.inDialog, 'the help took the focus');
  const helpText = norm(await help.textContent());
  for (const k of ['/', 'j', 'k', 'o', '?', 'Esc']) check(helpText.includes(k), `the help does not mention ${k}`);
  check((await page.getAttribute('#shortcuts-help', 'role')) === 'dialog' && !!(await page.getAttribute('#shortcuts-help', 'aria-labelledby')), 'the help is a labelled dialog');
  await page.screenshot({ path: path.join(OUT, 'shortcuts-help.png') });
  await page.keyboard.press('Escape');
  check((await help.count()) === 0, 'Esc did not close the help');
  check(await page.evaluate((id) => document.activeElement === document.querySelector(`[id="${id}"] > summary`), fold), 'the focus went back to where it was');
  // Esc closes it from the trace input too (Esc types nothing).
  await page.keyboard.press('?');
  await page.focus('#trace-input');
  await page.keyboard.press('Escape');
  check((await help.count()) === 0, 'Esc in the trace input did not close the help');
  check((await focused(page))?.id === 'trace-input', `after Esc in the trace input the focus went to ${JSON.stringify(await focused(page))}`);
  // The discreet button opens it too, and its Close button closes it.
  await page.click('#shortcuts-button');
  check(await help.isVisible(), 'the "Keyboard shortcuts" button did not open the help');
  check((await page.getAttribute('#shortcuts-button', 'aria-expanded')) === 'true', 'the button says the help is open');
  await page.click('#close-shortcuts');
  check((await help.count()) === 0, 'Close did not close the help');
  // Landmarks, and a name on every control.
  const marks = await page.evaluate(() => ({
    banner: document.querySelectorAll('body > header, #app > header, [role=banner]').length,
    nav: document.querySelectorAll('nav[aria-label]').length,
    main: document.querySelectorAll('main:not([hidden])').length,
    footer: document.querySelectorAll('body > footer, #app > footer, [role=contentinfo]').length,
    unnamed: [...document.querySelectorAll('main:not([hidden]) button, main:not([hidden]) input, main:not([hidden]) textarea, header button')]
      .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
      .map((e) => e.id || e.outerHTML.slice(0, 60)),
  }));
  check(marks.banner === 1 && marks.nav === 1 && marks.main === 1 && marks.footer === 1, `landmarks: ${JSON.stringify(marks)}`);
  check(marks.unnamed.length === 0, `controls without a name: ${JSON.stringify(marks.unnamed)}`);
  // Enter on a link in "The frames that matter" that points at a throwable opens it and moves the
  // focus to it, so the next Tab goes on from there (tester round 3: the focus stayed behind).
  const exceptionLink = page.locator('main:not([hidden]) .finding.primary ol.highlights a[href^="#"]').filter({
    has: page.locator('code', { hasText: /Exception$/ }),
  }).first();
  if (check((await exceptionLink.count()) === 1, 'the flagship finding links to a throwable')) {
    const target = (await exceptionLink.getAttribute('href')).slice(1);
    await page.evaluate((id) => document.getElementById(id).removeAttribute('open'), target);
    await exceptionLink.focus();
    await page.keyboard.press('Enter');
    const after = await page.evaluate((id) => {
      const t = document.getElementById(id);
      return { open: t.open, focusInside: t.contains(document.activeElement), tag: document.activeElement.tagName };
    }, target);
    check(after.open && after.focusInside && after.tag === 'SUMMARY', `after Enter on the link to ${target}: ${JSON.stringify(after)}`);
  }
});

await test('narrow 360 px: no sideways scroll, with Share, every section and the shortcuts help open', async (check) => {
  const narrow = watchPage(await context.newPage(), 'narrow-360');
  try {
    await narrow.setViewportSize({ width: 360, height: 740 });
    await openApp(narrow);
    await narrow.locator('#try-example').click();
    await narrow.locator(`.finding[data-rule="${FLAGSHIP_RULE}"]`).first().waitFor({ state: 'visible', timeout: 15_000 });
    await openShare(narrow);
    await narrow.$$eval('main:not([hidden]) details', (ds) => ds.forEach((d) => { d.open = true; }));
    await eventually(() => narrow.$$eval('.chain li.fold > details', (ds) => ds.every((d) => d.querySelector('.frame'))), 3_000);
    await narrow.keyboard.press('?');
    await narrow.locator('#shortcuts-help').waitFor();
    const widths = await narrow.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, vw: document.documentElement.clientWidth }));
    if (!check(widths.doc <= widths.vw && widths.body <= widths.vw, `the page scrolls sideways at 360 px: ${JSON.stringify(widths)}`)) {
      const culprits = await narrow.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : '') + [...e.classList].map((c) => `.${c}`).join('');
        return [...document.body.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > vw + 1 && e.parentElement.getBoundingClientRect().right <= vw + 1)
          .slice(0, 6)
          .map((e) => `${name(e)} (right edge ${Math.round(e.getBoundingClientRect().right)} px)`);
      });
      for (const c of culprits) check(false, `sticks out: ${c}`);
    }
    // Stacked: the input above the result, both the width of the screen.
    const boxes = await narrow.evaluate(() => ['.input', '.result'].map((s) => { const r = document.querySelector(s).getBoundingClientRect(); return { top: r.top + window.scrollY, width: r.width }; }));
    check(boxes[0].top < boxes[1].top && boxes.every((b) => b.width >= 330), `input and result not stacked full width: ${JSON.stringify(boxes)}`);
    await narrow.screenshot({ path: path.join(OUT, 'flagship-360-help.png') });
  } finally {
    await narrow.close();
  }
});

// (b) the shared cases
const flinkRules = flinkRuleIds();
const caseFiles = fs
  .readdirSync(CASES_DIR)
  .filter((f) => f.endsWith('.expect.json'))
  .sort();
for (const file of caseFiles) {
  const name = file.replace(/\.expect\.json$/, '');
  await test(`case ${name}`, async (check) => {
    const expect = JSON.parse(fs.readFileSync(path.join(CASES_DIR, file), 'utf8'));
    const input = fs.readFileSync(path.join(CASES_DIR, expect.input), 'utf8');
    await openApp(page);
    const before = await statusState(page);
    if (before === 'done') console.log(`    note: #status already reads "done" before ${name} was typed in (a stale "done" can end the wait early)`);
    const t0 = performance.now();
    await page.locator('#trace-input').fill(input);
    await waitDone(page, 10_000);
    const took = performance.now() - t0;

    // Root cause first, and the whole chain (this also proves the page diagnosed *this* input).
    if (expect.root_exception) {
      const classes = await eventually(async () => {
        const c = await page.$$eval('.chain .exception', (els) => els.map((e) => e.getAttribute('data-class')));
        return c.length ? c : null;
      });
      check(
        classes && classes[0] === expect.root_exception,
        `first .chain .exception should be ${expect.root_exception}, got ${JSON.stringify(classes)}`,
      );
      if (expect.chain_length && classes) {
        check(classes.length === expect.chain_length, `expected ${expect.chain_length} throwables in .chain, found ${classes.length}`);
      }
    }

    for (const id of expect.must_fire || []) {
      const found = await eventually(async () => (await page.locator(`.finding[data-rule="${id}"]`).count()) > 0);
      check(found, `rule ${id} must fire but shows no .finding`);
    }
    const ids = await findingIds(page);
    for (const id of expect.must_not_fire || []) {
      check(!ids.includes(id), `rule ${id} must not fire but does`);
    }
    if (expect.must_not_fire_any_flink_rule) {
      const flinkFired = ids.filter((id) => flinkRules.includes(id));
      check(flinkFired.length === 0, `no Flink rule may fire on this input, but ${JSON.stringify(flinkFired)} did`);
    }
    if (expect.context) {
      const c = expect.context;
      if (c.checkpoint_id !== undefined) await checkFact(check, page, 'checkpoint', [c.checkpoint_id]);
      if (c.operators) await checkFact(check, page, 'operators', c.operators);
      if (c.subtask !== undefined) await checkFact(check, page, 'subtask', [c.subtask, c.parallelism].filter((x) => x !== undefined));
    }
    if (expect.flink_version) await checkFact(check, page, 'version', [expect.flink_version]);

    await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
    console.log(`    ${name}: ${input.length} chars, fill -> done ${ms(took)}, findings ${JSON.stringify(ids)}`);
  });
}

// (c) not a stack trace
// (b2) real public traces from the corpus (tests/corpus/): the answer the thread reached, shown
const CORPUS_DIR = path.join(REPO, 'tests', 'corpus');
const CORPUS_SHOWN = [
  'network/b-iceberg-batch-read-heartbeat-gc-sentence',
  'deployment/b-jupyter-s3a-plugin-client-side-sentence',
  'connector/c-cdc-snapshotstate-on-closed-source',
  'state/a-iceberg-committer-restore-nosuchelement-uid-changed',
  'sql/c-http-sink-no-update-groupaggregate',
];
await test('real traces: five public traces get the answer their thread reached (a rule, or the no-rule answer naming the component)', async (check) => {
  for (const name of CORPUS_SHOWN) {
    const text = fs.readFileSync(path.join(CORPUS_DIR, `${name}.txt`), 'utf8');
    const expect = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, `${name}.json`), 'utf8')).expect;
    await openApp(page);
    await page.locator('#trace-input').fill(text);
    await waitDone(page, 15_000);
    const card = page.locator('article.trace').first();
    if (expect.finding === 'rule') {
      const ids = await card.locator('.finding[data-rule]').evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
      check(ids[0] === expect.rule, `${name}: first finding ${JSON.stringify(ids)}, expected ${expect.rule}`);
    } else {
      const answer = await card.locator('.finding.none').getAttribute('data-answer').catch(() => null);
      check(answer === expect.component, `${name}: no-rule answer names ${answer}, expected ${expect.component}`);
      const words = norm(await card.locator('.no-rule-answer').textContent().catch(() => ''));
      check(words.length > 80 && !words.includes('No rule knows'), `${name}: the answer in words (under the "No known diagnosis" heading, not repeating it) is "${words}"`);
    }
    check((await page.locator('#trace-input').inputValue()) === text, `${name}: the textarea value changed`);
    await page.screenshot({ path: path.join(OUT, `corpus-${name.replace('/', '-')}.png`), fullPage: false });
  }
});

await test('bad input: a clear message, the text left alone', async (check) => {
  const text = 'hello, this is not a stack trace';
  await openApp(page);
  await page.locator('#trace-input').fill(text);
  await waitDone(page, 10_000);
  const shown = await eventually(async () => (await page.locator('.no-trace').count()) > 0);
  if (check(shown, 'no .no-trace element')) {
    check(await page.locator('.no-trace').first().isVisible(), '.no-trace is not visible');
    check(norm(await page.locator('.no-trace').first().textContent()).length > 0, '.no-trace has no text');
  }
  check((await page.locator('#trace-input').inputValue()) === text, 'the textarea value changed');
  const ids = await findingIds(page);
  check(ids.length === 0, `no finding expected, got ${JSON.stringify(ids)}`);
  await page.screenshot({ path: path.join(OUT, 'bad-input.png'), fullPage: true });
});

// (c2) shapes that once made the page huge (issue 6, the tester's round 6)

/** Pastes `text` as a paste event does and returns the milliseconds until the page shows the
 *  diagnosis (status "done", `selector` present, the next frame painted), measured in the page. */
async function pasteAndTime(p, text, selector) {
  return p.evaluate(
    ([t, sel]) =>
      new Promise((resolve) => {
        const el = document.querySelector('#trace-input');
        const t0 = performance.now();
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, t);
        el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
        const poll = () => {
          if (document.querySelector('#status')?.dataset.state === 'done' && document.querySelector(sel)) {
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
          } else if (performance.now() - t0 > 20_000) {
            resolve(Infinity);
          } else {
            setTimeout(poll, 5);
          }
        };
        poll();
      }),
    [text, selector],
  );
}

await test('nested causes: 500 levels, each repeating its enclosing frames ("... N more"), answer within 1 s on a small page, root cause first', async (check) => {
  // What Java prints when an exception is wrapped at each level of a recursion: level i repeats
  // i + 1 frames of the level that wraps it, 125,000 restored frames in all.
  let text = 'org.apache.flink.runtime.client.JobExecutionException: Job execution failed.\n\tat org.apache.flink.runtime.jobmaster.JobResult.toJobExecutionResult(JobResult.java:144)\n';
  for (let i = 0; i < 500; i++) text += `Caused by: java.lang.RuntimeException: level ${i}\n\tat com.acme.L${i}.call(L${i}.java:${i + 1})\n\t... ${i + 1} more\n`;
  text += 'Caused by: java.util.ConcurrentModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n';
  await openApp(page);
  const root = '.chain .exception.root[data-class="java.util.ConcurrentModificationException"]';
  const took = await pasteAndTime(page, text, root);
  check(took < 1000, `the diagnosis showed ${ms(took)} after the paste (budget 1 s)`);
  const r = await page.evaluate(() => ({
    nodes: document.querySelectorAll('*').length,
    first: document.querySelector('.chain .exception')?.getAttribute('data-class'),
    shown: document.querySelectorAll('.chain .exception').length,
    more: document.querySelector('.skipped-causes > details > summary .fold-text')?.textContent ?? '',
  }));
  check(r.nodes < 20_000, `${r.nodes} DOM elements (budget 20,000)`);
  check(r.first === 'java.util.ConcurrentModificationException', `the chain starts with ${r.first}, not the root cause`);
  const m = /^(\d+) more causes, not shown in full$/.exec(r.more);
  check(m && Number(m[1]) + r.shown === 502, `${r.shown} throwables shown, and the line for the others reads "${r.more}" (502 in all)`);
  // The others are listed when asked for; a fold of restored frames builds its frames when opened.
  await page.locator('.skipped-causes > details > summary').click();
  const listed = await eventually(() => page.$$eval('.skipped-causes .cause-line', (ls) => ls.length), 3_000);
  check(m && listed === Number(m[1]), `the list of causes not shown has ${listed} lines`);
  const level499 = page.locator('.chain .exception').nth(1);
  await level499.locator('> summary').click();
  const fold = level499.locator('li.fold > details').first();
  await fold.locator('> summary').click();
  const frames = await eventually(() => fold.locator('.frame').count(), 3_000);
  check(frames > 0 && frames <= 250, `an opened fold of restored frames shows ${frames} frames (1 to 250)`);
  const after = await page.evaluate(() => document.querySelectorAll('*').length);
  check(after < 20_000, `${after} DOM elements with the list and a fold open`);
  console.log(`    nested 500: diagnosis shown ${ms(took)} after the paste; ${r.nodes} DOM elements (${after} with the list and a fold open); ${r.shown} throwables in full, ${r.more}`);
  await page.screenshot({ path: path.join(OUT, 'nested-500.png') });
});

await test('long message: a 100 KB exception message is cut in the page, with what was left out and where to read it', async (check) => {
  const text = `java.lang.IllegalArgumentException: ${'x'.repeat(102_400)}\n\tat com.acme.A.b(A.java:1)\n`;
  await openApp(page);
  const took = await pasteAndTime(page, text, '.chain .exception.root');
  check(took < 1000, `the diagnosis showed ${ms(took)} after the paste`);
  const r = await page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    rootCause: document.querySelector('.finding.none code')?.textContent ?? '',
    message: document.querySelector('.chain .exception.root pre.message')?.textContent ?? '',
    more: document.querySelector('.chain .exception.root .message-more')?.textContent ?? '',
  }));
  check(r.height < 4000, `the page is ${r.height} px tall`);
  check(r.rootCause.length <= 340 && r.rootCause.endsWith('…'), `the root cause line holds ${r.rootCause.length} characters`);
  check(r.message.length <= 2001 && r.message.endsWith('…'), `the message block holds ${r.message.length} characters`);
  check(r.more.startsWith('… 100,400 more characters (see the input, line 1)'), `the message block ends with "${r.more}"`);
  // A plan of 300 lines (the planner's message): the beginning, what was left out with the
  // input lines it came from, and the last lines with the reason; a button selects the lines
  // left out in the input.
  const plan = Array.from({ length: 300 }, (_, k) => `${' '.repeat(2 + (k % 5) * 3)}+- FlinkLogicalCalc(select=[a], where=[>(a, ${k})])`);
  const planner = ['org.apache.flink.table.api.TableException: Cannot generate a valid execution plan for the given query: ', '', ...plan, '',
    'Rowtime attributes must not be in the input rows of a regular join. As a workaround you can cast the time attributes of input tables to TIMESTAMP before.',
    'Please check the documentation for the set of currently supported SQL features.',
    '\tat org.apache.flink.table.planner.plan.optimize.program.FlinkVolcanoProgram.optimize(FlinkVolcanoProgram.scala:76)', ''].join('\n');
  await pasteAndTime(page, planner, '.chain .exception.root .message-tail');
  const p = await page.evaluate(() => {
    const root = document.querySelector('.chain .exception.root');
    return {
      head: root.querySelector('pre.message:not(.message-tail)').textContent,
      more: root.querySelector('.message-more').textContent,
      tail: root.querySelector('pre.message-tail').textContent,
    };
  });
  check(p.head.includes('\n     +- FlinkLogicalCalc(select=[a], where=[>(a, 1)])'), 'the plan keeps its indentation');
  const [, from, to] = (/left out here \(see the input, lines (\d+)–(\d+)\)/.exec(p.more) || []).map(Number);
  // Input line 3 + k holds the plan's line k; the last lines shown include the end of the plan.
  check(from > 3 && to > from && to < 302 && p.tail.includes('where=[>(a, 299)])'), `what was left out: "${p.more}"`);
  check(p.tail.endsWith('currently supported SQL features.') && p.tail.includes('Rowtime attributes must not be'), `the last lines: "${p.tail.slice(0, 80)}…"`);
  await page.click('.chain .exception.root .select-lines');
  const sel = await page.evaluate(() => {
    const a = document.getElementById('trace-input');
    const before = a.value.slice(0, a.selectionStart);
    return { focused: document.activeElement === a, line: before.split('\n').length, selected: a.value.slice(a.selectionStart, a.selectionEnd), top: a.scrollTop };
  });
  check(sel.focused && sel.line === from, `the button selects from input line ${sel.line} (want ${from}), focused: ${sel.focused}`);
  check(sel.selected.endsWith(`where=[>(a, ${to - 3})])`) && sel.top > 0, `the selection ends with "${sel.selected.slice(-30)}" (want line ${to}), scrolled to ${sel.top}`);
});

await test('one-line input (REST JSON, escaped newlines): no gutter of identical line numbers, no "lines 1–1"', async (check) => {
  await openApp(page);
  await pasteAndTime(page, fs.readFileSync(path.join(CASES_DIR, 'seed-rest.json'), 'utf8'), '.chain .exception.root');
  const r = await page.evaluate(() => ({
    numbers: [...document.querySelectorAll('.chain .ln')].map((e) => e.getAttribute('data-ln')).filter((l) => l !== ''),
    head: document.querySelector('.trace-head')?.textContent ?? '',
    spoken: [...document.querySelectorAll('.chain .sr-only')].map((e) => e.textContent).filter((t) => /line/.test(t)),
  }));
  check(r.numbers.length === 0, `the gutter shows ${JSON.stringify(r.numbers.slice(0, 5))}`);
  check(!/lines? \d/.test(r.head), `the heading reads "${r.head}"`);
  check(r.spoken.length === 0, `titles say their lines: ${JSON.stringify(r.spoken.slice(0, 3))}`);
});

// (d) a huge paste. locator.fill() cannot do this: Chromium's insertText is quadratic (60 KB take
// 0.8 s, 240 KB 7 s, 1 MB over 2 min). A real clipboard paste (Ctrl+V) takes < 1 s for 2 MB and
// reaches the app as an `input` event with inputType "insertFromPaste", like a user's paste.
async function paste(page, selector, text) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
  const viaClipboard = await page
    .evaluate((t) => navigator.clipboard.writeText(t).then(() => true), text)
    .catch(() => false);
  await page.focus(selector);
  if (viaClipboard) {
    await page.keyboard.press('ControlOrMeta+V', { timeout: 10_000 });
    return 'clipboard paste';
  }
  // Fallback: what a paste does, as the app sees it.
  await page.evaluate(
    ([sel, t]) => {
      const el = document.querySelector(sel);
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, t);
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    },
    [selector, text],
  );
  return 'value set + input event';
}

/** Every rule id with a rule.toml. */
function allRuleIds() {
  return fs
    .readdirSync(RULES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(RULES_DIR, d.name, 'rule.toml')))
    .map((d) => d.name)
    .sort();
}

await test('catalog: #/rules lists every rule, each #/rules/<id> diagnoses its own example live', async (check) => {
  const ids = allRuleIds();
  // Text typed in the diagnoser must survive a trip through the catalog.
  await openApp(page);
  const typed = 'my own notes, not a trace\n';
  await page.fill('#trace-input', typed);
  await page.goto(`${PAGE_URL}#/rules`, { waitUntil: 'load' });
  await page.locator('.rule-entry').first().waitFor({ timeout: 10_000 });
  const listed = await page.$$eval('.rule-entry[data-rule]', (els) => els.map((e) => e.getAttribute('data-rule')).sort());
  check(JSON.stringify(listed) === JSON.stringify(ids), `#/rules lists ${listed.length} rules, rule folders hold ${ids.length}: missing ${ids.filter((i) => !listed.includes(i))}`);
  await page.screenshot({ path: path.join(OUT, 'catalog.png'), fullPage: false });
  // The diagnoser, kept mounted under the catalog, is not displayed (nor focusable), and the tab
  // says which page this is.
  const hiddenDiagnoser = await page.evaluate(() => [...document.querySelectorAll('main[hidden]')].map((m) => getComputedStyle(m).display));
  check(hiddenDiagnoser.length === 1 && hiddenDiagnoser.every((d) => d === 'none'), `hidden main elements display as ${JSON.stringify(hiddenDiagnoser)}`);
  check((await page.title()).startsWith('Rules'), `the catalog's title is ${JSON.stringify(await page.title())}`);
  // The filter narrows the list.
  // Typed key by key, as a person does: the box keeps the focus while the list changes.
  await page.click('#rule-filter');
  await page.keyboard.type('ConcurrentModification', { delay: 20 });
  check((await page.evaluate(() => document.activeElement?.id)) === 'rule-filter', 'the filter box kept the focus while typing');
  check((await page.inputValue('#rule-filter')) === 'ConcurrentModification', `the filter box holds ${await page.inputValue('#rule-filter')}`);
  const filtered = await page.locator('.rule-entry').count();
  check(filtered > 0 && filtered < ids.length, `filter "ConcurrentModification" kept ${filtered} of ${ids.length}`);
  // A rule page and back: the filter is as it was, the rule page has its title.
  await page.click('.rule-entry a');
  await page.waitForSelector('.rule-page');
  check((await page.title()).endsWith('— Trace Doctor') && !(await page.title()).startsWith('Rules'), `a rule page's title is ${JSON.stringify(await page.title())}`);
  await page.goBack();
  await page.locator('#rule-filter').waitFor();
  check((await page.inputValue('#rule-filter')) === 'ConcurrentModification', `back on the list the filter holds ${JSON.stringify(await page.inputValue('#rule-filter'))}`);
  const failures = [];
  for (const id of ids) {
    // Navigating by hash (no reload) is how the page's own links move.
    await page.evaluate((h) => { location.hash = h; }, `#/rules/${id}`);
    try {
      await page.waitForSelector(`.rule-page[data-rule="${id}"] .example-status[data-lead]`, { timeout: 5_000 });
    } catch {
      failures.push(`${id}: the rule page did not render`);
      continue;
    }
    const lead = await page.$eval('.example-status', (e) => e.getAttribute('data-lead'));
    const first = await page.$$eval('.rule-page .trace .finding[data-rule]', (els) => els.map((e) => e.getAttribute('data-rule'))[0] ?? null);
    if (lead !== id || first !== id) failures.push(`${id}: its example leads with ${lead} (first finding card: ${first})`);
  }
  for (const f of failures) check(false, f);
  await page.evaluate(() => { location.hash = '#/rules/async-wait-inflight-cme'; });
  await page.waitForSelector('.rule-page[data-rule="async-wait-inflight-cme"]');
  await page.screenshot({ path: path.join(OUT, 'rule-page.png'), fullPage: false });
  // An unknown rule and an unknown route get a clear message.
  await page.evaluate(() => { location.hash = '#/rules/no-such-rule'; });
  await page.waitForSelector('.catalog[role="alert"]', { timeout: 5_000 });
  check((await page.textContent('.catalog[role="alert"]')).includes('no rule "no-such-rule"'), 'unknown rule message');
  // Back to the diagnoser: the typed text is still there.
  await page.click('.site-nav a:first-child');
  await page.locator('#trace-input').waitFor({ state: 'visible' });
  check((await page.inputValue('#trace-input')) === typed, 'the typed text survived the catalog');
  // "Open this example in the diagnoser" loads it, diagnoses it, and keeps the typed text restorable.
  await page.evaluate(() => { location.hash = '#/rules/chained-copy-cme'; });
  await page.click('#open-example');
  await page.locator('#trace-input').waitFor({ state: 'visible' });
  await waitDone(page, 10_000);
  const ids2 = await findingIds(page);
  check(ids2[0] === 'chained-copy-cme', `after "Open this example": findings ${JSON.stringify(ids2)}`);
  check((await page.locator('#restore').count()) === 1, 'the replaced text can be restored');
  // A finding links to its catalog page.
  await page.click('.finding.primary .rule-link a');
  await page.waitForSelector('.rule-page[data-rule="chained-copy-cme"]', { timeout: 5_000 });
  // A second example replaces the first, which was not edited: the typed text stays the one
  // "Restore previous text" brings back (tester round 3 lost it to the first example).
  await page.evaluate(() => { location.hash = '#/rules/async-wait-inflight-cme'; });
  await page.click('#open-example');
  await page.locator('#trace-input').waitFor({ state: 'visible' });
  await waitDone(page, 10_000);
  await page.click('#restore');
  await eventually(async () => (await page.inputValue('#trace-input')) === typed, 5_000);
  check((await page.inputValue('#trace-input')) === typed, 'after two examples, Restore previous text brings back the typed text');
});

await test('rule page without its prose file: it says the example could not be loaded and offers no empty text', async (check) => {
  // A page of its own, as the prose test's: the aborted requests are what this test is about.
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  try {
    await p.route('**/prose/**', (route) => route.abort('aborted'));
    await p.goto(PAGE_URL + '#/rules/async-wait-inflight-cme', { waitUntil: 'load' });
    await p.waitForSelector('.rule-page .example-missing', { timeout: 20_000 });
    check(/could not be loaded/.test(await p.textContent('.example-missing')), 'the page says the example is missing');
    check((await p.locator('#open-example').count()) === 0, 'no button opens an example that is not here');
    check((await p.locator('.example-status').count()) === 0, 'no verdict on an example that is not here');
    check(errors.length === 0, `no page errors: ${errors.join('; ')}`);
  } finally {
    await p.close();
  }
});

await test('a fragment that is not a route, typed after the page opened: no page error, the diagnoser stays with its text', async (check) => {
  // Found by a fresh helper (stop 26): `#foo` made the router throw "You cannot use relative
  // path with this history type." from inside its listener.
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  try {
    await p.goto(PAGE_URL, { waitUntil: 'load' });
    await p.locator('#trace-input').waitFor({ state: 'visible' });
    await p.fill('#trace-input', 'java.lang.IllegalStateException: kept across fragments\n\tat com.acme.Job.main(Job.java:12)\n');
    for (const h of ['#foo', '#<script>x</script>', '#t1', '#/rules']) {
      await p.evaluate((f) => { location.hash = f; }, h);
      await p.waitForTimeout(200);
    }
    await p.evaluate(() => { location.hash = '#bar'; });
    await eventually(async () => (await p.evaluate(() => location.hash)) === '#/', 5_000);
    check((await p.evaluate(() => location.hash)) === '#/', `the address reads ${await p.evaluate(() => location.hash)}, not #/`);
    await p.locator('#trace-input').waitFor({ state: 'visible', timeout: 5_000 });
    check((await p.inputValue('#trace-input')).includes('kept across fragments'), 'the typed text is still in the diagnoser');
    check(errors.length === 0, `no page errors: ${errors.join('; ')}`);
  } finally {
    await p.close();
  }
});

await test('persistence: the typed text survives a reload, kept in this browser only', async (check) => {
  await openApp(page);
  const typed = 'java.lang.IllegalStateException: typed before a reload\n\tat com.acme.Job.main(Job.java:12)\n';
  await page.fill('#trace-input', typed);
  await page.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
  const stored = await page.evaluate(() => sessionStorage.getItem('trace-doctor.input'));
  check(stored !== null && JSON.parse(stored) === typed, `localStorage holds ${JSON.stringify(stored)?.slice(0, 80)}`);
  await page.reload({ waitUntil: 'load' });
  await page.locator('#trace-input').waitFor({ state: 'visible' });
  await eventually(async () => (await page.inputValue('#trace-input')) === typed, 5_000);
  check((await page.inputValue('#trace-input')) === typed, 'the text is back after a reload');
  await waitDone(page, 10_000);
  check((await page.textContent('#status')).includes('1 distinct trace'), `status after reload: ${await page.textContent('#status')}`);
  // Typed and reloaded at once, before the save delay: kept when the page was hidden.
  await page.focus('#trace-input');
  await page.keyboard.press('End');
  await page.keyboard.type('// a note');
  await page.reload({ waitUntil: 'load' });
  await page.locator('#trace-input').waitFor({ state: 'visible' });
  await eventually(async () => (await page.inputValue('#trace-input')).endsWith('// a note'), 5_000);
  check((await page.inputValue('#trace-input')).endsWith('// a note'), 'a note typed right before a reload was lost');
  await waitDone(page, 10_000);
  // Clearing removes the kept copy (after the save delay).
  await page.click('#clear');
  const gone = () => page.evaluate(() => localStorage.getItem('trace-doctor.input') === null && sessionStorage.getItem('trace-doctor.input') === null);
  await eventually(gone, 3_000);
  check(await gone(), 'clear removes the kept text');
  await page.click('#restore');
});

await test('static hosting: the page works from a deep sub-path of a plain static server', async (check) => {
  const mark = served.length;
  await page.goto(`${ORIGIN}${SUB_PATH}#/rules/chained-copy-cme`, { waitUntil: 'load' });
  await page.waitForSelector('.rule-page[data-rule="chained-copy-cme"] .example-status[data-lead]', { timeout: 20_000 });
  check((await page.getAttribute('.example-status', 'data-lead')) === 'chained-copy-cme', 'the rule page diagnoses its example');
  await page.click('.site-nav a:first-child');
  await page.click('#try-example');
  await page.waitForSelector('.finding[data-rule]', { timeout: 10_000 });
  const paths = served.slice(mark).map((r) => r.path);
  const outside = paths.filter((p) => !p.startsWith(SUB_PATH));
  check(paths.length > 0 && outside.length === 0, `requests outside ${SUB_PATH}: ${JSON.stringify(outside)}`);
  check(new URL(page.url()).pathname === SUB_PATH, `the page stayed at ${SUB_PATH} (now ${page.url()})`);
  // Embedded in docs: a rule page in an iframe.
  await page.setContent(`<iframe src="${ORIGIN}${SUB_PATH}#/rules/async-wait-inflight-cme" title="Trace Doctor" style="width:1000px;height:700px;border:0"></iframe>`);
  const frame = page.frameLocator('iframe');
  await frame.locator('.rule-page .example-status[data-lead]').waitFor({ timeout: 20_000 });
  check((await frame.locator('.example-status').getAttribute('data-lead')) === 'async-wait-inflight-cme', 'the rule page works in an iframe');
  await page.screenshot({ path: path.join(OUT, 'iframe.png') });
});

await test('prose: a diagnosis loads only its rules\' prose (prose/<lang>/<id>.json); a prose file that cannot be had leaves the rule\'s id and says so', async (check) => {
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  const fetched = [];
  p.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.includes('/prose/')) fetched.push(u.pathname); });
  try {
    await p.goto(`${ORIGIN}/`, { waitUntil: 'load' });
    await p.waitForFunction(() => window.wasmBindings || document.querySelector('#try-example'), null, { timeout: 20_000 });
    // (the text kept by earlier tests may come back first, with its own findings)
    await p.waitForTimeout(500);
    const before = await p.$$eval('.finding[data-rule]', (xs) => xs.map((x) => x.dataset.rule));
    await p.click('#try-example');
    await p.waitForSelector(`.finding[data-rule="${FLAGSHIP_RULE}"] .finding-title`, { timeout: 20_000 });
    const shown = new Set([...before, ...await p.$$eval('.finding[data-rule]', (xs) => xs.map((x) => x.dataset.rule))]);
    const unique = new Set(fetched);
    check(unique.size === fetched.length, `each prose file fetched once: ${JSON.stringify(fetched)}`);
    check(fetched.length > 0 && fetched.every((f) => { const m = /^\/prose\/en\/(.+)\.json$/.exec(f); return m && shown.has(m[1]); }),
      `only the prose of rules shown (${[...shown].join(', ')}) was fetched: ${JSON.stringify(fetched)}`);
    check(shown.size < 10 && fetched.length <= shown.size, 'not the whole catalogue');
    const title = await p.textContent(`.finding[data-rule="${FLAGSHIP_RULE}"] .finding-title`);
    check(title.startsWith('The async I/O operator'), `the title from the prose file: ${title}`);
    // The prose cannot be had (a connection gone, a copy without its prose folder): the finding
    // keeps its rule id and says why.
    await p.route('**/prose/**', (route) => route.abort('aborted'));
    const cme = fs.readFileSync(path.join(RULES_DIR, 'chained-copy-cme', 'match-lab-1.13.6.txt'), 'utf8');
    await p.fill('#trace-input', cme);
    await p.waitForSelector('.finding[data-rule="chained-copy-cme"] .prose-missing', { timeout: 20_000 });
    const t2 = await p.textContent('.finding[data-rule="chained-copy-cme"] .finding-title');
    check(t2.trim() === 'chained-copy-cme', `the id stands for the title: ${t2}`);
    const note = await p.textContent('.finding[data-rule="chained-copy-cme"] .prose-missing');
    check(/could not be loaded/.test(note), `the page says the explanation is missing: ${note}`);
    check((await p.inputValue('#trace-input')) === cme, 'the text is kept');
    await p.screenshot({ path: path.join(OUT, 'prose-missing.png') });
    check(errors.length === 0, `no page errors: ${errors.join('; ')}`);
  } finally {
    await p.close();
  }
});

await test('single file: dist-single/trace-doctor.html works from file:// (example, catalog, worker)', async (check) => {
  if (!check(fs.existsSync(SINGLE_FILE), `${SINGLE_FILE} is missing: run scripts/build-single.sh (test.sh does)`)) return;
  const single = watchPage(await context.newPage(), 'single');
  try {
    await single.goto(`file://${SINGLE_FILE}`, { waitUntil: 'load' });
    await single.click('#try-example', { timeout: 20_000 });
    await single.waitForSelector('.finding[data-rule]', { timeout: 20_000 });
    check((await single.getAttribute('.finding[data-rule]', 'data-rule')) === FLAGSHIP_RULE, 'the flagship diagnosis');
    // Share links from a file name no folder of this machine: only the #fragment.
    await single.locator('#share > summary').click();
    await single.waitForSelector('#share-link', { timeout: 10_000 });
    const fileLink = await single.inputValue('#share-link');
    check(fileLink.startsWith('#/s/') && !fileLink.includes('file:'), `the link from a file page: ${fileLink.slice(0, 40)}`);
    check((await single.locator('#file-link-note').count()) === 1, 'the page says why the link is only a fragment');
    // A paste over the worker threshold goes to the worker, created from a blob: URL.
    const big = flagshipText.repeat(40) + '\n' + fs.readFileSync(path.join(RULES_DIR, 'chained-copy-cme', 'match-lab-1.13.6.txt'), 'utf8');
    await single.evaluate((t) => {
      const a = document.querySelector('#trace-input');
      a.value = t;
      a.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }, big);
    await single.waitForFunction(() => window.__traceDoctorTimings && window.__traceDoctorTimings.bytes > 200000, null, { timeout: 30_000 });
    const timings = await single.evaluate(() => window.__traceDoctorTimings);
    check(timings.worker === true, `the big paste ran in the worker: ${JSON.stringify(timings)}`);
    // The second trace's card is built when it comes near the window (src/app/near_view.rs).
    await single.evaluate(() => document.querySelector('.more-traces')?.scrollIntoView());
    await single.waitForFunction(() => document.querySelectorAll('article.trace').length >= 2, null, { timeout: 10_000 }).catch(() => {});
    check((await findingIds(single)).includes('chained-copy-cme'), 'both traces diagnosed');
    await single.goto(`file://${SINGLE_FILE}#/rules/async-wait-inflight-cme`, { waitUntil: 'load' });
    await single.waitForSelector('.rule-page .example-status[data-lead]', { timeout: 20_000 });
    check((await single.getAttribute('.example-status', 'data-lead')) === 'async-wait-inflight-cme', 'the catalog works from file://');
    await single.screenshot({ path: path.join(OUT, 'single-file.png') });
  } finally {
    await single.close();
  }
});

// ---- issue 5: share links, redaction, digests, bad links ----------------------------------

async function openShare(p) {
  await p.locator('#share > summary').click();
  await p.waitForSelector('#share-link', { timeout: 10_000 });
}

async function clipboardText(p) {
  return p.evaluate(() => navigator.clipboard.readText());
}

await test('share: a redacted link that restores the page, its length, copy buttons, replies for mail and GitHub', async (check) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
  await openApp(page);
  const secretLine = 'Caused by: java.net.ConnectException: Connection refused: kafka-1.prod.acme.com/10.1.2.3:9092 (user alice@acme.com)\n\tat com.acme.Job.main(Job.java:12)\n';
  const text = flagshipText + secretLine;
  await page.fill('#trace-input', text);
  await waitDone(page, 10_000);
  await openShare(page);
  check(await page.isChecked('#redact'), 'redaction is on by default');
  const summary = norm(await page.textContent('#redaction-summary'));
  check(/replaced/.test(summary) && /IP/i.test(summary), `redaction summary: ${summary}`);
  await page.locator('.redaction-preview > summary').click();
  const preview = norm(await page.textContent('.redaction-preview table'));
  check(preview.includes('10.1.2.3') && preview.includes('kafka-1.prod.acme.com') && preview.includes('alice@acme.com'), `preview lists the values: ${preview.slice(0, 300)}`);
  // In Chinese the summary and the preview name the kinds of value in Chinese.
  await page.click('#lang-zh');
  check(await eventually(async () => /IP 地址/.test(await page.textContent('#redaction-summary').catch(() => '')), 10_000),
    `the Chinese redaction summary names the kinds in Chinese: ${norm(await page.textContent('#redaction-summary').catch(() => ''))}`);
  const zhPreview = norm(await page.textContent('.redaction-preview table').catch(() => ''));
  check(zhPreview.includes('电子邮件地址') && !/e-mail address|IP address/.test(zhPreview), `Chinese preview: ${zhPreview.slice(0, 200)}`);
  await page.click('#lang-en');
  await eventually(async () => /IP address/.test(await page.textContent('#redaction-summary').catch(() => '')), 10_000);
  const link = await page.inputValue('#share-link');
  check(link.startsWith(PAGE_URL + '#/s/'), `link ${link.slice(0, 80)}`);
  for (const secret of ['10.1.2.3', 'kafka-1.prod.acme.com', 'alice@acme.com']) check(!link.includes(secret), `${secret} readable in the link`);
  const lengthText = norm(await page.textContent('#link-length'));
  check(lengthText.startsWith(`${link.length} characters`), `length shown: "${lengthText}", link has ${link.length}`);
  await page.click('#copy-link');
  await page.waitForSelector('.share-link .copied', { timeout: 5_000 });
  check((await clipboardText(page)) === link, 'Copy link puts the link on the clipboard');
  // Served from 127.0.0.1: the replies leave the link out (no one else could open it) and say
  // so; a public address set in the panel (kept in the browser) puts links on it into them.
  await page.click('#copy-plain');
  await eventually(async () => (await clipboardText(page)).startsWith('Diagnosis:'), 5_000);
  const local = await clipboardText(page);
  check(!local.includes('#/s/'), 'served locally, the mail reply carries no link');
  check(await page.isVisible('#reply-without-link'), 'the panel says the replies leave the link out');
  await page.fill('#public-base', 'javascript:alert(1)');
  await page.click('#save-public-base');
  await page.waitForSelector('#public-base-invalid', { timeout: 5_000 });
  // An address with a user and a password is refused (every link would carry them), says why,
  // and keeps what was typed for the person to correct.
  const WITH_PASSWORD = 'https://me:secret@example.org/trace-doctor/';
  await page.fill('#public-base', WITH_PASSWORD);
  await page.click('#save-public-base');
  check(await eventually(async () => /user or a password/.test(await page.textContent('#public-base-invalid').catch(() => '')), 5_000),
    'an address with credentials is refused and the panel says why');
  await page.waitForTimeout(300);
  check((await page.inputValue('#public-base')) === WITH_PASSWORD, 'the refused address stays in the field as typed');
  check(!(await page.inputValue('#share-link')).includes('secret'), 'no link is made on an address with credentials');
  const PUBLIC = 'https://example.org/trace-doctor/';
  await page.fill('#public-base', PUBLIC);
  await page.click('#save-public-base');
  check(await eventually(async () => (await page.inputValue('#share-link')).startsWith(PUBLIC + '#/s/'), 10_000), 'the link is made on the public address');
  check(!(await page.isVisible('#public-base-invalid')), 'a valid address clears the warning');
  const publicLink = await page.inputValue('#share-link');
  await page.click('#copy-plain');
  await eventually(async () => (await clipboardText(page)).includes(PUBLIC), 5_000);
  const plain = await clipboardText(page);
  check(plain.includes(publicLink), 'with a public address the mail reply ends with the link');
  check(!plain.includes('10.1.2.3'), 'no IP address in the mail reply');
  // Forget the address again (the rest of the run expects links on the page's own address).
  await page.fill('#public-base', '');
  await page.click('#save-public-base');
  check(await eventually(async () => (await page.inputValue('#share-link')).startsWith(PAGE_URL + '#/s/'), 10_000), 'the link is made on the page\'s address again');
  const long = plain.split('\n').filter((l) => l.length > 72 && !l.startsWith('    ') && !/^\S+$/.test(l) && !l.includes('http'));
  check(long.length === 0, `prose lines over 72 columns: ${JSON.stringify(long.slice(0, 3))}`);
  await page.click('#copy-markdown');
  await eventually(async () => (await clipboardText(page)).includes('```'), 5_000);
  check((await clipboardText(page)).includes('ConcurrentModificationException'), 'the Markdown reply names the root cause');
  await page.screenshot({ path: path.join(OUT, 'share.png'), fullPage: false });
  // Turning redaction off shows the real values in the link.
  await page.uncheck('#redact');
  check(await eventually(async () => (await page.inputValue('#share-link')) !== link, 10_000), 'the link is made again without redaction');
  const plainLink = await page.inputValue('#share-link');
  check(plainLink.startsWith(PAGE_URL + '#/s/'), `the unredacted link: ${plainLink.slice(0, 60)}`);
  // Open the (redacted) link in a fresh tab: the text comes back, diagnosed the same.
  const other = watchPage(await context.newPage(), 'link');
  try {
    await other.goto(link, { waitUntil: 'load' });
    await other.waitForSelector('#link-notice', { timeout: 10_000 });
    await waitDone(other, 10_000);
    const restored = await other.inputValue('#trace-input');
    check(restored.includes('192.0.2.') && !restored.includes('10.1.2.3'), 'the link opens the redacted text');
    check(restored.split('\n').length === text.split('\n').length, 'same number of lines as the original');
    check((await findingIds(other))[0] === FLAGSHIP_RULE, `findings after opening the link: ${await findingIds(other)}`);
    // The address keeps the link (to bookmark or forward it) while the text is the link's.
    check(new URL(other.url()).hash === new URL(link).hash, `the address keeps the link (${other.url().slice(0, 60)})`);
    await other.goto(plainLink, { waitUntil: 'load' });
    await other.waitForSelector('#link-notice', { timeout: 10_000 });
    await eventually(async () => (await other.inputValue('#trace-input')) === text, 5_000);
    check((await other.inputValue('#trace-input')) === text, 'the unredacted link restores the text exactly');
    // Once the person edits the text, the address is no longer the link's.
    await other.focus('#trace-input');
    await other.keyboard.press('End');
    await other.keyboard.type(' edited');
    await eventually(async () => new URL(other.url()).hash === '#/', 5_000);
    check(new URL(other.url()).hash === '#/', `after an edit the address is #/ (${other.url().slice(0, 60)})`);
  } finally {
    await other.close();
  }
});

await test('share: the link keeps the sections opened and closed, and brings them back', async (check) => {
  await openApp(page);
  await page.fill('#trace-input', flagshipText);
  await waitDone(page, 10_000);
  // Close an exception open by default (not the root cause), open a frame fold in the root cause.
  const root = await page.$eval('details.exception[open]:not(.root)', (d) => d.id);
  const fold = await page.$eval('details.exception.root li.fold > details', (d) => d.id);
  await page.locator(`[id="${fold}"] > summary`).click();
  await page.locator(`#${root} > summary`).click();
  check(!(await page.$eval(`#${root}`, (d) => d.open)) && (await page.$eval(`[id="${fold}"]`, (d) => d.open)), 'toggled');
  await openShare(page);
  const link = await page.inputValue('#share-link');
  const other = watchPage(await context.newPage(), 'view-options');
  try {
    await other.goto(link, { waitUntil: 'load' });
    await waitDone(other, 10_000);
    await eventually(async () => !(await other.$eval(`#${root}`, (d) => d.open)), 3_000);
    check(!(await other.$eval(`#${root}`, (d) => d.open)), 'the exception closed as in the shared page');
    check(await other.$eval(`[id="${fold}"]`, (d) => d.open), 'the frame fold open as in the shared page');
    const shown = await eventually(() => other.$eval(`[id="${fold}"]`, (d) => d.querySelectorAll('.frame').length), 3_000);
    check(shown >= 3, `the frame fold opened by the link shows ${shown} frames`);
  } finally {
    await other.close();
  }
});

await test('share: past 2,000 characters a shorter link, which opens saying what it leaves out', async (check) => {
  await openApp(page);
  const rest = fs.readFileSync(path.join(CASES_DIR, 'seed-rest.json'), 'utf8');
  const big = rest + '\n' + fs.readFileSync(path.join(CASES_DIR, 'seed-log4j.txt'), 'utf8');
  await page.fill('#trace-input', big);
  await waitDone(page, 10_000);
  await openShare(page);
  const full = await page.inputValue('#share-link');
  check(full.length > 2000, `the full link is ${full.length} characters`);
  check(norm(await page.textContent('#link-length')).includes('2,000'), 'the page warns about mail clients');
  if (!check((await page.locator('#copy-short-link').count()) === 1, 'a shorter link is offered')) return;
  check((await page.locator('#copy-catalog-link').count()) === 1, "the rule's page is offered");
  await page.click('#copy-short-link');
  await eventually(async () => (await clipboardText(page)).includes('#/s/'), 5_000);
  const short = await clipboardText(page);
  check(short.length <= 2000, `the shorter link is ${short.length} characters`);
  const other = watchPage(await context.newPage(), 'short-link');
  try {
    await other.goto(short, { waitUntil: 'load' });
    await other.waitForSelector('#link-notice', { timeout: 10_000 });
    check(/leaves out/.test(await other.textContent('#link-notice')), 'the page says what the short link leaves out');
    await waitDone(other, 10_000);
    check((await findingIds(other))[0] === FLAGSHIP_RULE, 'the short link is diagnosed the same');
  } finally {
    await other.close();
  }
});

await test('first view: a link\'s and a kept text\'s diagnosis shown before the app loads, then the app takes its place', async (check) => {
  // The flagship's share link, made by the command line (built by the test command before this).
  const cli = path.join(REPO, 'target', 'release', 'trace-doctor');
  if (!fs.existsSync(cli)) execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'trace-doctor'], { cwd: REPO });
  const made = execFileSync(cli, ['link', 'make', '--no-redact', '--base', '', path.join(CASES_DIR, 'seed.txt')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  const fragment = made.slice(made.indexOf('#'));
  check(fragment.startsWith('#/s/1.'), `a link: ${fragment.slice(0, 20)}`);
  const p = watchPage(await context.newPage(), 'first-view');
  // The app's module waits until the test lets it go: what shows meanwhile is the first view's.
  let release;
  const gate = new Promise((r) => { release = r; });
  const appFiles = [];
  await p.route(/trace-doctor-web-[0-9a-f]+(_bg\.wasm|\.js)$/, async (route) => {
    appFiles.push(route.request().url());
    await gate;
    await route.continue();
  });
  try {
    await p.goto(`${PAGE_URL}${fragment}`, { waitUntil: 'load' });
    await p.waitForFunction(() => performance.getEntriesByName('td:first-view-shown').length > 0, null, { timeout: 20_000 });
    const title = p.locator(`#first .finding[data-rule="${FLAGSHIP_RULE}"] .finding-title`);
    check(await title.isVisible(), 'the finding is on the screen');
    check((await title.textContent()).startsWith('The async I/O operator'), 'with its title from the prose');
    check(await p.locator('#first .finding.primary ol.fixes li').count() > 0, 'and its fixes');
    const roles = await p.$$eval('#first .frame.highlighted .role', (xs) => xs.map((x) => x.textContent));
    check(FLAGSHIP_ROLES.every((r) => roles.some((x) => x.includes(r))), `the frames that matter are highlighted: ${JSON.stringify(roles)}`);
    check(await p.inputValue('#first-input') === flagshipText, 'the text is in the (read-only) input');
    check(await p.locator('#first .link-notice').isVisible(), 'it says the text came with a link');
    check(await p.locator('#trace-input').count() === 0, 'the app has not started');
    check(await p.evaluate(() => performance.getEntriesByName('td:first-view-shown')[0].startTime < 20_000), 'mark set');
    // The first view writes its numbers itself (src/tell/number.rs): the status line's
    // milliseconds with one decimal, and the diagram's geometry, compared with the app's below.
    const firstStatus = await p.textContent('#first .status');
    check(/— \d+\.\d ms\.$/.test(firstStatus.trim()), `the status line's time: "${firstStatus.trim()}"`);
    const svgGeometry = (root) => p.$$eval(`${root} .finding.primary figure.diagram svg, ${root} .finding.primary figure.diagram svg *`, (els) => els.map((e) => [e.tagName, ...['viewBox', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height', 'dy'].map((a) => e.getAttribute(a))].join(' ')).join('\n'));
    const firstSvg = await svgGeometry('#first');
    check(firstSvg.split('\n').length > 20 && /\d+\.5/.test(firstSvg), `the first view draws the diagram (${firstSvg.split('\n').length} elements, half pixels among them)`);
    // A frame of "the frames that matter": brought into view, the route (the link) kept.
    const target = await p.getAttribute('#first ol.highlights li:last-child a', 'href');
    await p.click('#first ol.highlights li:last-child a');
    check(await p.evaluate(() => location.hash.startsWith('#/s/1.')), 'the link stays in the address');
    check(await eventually(() => p.locator(`#first ${target}`).isVisible(), 2000), `${target} shown`);
    // "Diagnose" is the page shown: the first view and the link stay.
    await p.click('#first .site-nav a[href="#/"]');
    check(await p.evaluate(() => location.hash.startsWith('#/s/1.') && document.querySelector('#first .finding') !== null), '"Diagnose" keeps the first view');
    // What the person does there is kept when the app takes over: a section closed, one opened,
    // the place scrolled to.
    await p.evaluate(() => {
      document.querySelector('#first .finding.primary details.explanation').open = false;
      document.querySelector('#first .finding.primary details.evidence').open = true;
      document.querySelector('#first .finding.primary ol.fixes').scrollIntoView({ block: 'start' });
      document.querySelector('#first .finding.primary details.evidence > summary').focus({ preventScroll: true });
    });
    const scrolled = await p.evaluate(() => scrollY);
    // From now on, no frame may show neither the first view's finding nor the app's.
    await p.evaluate(() => {
      window.__blankFrames = 0;
      const tick = () => {
        const shown = (sel) => { const el = document.querySelector(sel); return !!el && el.getClientRects().length > 0; };
        if (!shown('#first .finding.primary') && !shown('#app .finding.primary')) window.__blankFrames += 1;
        if (performance.getEntriesByName('td:diagnosis-shown').length === 0) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    // The app comes: it shows the same diagnosis, and the first view is gone.
    release();
    await p.waitForFunction(() => performance.getEntriesByName('td:diagnosis-shown').length > 0, null, { timeout: 20_000 });
    check(await p.evaluate(() => window.__blankFrames) === 0, `the diagnosis stayed on the screen: ${await p.evaluate(() => window.__blankFrames)} frames without it`);
    check(appFiles.length >= 2, `the app's files were asked for: ${appFiles.length}`);
    check(Math.abs(await p.evaluate(() => scrollY) - scrolled) < 80, `the place kept: ${scrolled} -> ${await p.evaluate(() => scrollY)}`);
    check(await p.evaluate(() => !document.querySelector('#app .finding.primary details.explanation').open
      && document.querySelector('#app .finding.primary details.evidence').open), 'the sections as the person left them');
    check(await p.evaluate(() => document.activeElement?.matches('#app .finding.primary details.evidence > summary')), 'the focus where it was');
    check(await p.locator('#first').count() === 0, 'the first view has given way');
    check(await p.locator(`.finding[data-rule="${FLAGSHIP_RULE}"]`).count() === 1, 'one finding on the page, the app\'s');
    check(await p.inputValue('#trace-input') === flagshipText, 'the text in the app\'s input');
    check(await p.locator(`.finding[data-rule="${FLAGSHIP_RULE}"] .finding-title`).isVisible(), 'the app\'s finding on the screen');
    const appSvg = await svgGeometry('#app');
    check(appSvg === firstSvg, `the app's diagram has the first view's geometry${appSvg === firstSvg ? '' : `: ${appSvg.slice(0, 200)} vs ${firstSvg.slice(0, 200)}`}`);
    // A plain visit with the text kept in this tab: the same, without the link's note.
    let release2;
    const gate2 = new Promise((r) => { release2 = r; });
    await p.unroute(/trace-doctor-web-[0-9a-f]+(_bg\.wasm|\.js)$/);
    await p.route(/trace-doctor-web-[0-9a-f]+(_bg\.wasm|\.js)$/, async (route) => { await gate2; await route.continue(); });
    await p.goto(PAGE_URL, { waitUntil: 'load' });
    await p.waitForFunction(() => performance.getEntriesByName('td:first-view-shown').length > 0, null, { timeout: 20_000 });
    check(await p.locator(`#first .finding[data-rule="${FLAGSHIP_RULE}"]`).isVisible(), 'a kept text: its finding before the app');
    check(await p.locator('#first .link-notice').count() === 0, 'no link note for a kept text');
    // Going elsewhere before the app has loaded: the first view gives way to that page.
    await p.click('#first .site-nav a[href="#/rules"]');
    check(await p.locator('#first').evaluate((el) => el.childElementCount === 0), 'emptied on a change of route');
    release2();
    await p.locator('main.catalog-layout').waitFor({ state: 'visible', timeout: 20_000 });
    check(await p.locator('#first').count() === 0, 'removed once the app has started on another route');
    // The app's module cannot be had: the first view stays, and says the rest did not start.
    await p.unroute(/trace-doctor-web-[0-9a-f]+(_bg\.wasm|\.js)$/);
    await p.route(/trace-doctor-web-[0-9a-f]+(_bg\.wasm|\.js)$/, (route) => route.abort('aborted'));
    await p.goto('about:blank'); // (from #/rules, the link alone would not load the page again)
    await p.goto(`${PAGE_URL}${fragment}`, { waitUntil: 'load' });
    await p.locator('#first .not-started').waitFor({ state: 'visible', timeout: 20_000 });
    check(await p.locator(`#first .finding[data-rule="${FLAGSHIP_RULE}"]`).isVisible(), 'the diagnosis stays readable');
    check((await p.textContent('#first .not-started')).startsWith('The rest of the page did not start'), 'and it says why the page does nothing more');
  } finally {
    release();
    await p.close();
  }
});

await test('bad links: cut, damaged, oversized or not a link: a clear message, what could be read, nothing typed lost', async (check) => {
  await openApp(page);
  await page.fill('#trace-input', flagshipText);
  await waitDone(page, 10_000);
  await openShare(page);
  await page.uncheck('#redact');
  await eventually(async () => !(await page.inputValue('#share-link')).includes('…'), 2_000);
  const link = await page.inputValue('#share-link');
  const typed = 'my own notes that must survive\n';
  const other = watchPage(await context.newPage(), 'bad-links');
  try {
    const visit = async (url) => {
      await other.goto(PAGE_URL, { waitUntil: 'load' });
      await other.fill('#trace-input', typed);
      await other.goto(url, { waitUntil: 'load' });
      await other.waitForSelector('#link-notice', { timeout: 10_000 });
      return { notice: norm(await other.textContent('#link-notice')), input: await other.inputValue('#trace-input') };
    };
    // Cut in half (a mail client wrapped it): the first part of the text comes back.
    const cut = await visit(link.slice(0, Math.floor(link.length * 0.6)));
    check(/cut short/.test(cut.notice), `cut link: ${cut.notice}`);
    check(cut.input.length > 0 && flagshipText.startsWith(cut.input), `cut link restores a prefix (${cut.input.length} chars)`);
    check((await other.locator('#restore').count()) === 1, 'the typed text can be restored after a cut link');
    // Even after a reload (the replaced text is kept in the browser too).
    await other.reload({ waitUntil: 'load' });
    await other.locator('#restore').waitFor({ timeout: 5_000 });
    await other.click('#restore');
    check((await other.inputValue('#trace-input')) === typed, 'after a reload, Restore previous text brings the typed text back');
    // A character changed in the middle.
    const i = Math.floor(link.length * 0.7);
    const damaged = await visit(link.slice(0, i) + (link[i] === 'A' ? 'B' : 'A') + link.slice(i + 1));
    check(/damaged|changed/.test(damaged.notice), `damaged link: ${damaged.notice}`);
    // A damaged percent escape (the router cannot read it): still read as a damaged link.
    const escaped = await visit(link.slice(0, i) + '%zz' + link.slice(i + 3));
    check(/damaged/.test(escaped.notice), `a link with %zz: ${escaped.notice}`);
    check(escaped.input.length > 0 && flagshipText.startsWith(escaped.input), `a link with %zz restores a prefix (${escaped.input.length} chars)`);
    // Not a link at all: the typed text stays.
    const junk = await visit(`${PAGE_URL}#/s/hello-world`);
    check(junk.notice.length > 0 && junk.input === typed, `junk link: "${junk.notice}", input ${JSON.stringify(junk.input.slice(0, 40))}`);
    // Oversized: a tiny link that inflates past the limit (a zip bomb).
    const bomb = await other.evaluate(async () => {
      const body = new TextEncoder().encode('{"n":1}\t\n' + 'a'.repeat(24 * 1024 * 1024));
      const stream = new Blob([body]).stream().pipeThrough(new CompressionStream('deflate'));
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return '1.' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    });
    const big = await visit(`${PAGE_URL}#/s/${bomb}`);
    check(/larger than/.test(big.notice), `oversized link: ${big.notice}`);
    await other.screenshot({ path: path.join(OUT, 'bad-link.png') });
    // A link cut right after its route.
    await other.goto(`${PAGE_URL}#/s/`, { waitUntil: 'load' });
    await other.waitForSelector('.catalog[role="alert"]', { timeout: 10_000 });
    check(/share link is empty/.test(await other.textContent('.catalog[role="alert"]')), 'an empty #/s/ says the link is empty');
  } finally {
    await other.close();
  }
});

await test('tabs: each tab keeps its own text, and a tab opened on a link keeps the other text restorable', async (check) => {
  await openApp(page);
  const a = 'java.lang.IllegalStateException: text A of tab 1\n\tat com.acme.A.run(A.java:1)\n';
  const b = 'java.lang.IllegalStateException: text B of tab 2\n\tat com.acme.B.run(B.java:2)\n';
  await page.fill('#trace-input', a);
  await page.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
  const tab2 = watchPage(await context.newPage(), 'tab2');
  try {
    await tab2.goto(PAGE_URL, { waitUntil: 'load' });
    await tab2.locator('#trace-input').waitFor({ state: 'visible' });
    await tab2.fill('#trace-input', b);
    await tab2.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
    await page.reload({ waitUntil: 'load' });
    await eventually(async () => (await page.inputValue('#trace-input')) === a, 5_000);
    check((await page.inputValue('#trace-input')) === a, 'tab 1 keeps its own text after tab 2 typed another');
    // A link opened in a new tab: the text kept before is one click away.
    await openShare(tab2);
    const link = await tab2.inputValue('#share-link');
    await tab2.close();
    const tab3 = watchPage(await context.newPage(), 'tab3');
    try {
      await tab3.goto(link, { waitUntil: 'load' });
      await tab3.waitForSelector('#link-notice', { timeout: 10_000 });
      if (check((await tab3.locator('#restore').count()) === 1, 'a tab opened on a link offers Restore previous text')) {
        await tab3.click('#restore');
        const restored = await tab3.inputValue('#trace-input');
        check(restored === a || restored === b, `restored: ${JSON.stringify(restored.slice(0, 50))}`);
      }
    } finally {
      await tab3.close();
    }
  } finally {
    if (!tab2.isClosed()) await tab2.close();
  }
});

await test('tabs: a link opened in another tab does not replace the text a new tab starts from', async (check) => {
  // Tester, issue 14: a link opened in a second tab overwrote the text kept in the browser.
  const own = 'java.lang.IllegalStateException: my own kept text\n\tat com.acme.Own.run(Own.java:3)\n';
  await openApp(page);
  await page.fill('#trace-input', own);
  await page.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
  // A link made as the page makes them (deflate, base64url, version 1), for another text.
  const payload = await page.evaluate(async () => {
    const body = new TextEncoder().encode('{"n":1}\t\n' + 'java.lang.IllegalStateException: a linked text\n\tat com.acme.L.run(L.java:1)\n');
    const stream = new Blob([body]).stream().pipeThrough(new CompressionStream('deflate'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return '1.' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  const linked = watchPage(await context.newPage(), 'linked');
  try {
    await linked.goto(`${PAGE_URL}#/s/${payload}`, { waitUntil: 'load' });
    await linked.waitForSelector('#link-notice', { timeout: 10_000 });
    await eventually(async () => (await linked.inputValue('#trace-input')).includes('a linked text'), 5_000);
    await linked.waitForTimeout(1_000);
    await linked.reload({ waitUntil: 'load' });
    await eventually(async () => (await linked.inputValue('#trace-input')).includes('a linked text'), 5_000);
    check((await linked.inputValue('#trace-input')).includes('a linked text'), 'the link\'s tab keeps the link\'s text across a reload');
  } finally {
    await linked.close();
  }
  const fresh = watchPage(await context.newPage(), 'fresh');
  try {
    await fresh.goto(PAGE_URL, { waitUntil: 'load' });
    await eventually(async () => (await fresh.inputValue('#trace-input')).length > 0, 5_000);
    const started = await fresh.inputValue('#trace-input');
    check(started === own, `a new tab starts from the own text: ${JSON.stringify(started.slice(0, 50))}`);
  } finally {
    await fresh.close();
  }
});

await test('tabs: two links opened in new tabs, one after the other, leave the own text the one to restore', async (check) => {
  // Tester round 4: the second link's tab offered the first link's text, and the own text was gone.
  const x1 = 'java.lang.IllegalStateException: text of link one\n\tat com.acme.L1.run(L1.java:1)\n';
  const x2 = 'java.lang.IllegalStateException: text of link two\n\tat com.acme.L2.run(L2.java:2)\n';
  const own = 'java.lang.IllegalStateException: my own text\n\tat com.acme.Own.run(Own.java:3)\n';
  const maker = watchPage(await context.newPage(), 'maker');
  const links = [];
  try {
    await maker.goto(PAGE_URL, { waitUntil: 'load' });
    await maker.locator('#trace-input').waitFor({ state: 'visible' });
    for (const x of [x1, x2]) {
      await maker.fill('#trace-input', x);
      await waitDone(maker, 10_000);
      await openShare(maker);
      const link = await maker.inputValue('#share-link');
      links.push(link);
      await maker.locator('#share > summary').click();
    }
  } finally {
    await maker.close();
  }
  check(links[0] !== links[1], 'two different links');
  await openApp(page);
  await page.fill('#trace-input', own);
  await page.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
  const tabs = [];
  try {
    for (const link of links) {
      const tab = watchPage(await context.newPage(), `link-tab-${tabs.length + 1}`);
      tabs.push(tab);
      await tab.goto(link, { waitUntil: 'load' });
      await tab.waitForSelector('#link-notice', { timeout: 10_000 });
      await tab.waitForSelector('#kept[data-kept="yes"]', { timeout: 5_000 });
    }
    const last = tabs.at(-1);
    check((await last.inputValue('#trace-input')) === x2, 'the second tab shows the second link\'s text');
    if (check((await last.locator('#restore').count()) === 1, 'the second link\'s tab offers Restore previous text')) {
      await last.click('#restore');
      const restored = await last.inputValue('#trace-input');
      check(restored === own, `Restore previous text brought back ${JSON.stringify(restored.slice(0, 50))}, not the own text`);
    }
  } finally {
    for (const t of tabs) await t.close();
  }
});

await test('huge paste (>= 2 MB): the page stays responsive and finishes', async (check) => {
  const unit = flagshipText.endsWith('\n') ? flagshipText : flagshipText + '\n';
  const copies = Math.ceil(HUGE_BYTES / Buffer.byteLength(unit));
  const huge = unit.repeat(copies);
  await openApp(page);
  const t0 = performance.now();
  // The paste returns only after the page's input handlers ran, so a page that works synchronously
  // on 2 MB blocks right here: the 5 s budget runs from the start of the paste.
  const how = await withTimeout(paste(page, '#trace-input', huge), 20_000, 'pasting 2 MB');
  const tPasted = performance.now();
  await withTimeout(page.evaluate(() => 1), 5_000, 'page.evaluate(() => 1) after the paste');
  const tResponsive = performance.now();
  check(
    tResponsive - t0 <= 5_000,
    `the page did not answer for ${ms(tResponsive - t0)} after the paste started (the paste returned after ${ms(tPasted - t0)}; budget 5 s)`,
  );
  await waitDone(page, 20_000);
  const tDone = performance.now();
  const len = await page.evaluate(() => document.querySelector('#trace-input').value.length);
  check(len === huge.length, `the textarea holds ${len} chars, ${huge.length} were pasted`);
  const ids = await findingIds(page);
  console.log(
    `    huge: ${huge.length} chars (${copies} copies of seed.txt) by ${how}: paste returned after ${ms(tPasted - t0)}, ` +
      `page answered ${ms(tResponsive - tPasted)} later, done ${ms(tDone - tPasted)} after the paste; findings ${JSON.stringify(ids)}`,
  );
  await page.screenshot({ path: path.join(OUT, 'huge.png') });
});

// (f) a 10 MB paste of many different traces (they do not merge): the diagnosis runs off the main
// thread, so the tab keeps answering, a typed character lands, the status shows real progress, and
// the result arrives within 30 s. Round trips of page.evaluate every 50 ms measure how long the
// main thread is ever blocked; the paste itself (the browser inserting 10 MB into the textarea) is
// measured apart.
const BIG_BYTES = 10 * 1024 * 1024;

/** Distinct traces (deterministic): varied classes, messages, frames and line numbers; every 50th
 * is the flagship, so rules fire too. */
function manyTraces(targetBytes, flagship) {
  let s = 0x9e3779b9;
  const rnd = (n) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
  const exceptions = [
    'java.lang.RuntimeException',
    'java.io.IOException',
    'java.lang.IllegalStateException',
    'java.lang.NullPointerException',
    'java.util.concurrent.TimeoutException',
    'java.lang.IllegalArgumentException',
    'org.apache.flink.util.FlinkRuntimeException',
    'java.lang.ClassCastException',
    'java.net.SocketException',
  ];
  const flinkFrames = [
    'org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:',
    'org.apache.flink.runtime.taskmanager.Task.doRun(Task.java:',
    'org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:',
    'org.apache.flink.streaming.runtime.io.RecordWriterOutput.collect(RecordWriterOutput.java:',
    'org.apache.flink.runtime.taskmanager.Task.run(Task.java:',
  ];
  const words = ['record', 'partition', 'offset', 'key', 'window', 'buffer', 'state', 'timer', 'split', 'batch'];
  const parts = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    let t;
    if (flagship && i % 50 === 7) {
      t = flagship;
    } else {
      const lines = [];
      const day = String(1 + rnd(28)).padStart(2, '0');
      const minute = String(rnd(60)).padStart(2, '0');
      lines.push(`2024-03-${day} 12:${minute}:00,${rnd(1000)} ERROR com.acme.job${i}.Runner - job ${i} failed`);
      const throwables = 1 + rnd(3);
      for (let k = 0; k < throwables; k++) {
        const cls = exceptions[rnd(exceptions.length)];
        const msg = `Failed to handle ${words[rnd(words.length)]} ${i}-${k}-${rnd(100000)} in stage ${rnd(50)}`;
        lines.push(`${k === 0 ? '' : 'Caused by: '}${cls}: ${msg}`);
        const user = 2 + rnd(6);
        for (let f = 0; f < user; f++) {
          const c = `Stage${rnd(40)}Handler${f}`;
          lines.push(`\tat com.acme.job${i}.part${k}.${c}.handle${rnd(9)}(${c}.java:${1 + rnd(900)})`);
        }
        const flink = 3 + rnd(flinkFrames.length);
        for (let f = 0; f < flink; f++) lines.push(`\tat ${flinkFrames[(f + k) % flinkFrames.length]}${1 + rnd(1200)})`);
        lines.push('\tat java.lang.Thread.run(Thread.java:748)');
        if (k > 0) lines.push(`\t... ${1 + rnd(3)} more`);
      }
      t = lines.join('\n') + '\n';
    }
    parts.push(t);
    bytes += t.length;
  }
  return parts.join('');
}

/** Chromium's own cost, now, on this machine, of a FOCUSED 10 MB textarea while a line beside it
 * changes every 200 ms (as a progress line does): in a bare page with no code, every frame of
 * such a page commits for 120-260 ms on two cores (a performance trace shows `Commit` alone; an
 * unfocused textarea costs 0-1 ms). Sampled like the page below: the longest page.evaluate
 * round trip over 3 s. */
async function focusedTextareaFloor(text) {
  const bare = watchPage(await context.newPage(), 'bare-10mb-textarea');
  await bare.setContent('<textarea id="t" style="width:600px;min-height:55vh;contain:strict;white-space:pre;font:13px monospace"></textarea><p id="s">status</p>');
  await bare.evaluate((t) => {
    const a = document.querySelector('#t');
    a.value = t;
    a.setSelectionRange(t.length, t.length);
  }, text);
  await bare.focus('#t');
  await sleep(1_000);
  await bare.evaluate(() => {
    let n = 0;
    window.__ticker = setInterval(() => {
      document.querySelector('#s').textContent = `Diagnosing 10.5 MB… ${n++}%`;
    }, 200);
  });
  let worst = 0;
  const until = performance.now() + 3_000;
  while (performance.now() < until) {
    const t = performance.now();
    await bare.evaluate(() => document.querySelector('#s').textContent);
    worst = Math.max(worst, performance.now() - t);
    await sleep(50);
  }
  await bare.close();
  return worst;
}

async function bigPaste(check) {
  const unit = flagshipText.endsWith('\n') ? flagshipText : flagshipText + '\n';
  const big = manyTraces(BIG_BYTES, unit);
  const floor = await focusedTextareaFloor(big);
  const budget = Math.max(200, floor + 50);
  await openApp(page);
  const nextFrame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

  // Sample the main thread: a page.evaluate round trip every 50 ms, reading #status on the way.
  // Paused while the browser itself edits the 10 MB textarea (the paste, the typed character,
  // and the frame each of them paints): that is Chromium's cost of a 10 MB textarea, with or
  // without a diagnosis, and is reported apart.
  const samples = []; // { at, rtt, state, text }
  let sampling = true;
  let paused = true;
  let inflight = Promise.resolve();
  const sampleOnce = async () => {
    const t = performance.now();
    const s = await page
      .evaluate(() => {
        const e = document.querySelector('#status');
        return [e ? e.getAttribute('data-state') : null, e ? e.textContent : ''];
      })
      .catch(() => [null, '']);
    samples.push({ at: t, rtt: performance.now() - t, state: s[0], text: s[1] });
  };
  const sampler = (async () => {
    while (sampling) {
      if (!paused) {
        inflight = sampleOnce();
        await inflight;
      }
      await sleep(50);
    }
  })();
  const pause = async () => {
    paused = true;
    await inflight;
  };

  // Every text #status shows, as the page renders it (sampling could miss a short stage).
  await page.evaluate(() => {
    const log = (window.__statusLog = []);
    const note = () => {
      const e = document.querySelector('#status');
      const entry = e ? `${e.getAttribute('data-state')}|${e.textContent}` : '';
      if (log[log.length - 1] !== entry) log.push(entry);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-state'] });
  });

  const t0 = performance.now();
  const how = await withTimeout(paste(page, '#trace-input', big), 30_000, 'pasting 10 MB');
  const tPasteReturned = performance.now();
  await nextFrame();
  const tPasted = performance.now();
  paused = false;
  const working = await eventually(async () => (await statusState(page)) === 'working', 10_000, 20);
  check(working, `#status never read "working" after the paste (it reads "${await statusState(page)}")`);

  // Type while the page works: the character must land at the end of the text.
  await pause();
  const tType = performance.now();
  await page.keyboard.type('X');
  const tKey = performance.now();
  await nextFrame();
  const tTyped = performance.now();
  paused = false;
  const stateWhenTyped = await statusState(page);
  const tail = await page.evaluate(() => {
    const el = document.querySelector('#trace-input');
    return { length: el.value.length, end: el.value.slice(-5) };
  });
  check(
    tail.length === big.length + 1 && tail.end.endsWith('X'),
    `the typed character did not land: the textarea holds ${tail.length} chars ending ${JSON.stringify(tail.end)} (expected ${big.length + 1} ending "X")`,
  );

  const left = Math.max(1_000, 30_000 - (performance.now() - t0));
  let doneOk = true;
  await waitDone(page, left).catch(() => {
    doneOk = false;
  });
  const tDone = performance.now();
  sampling = false;
  await sampler;
  check(doneOk, `#status did not read "done" within 30 s of the paste`);

  const after = samples.filter((s) => s.at >= tPasted);
  const maxAfter = Math.max(0, ...after.map((s) => s.rtt));
  check(after.length >= 10, `only ${after.length} main-thread samples between the paste and "done"`);
  check(
    maxAfter < budget,
    `the main thread was blocked for ${ms(maxAfter)} (a page.evaluate round trip) while the page diagnosed; budget ${ms(budget)} (at least 200 ms; a bare focused 10 MB textarea's longest round trip was ${ms(floor)}, plus 50 ms)`,
  );
  const statusLog = await page.evaluate(() => window.__statusLog);
  const progress = [...new Set(statusLog.filter((e) => e.startsWith('working|')).map((e) => norm(e.slice(8))))];
  check(
    progress.some((t) => /\d+\s*%/.test(t)),
    `no progress (a percentage) shown while working; "working" texts shown: ${JSON.stringify(progress.slice(0, 8))}`,
  );
  const sampledProgress = samples.filter((s) => s.state === 'working' && /\d+\s*%/.test(s.text)).length;
  const status = norm(await page.locator('#status').textContent());
  check(/distinct traces/.test(status), `the final status does not count the traces: "${status}"`);
  const ids = await findingIds(page);
  check(ids.includes(FLAGSHIP_RULE), `the flagship copies inside the paste were not diagnosed (findings ${JSON.stringify(ids)})`);
  const appTimings = await page.evaluate(() => window.__traceDoctorTimings ?? null);
  const slow = after.filter((s) => s.rtt >= 100).map((s) => `${ms(s.rtt)} at +${ms(s.at - tPasted)} (${s.state})`);
  console.log(
    `    big: ${big.length} chars by ${how}: the paste took ${ms(tPasteReturned - t0)} and its frame ${ms(tPasted - tPasteReturned)}; ` +
      `typing one character took ${ms(tKey - tType)} and its frame ${ms(tTyped - tKey)} (state then: ${stateWhenTyped}); ` +
      `done ${ms(tDone - tPasted)} after the paste; main thread while diagnosing: ${after.length} samples, max round trip ${ms(maxAfter)} (a bare focused 10 MB textarea: ${ms(floor)})` +
      (slow.length ? ` (>= 100 ms: ${slow.slice(0, 6).join(', ')})` : ''),
  );
  console.log(
    `    big: progress shown: ${JSON.stringify(progress.slice(0, 12))} (${sampledProgress} of the samples caught a percentage); ` +
      `final: "${status}"; timings ${JSON.stringify(appTimings)}`,
  );
  await page.screenshot({ path: path.join(OUT, 'big-many.png') });
}

/**
 * Runs `scenario(check)`; when its only problems are stalls (messages starting with `stall`),
 * prints them and runs it once more, judged by `check`. Any other problem, or a stall on the
 * second attempt, fails.
 */
async function onceMoreOnAStall(check, scenario, stall, label) {
  const first = [];
  await scenario((ok, message) => {
    if (!ok) first.push(message);
    return ok;
  });
  if (!(first.length > 0 && first.every((m) => m.startsWith(stall)))) {
    for (const m of first) check(false, m);
    return;
  }
  console.log(`    ${label}: first attempt over budget (${first.join('; ')}); running it once more`);
  await scenario(check);
}

// One 10 MB scenario is judged; a page stall over budget on the first attempt alone is retried
// once (on this 2-core machine a garbage collection sometimes stalls the page right as the work
// starts). Both attempts are printed; the same stall twice, or any other problem, fails. The
// stall budget is judged against a bare focused 10 MB textarea measured in the same run
// (`focusedTextareaFloor`): a performance trace of the page showed its long frames while
// diagnosing to be Chromium's `Commit` of the focused textarea, which a page with no code at all
// pays as well.
await test('10 MB paste of many different traces: the tab stays responsive, shows progress, finishes', (check) =>
  onceMoreOnAStall(check, bigPaste, 'the main thread was blocked', 'big'));

// Issue 6: typing into a 1 MB text never stalls the page. The text is diagnosed in the worker
// (>= 200 KB) as the person types. From the first keystroke until the last diagnosis is on the
// page, a PerformanceObserver records every long task (> 50 ms) of the page's thread, and each
// keystroke's latency is measured from its keydown to the frame after its input event.
// Chromium's own edit of a 1 MB textarea costs 15-50 ms a key in a bare page (its first one
// 60-150 ms; on a loaded machine its median key can pass 80 ms), so the latency budget is on the
// median key, against the bare textarea's median measured in the same run; long tasks are
// judged on every key.
async function typingInBigText(check) {
  const unit = flagshipText.endsWith('\n') ? flagshipText : flagshipText + '\n';
  const big = manyTraces(1_000_000, unit);
  await openApp(page);
  await page.evaluate(() => {
    const log = (window.__statusLog = []);
    const status = document.querySelector('#status');
    new MutationObserver(() => {
      log.push([performance.now(), `${status.getAttribute('data-state')}|${status.textContent}`]);
    }).observe(status, { subtree: true, childList: true, characterData: true, attributes: true });
    window.__bar = false;
    new MutationObserver(() => {
      if (document.querySelector('progress#progress')) window.__bar = true;
    }).observe(status.parentElement, { childList: true, subtree: true });
  });
  await withTimeout(paste(page, '#trace-input', big), 20_000, 'pasting 1 MB');
  await waitDone(page, 30_000);
  const working = await page.evaluate(() => window.__statusLog.map(([, e]) => e).filter((e) => e.startsWith('working|')));
  check(working.some((e) => /Diagnosing 1\.0 MB/.test(e)), `the status never said it was diagnosing 1.0 MB: ${JSON.stringify(working)}`);
  check(working.some((e) => /\d+%/.test(e)), `the status showed no percentage while working: ${JSON.stringify(working)}`);
  check(await page.evaluate(() => window.__bar), 'no progress bar (progress#progress) was shown while the worker read the paste');
  check((await findingIds(page)).includes(FLAGSHIP_RULE), 'the pasted text is diagnosed');
  await page.evaluate(() => {
    const r = (window.__stall = { tasks: [], taskAt: [], keys: [] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        r.tasks.push(e.duration);
        r.taskAt.push(e.startTime);
      }
    }).observe({ type: 'longtask' });
    const area = document.querySelector('#trace-input');
    area.addEventListener('keydown', (e) => r.keys.push({ down: e.timeStamp, frame: null }));
    area.addEventListener('input', () => {
      const k = r.keys[r.keys.length - 1];
      if (k && k.frame === null) requestAnimationFrame(() => setTimeout(() => { k.frame = performance.now(); }, 0));
    });
    area.setSelectionRange(area.value.length, area.value.length);
  });
  await page.focus('#trace-input');
  // Fast typing (the debounce holds the diagnosis back), then slow typing: each pause of a
  // second (past the 600 ms debounce of a 1 MB text) lets a diagnosis run in the worker and
  // come back to the page between two keys.
  await page.keyboard.press('Enter');
  await page.keyboard.type('java.lang.Ill', { delay: 60 });
  const slowFrom = await page.evaluate(() => performance.now());
  await page.keyboard.type('egalState', { delay: 1000 });
  await waitDone(page, 30_000);
  await sleep(500);
  const r = await page.evaluate(() => window.__stall);
  const tail = await page.evaluate(() => document.querySelector('#trace-input').value.slice(-30));
  check(tail.endsWith('\njava.lang.IllegalState'), `the typed text did not land: the text ends ${JSON.stringify(tail)}`);
  check(r.keys.length === 23, `${r.keys.length} keystrokes recorded, 23 typed`);
  const updates = await page.evaluate((t) => window.__statusLog.filter(([at, e]) => at > t && e.startsWith('done|')).length, slowFrom);
  const typed = await page.evaluate((t) => window.__statusLog.filter(([at]) => at > t).map(([at, e]) => `+${(at - t).toFixed(0)} ${e.startsWith("done|") ? e : e.split("|")[0] + (e.match(/\d+%/) || [""])[0]}`), slowFrom);
  console.log(`    typing: status after the slow keys began: ${typed.join(', ')}`);
  check(updates >= 5, `the diagnosis was updated ${updates} times while the person typed 9 keys a second apart`);
  const longest = Math.max(0, ...r.tasks);
  // Chromium's own edit of a 1 MB textarea is a long task of its own (60-150 ms for the first
  // key on a loaded machine, in a page with no code at all). The same keys typed into a bare
  // textarea of the same size and style, now, on this machine, give that floor; the page may add
  // at most 50 ms to it, and never more than 100 ms when the floor is lower.
  const bare = watchPage(await context.newPage(), 'bare-textarea');
  await bare.setContent('<textarea id="t" style="width:600px;min-height:55vh;contain:strict;white-space:pre;font:13px monospace"></textarea>');
  await bare.evaluate((t) => {
    const r = (window.__stall = { tasks: [], keys: [] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) r.tasks.push(e.duration);
    }).observe({ type: 'longtask' });
    const area = document.querySelector('#t');
    area.value = t;
    area.setSelectionRange(t.length, t.length);
    area.addEventListener('keydown', (e) => r.keys.push({ down: e.timeStamp, frame: null }));
    area.addEventListener('input', () => {
      const k = r.keys[r.keys.length - 1];
      if (k && k.frame === null) requestAnimationFrame(() => setTimeout(() => { k.frame = performance.now(); }, 0));
    });
  }, big);
  await bare.focus('#t');
  // The same 23 keys as typed into the page, so that the two medians compare.
  await bare.keyboard.press('Enter');
  await bare.keyboard.type('java.lang.Ill', { delay: 60 });
  await bare.keyboard.type('egalState', { delay: 1000 });
  await sleep(300);
  const bareStall = await bare.evaluate(() => window.__stall);
  const floor = Math.max(0, ...bareStall.tasks);
  const bareSorted = bareStall.keys.map((k) => (k.frame ?? Infinity) - k.down).sort((a, b) => a - b);
  const bareMedian = bareSorted[bareSorted.length >> 1] ?? 0;
  await bare.close();
  const allowed = Math.max(100, floor + 50);
  // Where each long task fell, from the first slow key: the keys' keydowns and the diagnoses
  // shown nearest before it, so that a stall says what it came with.
  const events = await page.evaluate((t) => window.__statusLog.filter(([at, e]) => at > t && e.startsWith('done|')).map(([at]) => at), slowFrom);
  const where = r.tasks.map((d, i) => {
    const at = r.taskAt[i];
    const key = r.keys.filter((k) => k.down <= at + 1).length;
    const done = events.filter((e) => e <= at).pop();
    return `${ms(d)} at +${(at - slowFrom).toFixed(0)} (key ${key} of 23${done === undefined ? '' : `, ${(at - done).toFixed(0)} ms after a diagnosis was shown`})`;
  });
  check(longest < allowed, `the longest main-thread task took ${ms(longest)} (allowed ${ms(allowed)}: a bare 1 MB textarea's longest was ${ms(floor)}); long tasks: ${where.join(', ')}`);
  const latencies = r.keys.map((k) => (k.frame ?? Infinity) - k.down);
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  // The same floor for the median key: what Chromium's own edit of the bare 1 MB textarea costs
  // a key now, on this machine (measured in the same run, like the long tasks above); the page
  // may add at most 50 ms to it, as for the long tasks (it adds 30-45 ms on this machine kind,
  // before issue 11 as after), and the budget
  // is never under 100 ms.
  const medianBudget = Math.max(100, bareMedian + 50);
  check(median < medianBudget, `the median keystroke took ${ms(median)} from keydown to its frame (budget ${ms(medianBudget)}: a bare 1 MB textarea's median key took ${ms(bareMedian)}; all: ${latencies.map((x) => x.toFixed(0)).join(' ')})`);
  console.log(
    `    typing into ${big.length} chars: ${r.keys.length} keys, keydown -> frame: median ${ms(median)}, first ${ms(latencies[0])}, worst ${ms(sorted[sorted.length - 1])}; ` +
      `${updates} diagnoses while typing; long tasks (> 50 ms): ${where.length ? where.join(', ') : 'none'}; a bare 1 MB textarea's longest: ${ms(floor)}, its median key: ${ms(bareMedian)}`,
  );
}

// One typing scenario is judged; a long task over budget on the first attempt alone is retried
// once, as for the 10 MB paste above (CI on 0ce3bd6 saw one task of 150 ms among 50-60 ms ones,
// which 9 local runs, 5 of them with a core kept busy, never showed). Both attempts are printed;
// the same stall twice, or any other problem, fails.
await test('typing into a 1 MB text: no main-thread stall of 100 ms or more, progress shown, the diagnosis follows', (check) =>
  onceMoreOnAStall(check, typingInBigText, 'the longest main-thread task took', 'typing'));

// A big result's trace cards after the first are built as they come near the window
// (src/app/near_view.rs): with the 1 MB text area focused, each card's frame is 50-80 ms of the
// page's thread on two cores, and nine of them, built one per task after the diagnosis, met the
// keys of a person who went on typing (the typing test above failed on them in CI). The cards
// already built stay as more are added: a Share panel opened in the first card stays open.
await test('a line longer than the text box can draw (a 5 MB one-line paste looked empty): the page says so, diagnoses it, and keeps the search terms short', async (check) => {
  const line = `java.lang.RuntimeException: Could not read ${'a'.repeat(1_500_000)}`;
  await openApp(page);
  await withTimeout(paste(page, '#trace-input', line), 20_000, 'pasting a 1.5 MB line');
  await waitDone(page, 30_000);
  const note = page.locator('#long-line');
  check(await note.isVisible(), 'a note under the text box');
  check((await note.textContent()).includes(`${line.length.toLocaleString('en-US')} characters`), `it gives the line's length: "${await note.textContent()}"`);
  check(await page.evaluate(() => document.querySelector('#trace-input').value.length) === line.length, 'the text is all in the text box');
  const search = norm(await page.locator('main:not([hidden]) .finding.none').first().textContent());
  check(search.includes('"RuntimeException" "Could not read"') && search.length < 5_000, `the card's search terms end before the blob (${search.length} characters in the card)`);
  await page.fill('#trace-input', flagshipText);
  await waitDone(page, 30_000);
  check(await note.count() === 0, 'no note for a text of ordinary lines');
});

await test('a big result: the trace cards after the first are built as they come near the window; a link or j into one not built builds them', async (check) => {
  const unit = flagshipText.endsWith('\n') ? flagshipText : flagshipText + '\n';
  // Under the 1,000,000 bytes a share link can carry, so that the Share panel makes a link.
  const big = manyTraces(950_000, unit);
  const cards = () => page.evaluate(() => document.querySelectorAll('main:not([hidden]) article.trace').length);
  await openApp(page);
  await withTimeout(paste(page, '#trace-input', big), 20_000, 'pasting 950 KB');
  await waitDone(page, 30_000);
  await sleep(1_000);
  const first = await cards();
  check(first >= 1 && first < 10, `${first} trace cards built after the diagnosis without scrolling (the first screen holds 1-2 of the 10)`);
  check((await page.locator('.more-traces').count()) === 1, 'a marker after the last card built, while more are to come');
  // Scrolling down builds the others; the Share panel opened in the first card stays open.
  await page.locator('#share > summary').click();
  await page.waitForSelector('#share-link', { timeout: 30_000 });
  for (let i = 0; i < 40 && (await cards()) < 10; i++) {
    await page.evaluate(() => document.querySelector('.more-traces')?.scrollIntoView({ block: 'end' }));
    await sleep(150);
  }
  check((await cards()) === 10, `scrolling to the end built ${await cards()} of the 10 trace cards`);
  check((await page.locator('.more-traces').count()) === 0, 'no marker once every card is built');
  check(await page.evaluate(() => document.querySelector('#share').open), 'the Share panel opened in the first card was closed while the cards were added');
  // A link in the list of traces to a card not built yet: all are built, and it is brought into view.
  await openApp(page);
  await withTimeout(paste(page, '#trace-input', big), 20_000, 'pasting 1 MB');
  await waitDone(page, 30_000);
  await page.locator('details.trace-index > summary').click();
  const last = page.locator('details.trace-index li a').last();
  const target = (await last.getAttribute('href')).slice(1);
  check((await page.locator(`#${target}`).count()) === 0, `the last card (#${target}) is not built before its link is followed`);
  await last.click();
  await page.waitForSelector(`#${target}`, { timeout: 5_000 }).catch(() => {});
  await sleep(500);
  const seen = await page.evaluate((id) => {
    const el = document.getElementById(id);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0;
  }, target);
  check(seen === true, `following the link to #${target} built its card and brought it into view (${seen})`);
  check((await cards()) === 10, `following the link built all 10 cards (${await cards()})`);
  // j past the last highlighted frame built so far, with cards still to build: they are built.
  await openApp(page);
  await withTimeout(paste(page, '#trace-input', big), 20_000, 'pasting 1 MB');
  await waitDone(page, 30_000);
  check((await page.locator('main:not([hidden]) .frame.highlighted').count()) > 0, 'the first card highlights frames');
  // From the last highlighted frame built (focusing it may bring a card near, and build it).
  let presses = 0;
  for (; presses < 5 && (await cards()) < 10; presses++) {
    await page.evaluate(() => [...document.querySelectorAll('main:not([hidden]) .frame.highlighted')].at(-1).focus());
    await page.keyboard.press('j');
    await sleep(300);
  }
  check((await cards()) === 10, `j on the last highlighted frame built the cards still to come (${await cards()} of 10 after ${presses} presses)`);
  const focused = await page.evaluate(() => document.activeElement?.classList.contains('highlighted'));
  check(focused, 'after j the focus is on a highlighted frame');
});

// Issue 13, item 4: the Share panel's work (redaction, the link, the replies) runs in its own
// worker, on a module of its own loaded when the panel opens; on the page's thread it only renders.
await test('share on a 1 MB text: the panel is made in its worker, loaded when it opens; the page stays responsive', async (check) => {
  const unit = flagshipText.endsWith('\n') ? flagshipText : flagshipText + '\n';
  const big = manyTraces(950_000, unit);
  await openApp(page);
  const before = served.length;
  await withTimeout(paste(page, '#trace-input', big), 20_000, 'pasting 950 KB');
  await waitDone(page, 30_000);
  check(!served.slice(before).some((r) => r.path.includes('trace-doctor-share')), 'the Share worker was loaded before the panel was opened');
  await page.evaluate(() => {
    const r = (window.__shareStall = { tasks: [] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) r.tasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  const opened = Date.now();
  await page.locator('#share > summary').click();
  await page.waitForSelector('#share-link', { timeout: 30_000 });
  const took = Date.now() - opened;
  await sleep(300);
  const link = await page.inputValue('#share-link');
  check(link.includes('#/s/'), `a share link for the big text: ${link.slice(0, 60)}`);
  check(served.slice(before).some((r) => r.path.endsWith('/trace-doctor-share_bg.wasm')), 'the Share worker\'s module was loaded when the panel opened');
  const tasks = await page.evaluate(() => window.__shareStall.tasks);
  const longest = Math.max(0, ...tasks);
  // Made on the page's thread (before), the panel of this text was one task of about a second.
  check(longest < 200, `the longest main-thread task while the panel was made took ${ms(longest)}; long tasks: ${tasks.map(ms).join(', ')}`);
  console.log(`    share panel of ${big.length} chars: shown ${took} ms after the click; long tasks (> 50 ms): ${tasks.length ? tasks.map(ms).join(', ') : 'none'}`);
});

await test('share worker unavailable: the panel says why, and tries again when opened again', async (check) => {
  await openApp(page);
  await page.fill('#trace-input', flagshipText);
  await waitDone(page, 10_000);
  const block = (route) => route.abort('failed');
  await page.route('**/trace-doctor-share*', block);
  try {
    await page.locator('#share > summary').click();
    await page.waitForSelector('#share-failed', { timeout: 20_000 });
    const said = norm(await page.textContent('#share-failed'));
    check(/could not be made in this browser: \S/.test(said), `the message says why: ${said}`);
    check((await findingIds(page))[0] === FLAGSHIP_RULE, 'the diagnosis stays');
  } finally {
    await page.unroute('**/trace-doctor-share*', block);
  }
  // Only its WebAssembly blocked: the loader runs and fails to download it; said in words, not
  // as the browser's "Uncaught TypeError: Failed to fetch".
  const cut = (route) => route.abort('aborted');
  await page.route('**/trace-doctor-share_bg.wasm', cut);
  try {
    await page.locator('#share > summary').click();
    await page.locator('#share > summary').click();
    check(await eventually(async () => /could not be downloaded/.test(await page.textContent('#share-failed').catch(() => '')), 20_000),
      `with its module blocked the message says a file could not be downloaded: ${norm(await page.textContent('#share-failed').catch(() => ''))}`);
    check(!/Uncaught|Failed to fetch/.test(await page.textContent('#share-failed').catch(() => '')), 'no raw browser error in the message');
  } finally {
    await page.unroute('**/trace-doctor-share_bg.wasm', cut);
  }
  await page.locator('#share > summary').click();
  await page.locator('#share > summary').click();
  await page.waitForSelector('#share-link', { timeout: 20_000 });
  check((await page.inputValue('#share-link')).includes('#/s/'), 'opened again, the panel has its link');
});

// The whole run: nothing left the machine, nothing went wrong between tests.
await test('accessibility: axe-core finds no serious or critical violation (diagnosis, share, shortcuts help, catalog, rule page; light and dark)', async (check) => {
  const axePath = path.join(REPO, '.tools', 'node_modules', 'axe-core', 'axe.min.js');
  if (!check(fs.existsSync(axePath), `${axePath} is missing: run scripts/setup.sh`)) return;
  const axeSource = fs.readFileSync(axePath, 'utf8');
  const audit = async (what) => {
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const r = await window.axe.run(document);
      // Proof that the check ran: rules that passed on this page.
      if (r.passes.length < 10) return [`axe-core ran only ${r.passes.length} passing rules`];
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
    });
    for (const v of result) check(false, `${what}: ${v}`);
    return result.length;
  };
  let found = 0;
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    await page.click('#try-example');
    await page.waitForSelector('.finding[data-rule]', { timeout: 10_000 });
    await page.locator('#share > summary').click();
    await page.waitForSelector('#share-link', { timeout: 10_000 });
    found += await audit(`diagnosis + share (${scheme})`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, `flagship-${scheme}.png`), fullPage: false });
    await page.keyboard.press('?');
    await page.waitForSelector('#shortcuts-help', { timeout: 5_000 });
    found += await audit(`shortcuts help (${scheme})`);
    await page.keyboard.press('Escape');
    await page.evaluate(() => { location.hash = '#/rules'; });
    await page.waitForSelector('.rule-entry', { timeout: 10_000 });
    found += await audit(`catalog (${scheme})`);
    await page.evaluate(() => { location.hash = '#/rules/async-wait-inflight-cme'; });
    await page.waitForSelector('.rule-page .example-status', { timeout: 10_000 });
    found += await audit(`rule page (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  console.log(`    axe-core ${JSON.parse(fs.readFileSync(path.join(REPO, '.tools', 'node_modules', 'axe-core', 'package.json'), 'utf8')).version}: ${found} serious or critical violations on 8 views`);
});

await test('network: every request went to the local server', async (check) => {
  check(external.length === 0, `requests to other hosts: ${JSON.stringify([...new Set(external)])}`);
  check(requests.length > 0, 'no request was recorded at all');
});

const paths = [...new Set(served.map((s) => `${s.status} ${s.path}`))];
console.log(`e2e: ${requests.length} requests recorded, ${external.length} external; served: ${paths.join(', ')}`);

await context.close().catch(() => {});
server.close();
await fsp.rm(userDataDir, { recursive: true, force: true }).catch(() => {});
finish();
