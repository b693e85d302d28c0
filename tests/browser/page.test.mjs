// The page of `optimoo export --format html`, driven in a real browser.
//
// Debian's headless Chromium (/usr/bin/chromium; playwright-core downloads
// no browser) opens the page from disk: first the page of several games
// (docs/index.html's trees: the picker, the address that keeps a game,
// statistics, sharing, typed answers, undo, exact hints by relabelling,
// screenshots light and dark at 1200 and 375 px, an axe-core check), then the
// page `optimoo serve` sends (exact hints off the tree and the review, against
// `moo rank --json` and `moo analyze --json`); then for moo:4x10 (data/moo-4x10-cap7.tree)
// and mm:4x6 (data/mm-4x6.tree) and plays: a whole game following the hints,
// a whole game where the tree guesses a secret, and a walk down the tree;
// then for the word list data/words4.tree (words over aeilnoprst) the same
// three, against `moo --tree data/words4.tree solve WORD` and the JSON export.
// What the page shows is checked against independent evidence: the `moo
// solve` games, `optimoo partition` counts, and histograms this file computes
// from `optimoo export --format json` with its own feedback rule. Every
// request the page makes is recorded: only the page itself may load.
// Screenshots at phone and desktop sizes go to target/browser-screenshots/.
//
// Needs `cargo build --release` first. Run: `npm ci && npm test` here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'target/release');
const OUT = path.join(ROOT, 'target/browser');
const SHOTS = path.join(ROOT, 'tests/browser/out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SIZES = { phone: { width: 375, height: 812 }, desktop: { width: 1200, height: 800 } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const GAMES = [
  { name: 'moo', game: 'moo:4x10', tree: 'data/moo-4x10-cap7.tree', secrets: ['5293', '9876'], off: ['4567', '4568'] },
  { name: 'mm', game: 'mm:4x6', tree: 'data/mm-4x6.tree', secrets: ['1234', '5500'], off: ['0000'] },
];

function run(bin, args) {
  return execFileSync(path.join(BIN, bin), args, { cwd: ROOT, encoding: 'utf8' });
}

// ---- independent evidence ---------------------------------------------------
// The test's own rule: bulls, then cows as common symbols (with multiplicity)
// less the bulls.
function answer(secret, guess) {
  let bulls = 0;
  const a = {}, b = {};
  for (let i = 0; i < secret.length; i++) {
    if (secret[i] === guess[i]) bulls++;
    a[secret[i]] = (a[secret[i]] || 0) + 1;
    b[guess[i]] = (b[guess[i]] || 0) + 1;
  }
  let common = 0;
  for (const s in a) common += Math.min(a[s], b[s] || 0);
  return `${bulls}A${common - bulls}B`;
}
function allCodes(game) {
  const [, kind, k, n] = /^(moo|mm):(\d+)x(\d+)$/.exec(game);
  const out = [];
  const symbols = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, Number(n));
  (function walk(prefix) {
    if (prefix.length === Number(k)) { out.push(prefix); return; }
    for (const s of symbols) if (kind === 'mm' || !prefix.includes(s)) walk(prefix + s);
  })('');
  return out;
}
// `moo solve SECRET`: [[guess, answer], ...].
function mooSolve(g, secret) {
  const args = g.name === 'moo' ? ['solve', secret] : ['--tree', g.tree, 'solve', secret];
  return run('moo', args).trim().split('\n').map((l) => l.trim().split(/\s+/));
}
// `optimoo partition`: {answer: count}, and the number of secrets left.
function partition(g, guess, history) {
  const text = run('optimoo', ['partition', '--game', g.game, '--guess', guess, ...history.map((m) => m.join(':'))]);
  const lines = text.trim().split('\n');
  const left = Number(/^(\d+) secrets? left/.exec(lines[0])[1]);
  const classes = {};
  for (const l of lines.slice(1)) { const [f, n] = l.trim().split(/\s+/); classes[f] = Number(n); }
  return { left, classes };
}
// The histogram of a JSON-export subtree over `set`: hist[d] = secrets won by
// the (d+1)-th guess from this node on.
function subtreeHist(node, set) {
  const hist = [];
  (function walk(n, s, d) {
    const classes = new Map();
    for (const x of s) {
      const f = answer(x, n.guess);
      if (!classes.has(f)) classes.set(f, []);
      classes.get(f).push(x);
    }
    for (const [f, c] of classes) {
      if (f === n.guess.length + 'A0B') hist[d] = (hist[d] || 0) + c.length;
      else walk(n.next[f], c, d + 1);
    }
  })(node, set, 0);
  return Array.from(hist, (h) => h || 0);
}

// ---- the browser --------------------------------------------------------------
let context, userDir, server, served = null, served2 = null;
const requests = [];
const pageErrors = [];

before(async () => {
  mkdirSync(OUT, { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
  for (const g of GAMES) {
    g.file = path.join(OUT, `${g.name}.html`);
    run('optimoo', ['export', g.tree, '--format', 'html', '-o', g.file]);
    g.url = pathToFileURL(g.file).href;
    g.json = JSON.parse(run('optimoo', ['export', g.tree, '--format', 'json']));
    g.codes = allCodes(g.game);
  }
  userDir = mkdtempSync(path.join(tmpdir(), 'optimoo-chromium-'));
  context = await chromium.launchPersistentContext(userDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: SIZES.desktop,
  });
  // Nothing but the page itself may load: anything else is recorded and refused.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || (served && url.startsWith(served)) || (served2 && url.startsWith(served2))) return route.continue();
    requests.push(url);
    return route.abort();
  });
  context.on('request', (r) => {
    const ok = r.url().startsWith('file:') || (served && r.url().startsWith(served)) || (served2 && r.url().startsWith(served2));
    if (!ok) requests.push(r.url());
  });
});

after(async () => {
  server?.kill();
  await context?.close();
  if (userDir) rmSync(userDir, { recursive: true, force: true });
});

async function open(g, hash) {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${g.name}: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url().split('#')[0];
    if (url !== g.url) requests.push(r.url());
  });
  await page.setViewportSize(SIZES.desktop);
  await page.goto(`${g.url}#${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}
// Screenshots at both sizes (light, and dark if asked); at 375 px nothing
// may overflow sideways.
async function shoot(page, name, schemes = ['light']) {
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${size}-${scheme}.png`), fullPage: size === 'phone' });
      if (size === 'phone') {
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= viewport.width, `${name} (${scheme}) overflows at ${viewport.width} px: ${wide}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES.desktop);
}
// "Show the secret" asks first.
async function reveal(page) {
  await page.click('#play-reveal');
  await page.click('#play-confirm-yes');
}
const text = (page, sel) => page.locator(sel).first().textContent();

for (const g of GAMES) {
  test(`${g.game}: the page is one offline file`, () => {
    const html = readFileSync(g.file, 'utf8');
    assert.doesNotMatch(html, /https?:\/\//i);
    assert.match(html, /<script type="application\/json" id="tree-data">/);
  });

  test(`${g.game}: the page's answers agree with optimoo partition`, async () => {
    const page = await open(g, 'mode=play');
    const first = g.json.root.guess;
    const second = g.json.root.next[Object.keys(g.json.root.next)[0]].guess;
    const histories = [[], [[first, Object.keys(g.json.root.next)[0]]]];
    for (const history of histories) {
      for (const guess of [first, second, g.off[0], g.codes[g.codes.length - 1]]) {
        const expected = partition(g, guess, history);
        const shown = await page.evaluate(([x, h]) => window.optimooPage.classes(x, h), [guess, history]);
        assert.deepEqual(shown, expected.classes, `${guess} after ${JSON.stringify(history)}`);
      }
    }
    await page.close();
  });

  test(`${g.game}: Play, following the hints, wins as moo solve does`, async () => {
    for (const secret of g.secrets) {
      const page = await open(g, `mode=play&secret=${secret}`);
      const played = [];
      for (let turn = 0; turn < 12; turn++) {
        await page.click('#play-hint');
        const hint = await text(page, '#hint-guess');
        const intro = await text(page, '#play-hints p');
        assert.match(intro, /exact/);
        assert.doesNotMatch(intro, /not exact/);
        if (turn === 1 && secret === g.secrets[0]) await shoot(page, `${g.name}-play-hint`);
        await page.click('#hint-use');
        const last = page.locator('#play-history li').last();
        played.push([(await last.locator('.code').textContent()), (await last.locator('.answer').textContent())]);
        assert.equal(played[played.length - 1][0], hint);
        if ((await page.locator('#play-message.success').count()) > 0) break;
      }
      assert.deepEqual(played, mooSolve(g, secret));
      assert.match(await text(page, '#play-message'), new RegExp(`Solved in ${played.length} guess`));
      if (secret === g.secrets[0]) await shoot(page, `${g.name}-play-won`);
      await page.close();
    }
  });

  test(`${g.game}: Play off the tree: the hint says it is not exact`, async () => {
    const secret = g.secrets[0];
    const page = await open(g, `mode=play&secret=${secret}`);
    for (const guess of g.off) {
      for (const ch of guess) await page.click(`#play-keys button:text-is("${ch}")`);
      // Enter after the on-screen keys submits (the focus is on a key).
      await page.keyboard.press('Enter');
    }
    const shown = await page.locator('#play-history li .answer').allTextContents();
    assert.deepEqual(shown, g.off.map((x) => answer(secret, x)));
    await page.click('#play-hint');
    assert.match(await text(page, '#play-hints p'), /not exact/);
    // No row has a value: only the tree gives exact ones.
    const values = await page.locator('table.rank tbody tr td:last-child').allTextContents();
    assert.ok(values.length > 0 && values.every((v) => v === 'unknown'), values.join(','));
    // A code that is not one of the game's is refused with a message.
    await page.fill('#play-input', 'zz');
    await page.click('#play-submit');
    assert.match(await text(page, '#play-message.error'), /4 (digit|colour)s/);
    await page.close();
  });

  test(`${g.game}: #seed=N replays a secret, #secret=CODE fixes it`, async () => {
    const secretOf = async (hash) => {
      const page = await open(g, hash);
      await reveal(page);
      const m = /The secret is (\w+)\./.exec(await text(page, '#play-message'));
      await page.close();
      return m && m[1];
    };
    const a = await secretOf('seed=7'), b = await secretOf('seed=7'), c = await secretOf('seed=8');
    assert.ok(g.codes.includes(a), a);
    assert.equal(a, b);
    assert.ok(g.codes.includes(c), c);
    assert.equal(await secretOf(`secret=${g.secrets[1]}`), g.secrets[1]);
  });

  test(`${g.game}: the tree guesses a secret as moo solve does`, async () => {
    for (const secret of g.secrets) {
      const page = await open(g, 'mode=guess');
      const shown = [];
      for (let turn = 0; turn < 12; turn++) {
        const guess = await text(page, '#guess-code');
        const f = answer(secret, guess);
        shown.push([guess, f]);
        if (turn === 2 && secret === g.secrets[0]) await shoot(page, `${g.name}-guess`);
        await page.click(`#guess-answers button[data-answer="${f}"]`);
        if ((await page.locator('#guess-message.success').count()) > 0) break;
      }
      assert.deepEqual(shown, mooSolve(g, secret));
      assert.equal(await text(page, '#guess-code'), secret);
      assert.match(await text(page, '#guess-message'), new RegExp(`Found in ${shown.length} guess`));
      // A contradiction is reported and not taken.
      await page.click('#guess-restart');
      const first = await text(page, '#guess-code');
      await page.click(`#guess-answers button[data-answer="0A0B"]`);
      const unlikely = page.locator('#guess-answers button.unlikely');
      assert.ok((await unlikely.count()) > 0, 'some answer contradicts 0A0B');
      await unlikely.first().click();
      assert.match(await text(page, '#guess-message.error'), /No secret gives/);
      assert.equal(await page.locator('#guess-history li').count(), 1);
      await page.click('#guess-undo');
      assert.equal(await text(page, '#guess-code'), first);
      await page.close();
    }
  });

  test(`${g.game}: Browse shows the classes and histograms of the tree`, async () => {
    const page = await open(g, 'mode=browse');
    let node = g.json.root, set = g.codes;
    const history = [];
    for (let level = 0; level < 4 && node; level++) {
      assert.equal(await text(page, '#browse-code'), node.guess);
      const stats = page.locator('#browse-stats');
      assert.equal(Number(await stats.getAttribute('data-left')), set.length);
      const hist = subtreeHist(node, set);
      assert.equal(await page.locator('#browse-hist').getAttribute('data-counts'), hist.join(' '));
      assert.equal(Number(await page.locator('#browse-hist').getAttribute('data-first')), level + 1);
      const total = hist.reduce((t, h, d) => t + h * (d + 1), 0);
      assert.equal(Number(await stats.getAttribute('data-total')), total);
      // Each answer's count is optimoo partition's.
      const expected = partition(g, node.guess, history);
      assert.equal(expected.left, set.length);
      const items = page.locator('#browse-answers .answer-item');
      const shown = {};
      for (const item of await items.all()) {
        shown[await item.getAttribute('data-answer')] = Number(await item.getAttribute('data-left'));
      }
      assert.deepEqual(shown, expected.classes);
      // The secrets left are listed (the first 200).
      const listed = (await text(page, '#browse-left')).split(' … ')[0].split(' ');
      assert.deepEqual(listed, set.slice(0, 200));
      if (level === 1) await shoot(page, `${g.name}-browse`);
      // Down the largest class that goes on.
      const [f] = Object.entries(node.next).sort((a, b) => expected.classes[b[0]] - expected.classes[a[0]] || (a[0] < b[0] ? -1 : 1))[0] || [];
      if (!f) break;
      await page.click(`#browse-answers button[data-answer="${f}"]`);
      history.push([node.guess, f]);
      set = set.filter((s) => answer(s, node.guess) === f);
      node = node.next[f];
    }
    // The breadcrumb goes back to the start.
    await page.click('#browse-crumbs button:text-is("Start")');
    assert.equal(await text(page, '#browse-code'), g.json.root.guess);
    await page.close();
  });
}

// ---- a tree over a word list (data/words4.tree: 189 words, letters aeilnoprst) ----
const WORDS = {
  name: 'words', game: 'moo:4x10', tree: 'data/words4.tree', letters: 'aeilnoprst',
  secret: 'rose', guessed: 'lint',
};
function wordsSetup() {
  const w = WORDS;
  if (w.json) return w;
  w.file = path.join(OUT, 'words.html');
  run('optimoo', ['export', w.tree, '--format', 'html', '-o', w.file]);
  w.url = pathToFileURL(w.file).href;
  w.json = JSON.parse(run('optimoo', ['export', w.tree, '--format', 'json']));
  w.list = w.json.secrets.codes;
  // The same list with only its words as guesses (a heuristic's tree).
  w.only = { name: 'words-only', file: path.join(OUT, 'words-only.html') };
  run('optimoo', ['export', '--strategy', 'entropy', '--secrets', 'data/words4.txt', '--alphabet', w.letters,
    '--guesses', 'secrets', '--format', 'html', '-o', w.only.file]);
  w.only.url = pathToFileURL(w.only.file).href;
  // A code of the game (in the letters) that is not a listed word.
  w.off = allCodes(w.game).map((c) => Array.from(c, (d) => w.letters[Number(d)]).join(''))
    .find((c) => !w.list.includes(c));
  return w;
}
const wordsSolve = (secret) => run('moo', ['--tree', WORDS.tree, 'solve', secret])
  .trim().split('\n').map((l) => l.trim().split(/\s+/));

test('word list: Play draws a listed word, follows the hints as moo solve does, shows the letters', async () => {
  const w = wordsSetup();
  assert.equal(w.json.secrets.alphabet, w.letters);
  assert.equal(w.list.length, 189);
  const page = await open(w, `mode=play&secret=${w.secret}`);
  const keys = (await page.locator('#play-keys button.key:not(.wide)').allTextContents()).join('');
  assert.equal(keys, w.letters);
  assert.match(await text(page, '#play-message'), /^189 secrets still possible/);
  // A code of the game that is no word may be guessed (guesses all).
  await page.fill('#play-input', w.off);
  await page.click('#play-submit');
  assert.equal(await text(page, '#play-history li .answer'), answer(w.secret, w.off));
  await page.close();
  const game = await open(w, `mode=play&secret=${w.secret.toUpperCase()}`);
  const played = [];
  for (let turn = 0; turn < 10; turn++) {
    await game.click('#play-hint');
    assert.match(await text(game, '#play-hints p'), /exact, and optimal/);
    const hint = await text(game, '#hint-guess');
    if (turn === 1) await shoot(game, 'words-play-hint');
    await game.click('#hint-use');
    const last = game.locator('#play-history li').last();
    played.push([await last.locator('.code').textContent(), await last.locator('.answer').textContent()]);
    assert.equal(played[played.length - 1][0], hint);
    if ((await game.locator('#play-message.success').count()) > 0) break;
  }
  assert.deepEqual(played, wordsSolve(w.secret));
  await shoot(game, 'words-play-won');
  await game.close();
  // A random secret is a listed word; a #secret outside the list is refused.
  for (const hash of ['seed=7', `secret=${w.off}`]) {
    const p = await open(w, hash);
    if (hash !== 'seed=7') assert.match(await text(p, '#play-message.error'), /not one of the list/);
    await reveal(p);
    const m = /The secret is (\w+)\./.exec(await text(p, '#play-message'));
    assert.ok(m && w.list.includes(m[1]), m && m[1]);
    await p.close();
  }
});

test('word list with --guesses secrets: a guess outside the list is refused', async () => {
  const w = wordsSetup();
  const page = await open(w.only, 'mode=play&secret=rose');
  await page.fill('#play-input', w.off);
  await page.click('#play-submit');
  assert.match(await text(page, '#play-message.error'), /only they may be guessed/);
  assert.equal(await page.locator('#play-history li').count(), 0);
  await page.fill('#play-input', 'Lint');
  await page.click('#play-submit');
  assert.equal(await text(page, '#play-history li .answer'), answer('rose', 'lint'));
  await page.close();
});

test('word list: the tree guesses a word as moo solve does, offering only answers a word gives', async () => {
  const w = wordsSetup();
  const page = await open(w, 'mode=guess');
  let set = w.list;
  const shown = [];
  for (let turn = 0; turn < 10; turn++) {
    const guess = await text(page, '#guess-code');
    const offered = (await page.locator('#guess-answers button').evaluateAll((bs) => bs.map((b) => b.dataset.answer))).sort();
    assert.deepEqual(offered, [...new Set(set.map((x) => answer(x, guess)))].sort());
    assert.match(await text(page, '#guess-left'), new RegExp(`^${set.length} secrets? still possible`));
    const f = answer(w.guessed, guess);
    shown.push([guess, f]);
    if (turn === 1) await shoot(page, 'words-guess');
    await page.click(`#guess-answers button[data-answer="${f}"]`);
    set = set.filter((x) => answer(x, guess) === f);
    if ((await page.locator('#guess-message.success').count()) > 0) break;
  }
  assert.deepEqual(shown, wordsSolve(w.guessed));
  assert.equal(await text(page, '#guess-code'), w.guessed);
  await page.close();
});

test('word list: Browse counts the words left as the JSON export does', async () => {
  const w = wordsSetup();
  const page = await open(w, 'mode=browse');
  let node = w.json.root, set = w.list;
  for (let level = 0; level < 3 && node; level++) {
    assert.equal(await text(page, '#browse-code'), node.guess);
    const stats = page.locator('#browse-stats');
    assert.equal(Number(await stats.getAttribute('data-left')), set.length);
    const hist = subtreeHist(node, set);
    assert.equal(await page.locator('#browse-hist').getAttribute('data-counts'), hist.join(' '));
    assert.equal(Number(await stats.getAttribute('data-total')), hist.reduce((t, h, d) => t + h * (d + 1), 0));
    const expected = {};
    for (const x of set) { const f = answer(x, node.guess); expected[f] = (expected[f] || 0) + 1; }
    const shown = {};
    for (const item of await page.locator('#browse-answers .answer-item').all()) {
      shown[await item.getAttribute('data-answer')] = Number(await item.getAttribute('data-left'));
    }
    assert.deepEqual(shown, expected);
    assert.deepEqual((await text(page, '#browse-left')).split(' … ')[0].split(' '), set.slice(0, 200));
    if (level === 1) await shoot(page, 'words-browse');
    const [f] = Object.entries(node.next).sort((a, b) => expected[b[0]] - expected[a[0]] || (a[0] < b[0] ? -1 : 1))[0] || [];
    if (!f) break;
    await page.click(`#browse-answers button[data-answer="${f}"]`);
    set = set.filter((x) => answer(x, node.guess) === f);
    node = node.next[f];
  }
  // The root's total is the optimum the README states (644 guesses).
  await page.click('#browse-crumbs button:text-is("Start")');
  assert.equal(Number(await page.locator('#browse-stats').getAttribute('data-total')), 644);
  await page.close();
});

// ---- the page of several games (docs/index.html's trees) ---------------------
const INDEX = {
  name: 'index', trees: ['data/moo-4x10-cap7.tree', 'data/mm-4x6.tree', 'data/moo-3x10.tree'],
  labels: ['Bulls and Cows: 4 different digits', 'Mastermind: 4 pegs, 6 colours', 'Hit and Blow: 3 digits'],
};
function indexSetup() {
  const x = INDEX;
  if (x.url) return x;
  x.file = path.join(OUT, 'index.html');
  run('optimoo', ['export', ...x.trees, '--format', 'html', '-o', x.file]);
  x.url = pathToFileURL(x.file).href;
  return x;
}
const moves = async (page, sel = '#play-history li') => {
  const out = [];
  for (const li of await page.locator(sel).all()) {
    out.push([await li.locator('.code').textContent(), await li.locator('.answer').textContent()]);
  }
  return out;
};
async function typeGuess(page, guess) {
  await page.fill('#play-input', guess);
  await page.press('#play-input', 'Enter');
}
const hashOf = (page) => new URL(page.url()).hash;
// `moo rank --json` / `moo analyze --json` lines for a history.
function mooJson(args, history) {
  const out = run('moo', [...args, '--json', ...history.map((m) => m.join(':'))]).trim();
  return out ? out.split('\n').map((l) => JSON.parse(l)) : [];
}

test('several games: the picker switches games, labelled in plain words, the rules stated with an example', async () => {
  const x = indexSetup();
  const page = await open(x, '');
  const labels = await page.locator('#game-picker option').allTextContents();
  assert.deepEqual(labels, x.labels);
  assert.equal(await text(page, '#title'), x.labels[0]);
  // No jargon where a player looks.
  const seen = await page.evaluate(() => document.querySelector('header').innerText + document.querySelector('main').innerText);
  for (const jargon of ['moo:4x10', 'optimal tree', 'cap 7', 'You left the tree', 'quick score', 'classes']) {
    assert.ok(!seen.includes(jargon), `“${jargon}” shown`);
  }
  assert.match(await text(page, '#play-rules'), /Example: against the secret 5293, the guess 1235 is answered 1A2B/);
  await page.selectOption('#game-picker', { label: x.labels[1] });
  assert.equal(await text(page, '#title'), x.labels[1]);
  assert.match(hashOf(page), /game=mm:4x6/);
  assert.equal((await page.locator('#play-keys button.key:not(.wide)').allTextContents()).join(''), '012345');
  const rules = await text(page, '#play-rules');
  assert.match(rules, /6 colours/);
  // The example's answer is the game's own rule.
  const [, secret, guess, said] = /against the secret (\w+), the guess (\w+) is answered (\w+)/.exec(rules);
  assert.equal(said, answer(secret, guess));
  await page.selectOption('#game-picker', { label: x.labels[2] });
  assert.equal(await page.evaluate(() => window.optimooPage.game), 'moo:3x10');
  assert.equal((await page.evaluate(() => window.optimooPage.codes)).length, 720);
  // Back returns to the previous game.
  await page.goBack();
  assert.equal(await text(page, '#title'), x.labels[1]);
  await page.close();
});

test('the address keeps the game: reload continues, Back steps back, the link replays it', async () => {
  const x = indexSetup();
  const page = await open(x, 'game=moo:4x10&mode=play&seed=42');
  for (const gss of ['0123', '4567', '8901']) await typeGuess(page, gss);
  const played = await moves(page);
  assert.equal(played.length, 3);
  assert.match(hashOf(page), /moves=0123,4567,8901/);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await moves(page), played);
  await page.goBack();
  assert.deepEqual(await moves(page), played.slice(0, 2));
  await page.goBack();
  assert.deepEqual(await moves(page), played.slice(0, 1));
  await page.goForward();
  assert.deepEqual(await moves(page), played.slice(0, 2));
  // The address in another tab replays the same game.
  const other = await open(x, hashOf(page).slice(1));
  assert.deepEqual(await moves(other), played.slice(0, 2));
  await other.close();
  await page.close();
});

test('statistics count finished games, Share is spoiler-free and its link replays the secret, Show the secret ends the game', async () => {
  const x = indexSetup();
  const page = await open(x, 'game=moo:4x10&seed=5');
  if (!(await page.locator('#stats-clear').isDisabled())) {
    await page.click('#stats-clear');
    await page.click('#play-confirm-yes');
  }
  assert.equal(await page.locator('#stats-line').getAttribute('data-played'), '0');
  // A win, following the hints.
  for (let turn = 0; turn < 8 && (await page.locator('#play-message.success').count()) === 0; turn++) {
    await page.click('#play-hint');
    await page.click('#hint-use');
  }
  const won = await moves(page);
  const stats = page.locator('#stats-line');
  assert.equal(await stats.getAttribute('data-played'), '1');
  assert.equal(await stats.getAttribute('data-won'), '1');
  assert.equal(await stats.getAttribute('data-streak'), '1');
  assert.equal(await page.locator('#stats-hist').getAttribute('data-counts'),
    Array.from({ length: won.length }, (_, i) => (i === won.length - 1 ? 1 : 0)).join(' '));
  // A reload does not count it twice.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.locator('#stats-line').getAttribute('data-played'), '1');
  await page.click('#play-share');
  const share = (await page.locator('#share-text').inputValue()).split('\n');
  const rows = share.filter((l) => /^[🟩🟨⬜]+ \dA\dB$/u.test(l));
  assert.deepEqual(rows.map((r) => r.split(' ')[1]), won.map((m) => m[1]));
  for (const [guess] of won) assert.ok(!share.slice(0, -1).join('\n').includes(guess), `${guess} in the share text`);
  const link = share[share.length - 1];
  assert.ok(link.startsWith(x.url + '#') && !/moves=|secret=/.test(link), link);
  const again = await open(x, link.split('#')[1]);
  await reveal(again);
  assert.match(await text(again, '#play-message'), new RegExp(`The secret is ${won[won.length - 1][0]}\\.`));
  // Given up: not a win, the streak ends, and the secret typed after is no "Solved".
  assert.match(await text(again, '#play-message'), /gave up/);
  assert.ok(await again.locator('#play-input').isDisabled());
  await again.evaluate((s) => { document.getElementById('play-input').disabled = false; document.getElementById('play-input').value = s; document.getElementById('play-form').requestSubmit(); }, won[won.length - 1][0]);
  assert.doesNotMatch(await text(again, '#play-message'), /Solved/);
  assert.equal(await again.locator('#play-history li').count(), 0);
  const s2 = again.locator('#stats-line');
  assert.equal(await s2.getAttribute('data-played'), '2');
  assert.equal(await s2.getAttribute('data-won'), '1');
  assert.equal(await s2.getAttribute('data-streak'), '0');
  await shoot(again, 'index-given-up', ['light', 'dark']);
  await again.close();
  await page.close();
});

test('Play: a repeated guess is refused, undo, New secret asks first, the secrets left are listed', async () => {
  const x = indexSetup();
  const page = await open(x, 'game=moo:4x10&secret=5293');
  await typeGuess(page, '0123');
  await typeGuess(page, '0123');
  assert.match(await text(page, '#play-message.error'), /already guessed 0123/);
  assert.equal(await page.locator('#play-history li').count(), 1);
  await typeGuess(page, '4567');
  await page.click('#play-undo');
  assert.deepEqual(await moves(page), [['0123', answer('5293', '0123')]]);
  // The secrets left: counted, listed, collapsed when many.
  const left = allCodes('moo:4x10').filter((c) => answer(c, '0123') === answer('5293', '0123'));
  const details = page.locator('#play-left');
  assert.equal(Number(await details.getAttribute('data-left')), left.length);
  assert.equal(await details.evaluate((d) => d.open), left.length <= 24);
  assert.deepEqual((await text(page, '#play-left-codes')).split(' … ')[0].split(' '), left.slice(0, 300));
  // New secret during a game asks first; "Keep playing" keeps it.
  await page.click('#play-new');
  assert.ok(await page.locator('#play-confirm').isVisible());
  await page.click('#play-confirm-no');
  assert.equal(await page.locator('#play-history li').count(), 1);
  await page.click('#play-new');
  await page.click('#play-confirm-yes');
  assert.equal(await page.locator('#play-history li').count(), 0);
  assert.match(hashOf(page), /seed=\d+/);
  assert.doesNotMatch(hashOf(page), /secret=/);
  await page.close();
});

test('The computer guesses: typed answers (1A2B, 12, 1 2), undo; Explore: typed answers, undo', async () => {
  const x = indexSetup();
  for (const [game, tree, secret] of [['moo:4x10', 'data/moo-4x10-cap7.tree', '5293'], ['mm:4x6', 'data/mm-4x6.tree', '5500']]) {
    const page = await open(x, `game=${game}&mode=guess`);
    const forms = [(f) => f, (f) => f[0] + f[2], (f) => `${f[0]} ${f[2]}`];
    const shown = [];
    for (let turn = 0; turn < 10; turn++) {
      const guess = await text(page, '#guess-code');
      const f = answer(secret, guess);
      shown.push([guess, f]);
      await page.fill('#guess-input', forms[turn % 3](f));
      await page.press('#guess-input', 'Enter');
      if ((await page.locator('#guess-message.success').count()) > 0) break;
    }
    assert.deepEqual(shown, run('moo', ['--tree', tree, 'solve', secret]).trim().split('\n').map((l) => l.trim().split(/\s+/)));
    await page.click('#guess-undo');
    assert.equal(await page.locator('#guess-history li').count(), shown.length - 1);
    assert.equal(await text(page, '#guess-code'), shown[shown.length - 1][0]);
    // A bad answer is refused with a message; faded answers are explained.
    await page.fill('#guess-input', '9A9B');
    await page.press('#guess-input', 'Enter');
    assert.match(await text(page, '#guess-message.error'), /cannot be the answer/);
    const faded = page.locator('#guess-answers button.unlikely');
    if (await faded.count()) assert.match(await faded.first().getAttribute('title'), /No secret still possible/);
    assert.match(await text(page, '#guess-legend'), /Faded answers/);
    await page.close();
  }
  const page = await open(x, 'game=moo:4x10&mode=browse');
  const first = await text(page, '#browse-code');
  await page.fill('#browse-input', '1 2');
  await page.press('#browse-input', 'Enter');
  assert.match(await text(page, '#browse-crumbs'), new RegExp(`${first} 1A2B`));
  await page.click('#browse-undo');
  assert.equal(await page.locator('#browse-crumbs button').count(), 1);
  await page.close();
});

test('tabs: roles, tabpanels, arrow keys', async () => {
  const x = indexSetup();
  const page = await open(x, 'game=moo:4x10&mode=play');
  for (const m of ['play', 'guess', 'browse', 'duel']) {
    assert.equal(await page.locator(`#tab-${m}`).getAttribute('role'), 'tab');
    assert.equal(await page.locator(`#tab-${m}`).getAttribute('aria-controls'), m);
    assert.equal(await page.locator(`#${m}`).getAttribute('role'), 'tabpanel');
  }
  await page.focus('#tab-play');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#tab-guess').getAttribute('aria-selected'), 'true');
  assert.ok(await page.locator('#guess').isVisible());
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-guess');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  // From the first tab, Left goes round to the last: the race.
  assert.equal(await page.locator('#tab-duel').getAttribute('aria-selected'), 'true');
  assert.match(hashOf(page), /mode=duel/);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#tab-browse').getAttribute('aria-selected'), 'true');
  assert.match(hashOf(page), /mode=browse/);
  await page.close();
});

test('exact off the tree by relabelling: after 1234 the hint gives moo rank\'s value', async () => {
  const x = indexSetup();
  const secret = '5293';
  const page = await open(x, `game=moo:4x10&secret=${secret}`);
  await typeGuess(page, '1234');
  await page.click('#play-hint');
  const intro = await text(page, '#play-hints p');
  assert.match(intro, /exact/);
  assert.doesNotMatch(intro, /not exact/);
  assert.match(intro, /renamed/);
  const best = page.locator('table.rank tr.best');
  const ranked = mooJson(['rank'], [['1234', answer(secret, '1234')]]);
  assert.ok(Math.abs(Number(await best.getAttribute('data-value')) - ranked[0].value) < 1e-9);
  // The hinted guess is one of the best: moo analyze finds it loses nothing.
  const hinted = await text(page, '#hint-guess');
  const judged = mooJson(['analyze'], [['1234', answer(secret, '1234')], [hinted, answer(secret, hinted)]]);
  assert.equal(judged[1].loss, 0, hinted);
  // A row that leaves fewer secrets in the worst case is explained.
  const cells = await page.locator('table.rank tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.guess, Number(tr.cells[3].textContent)]));
  const bestLargest = cells.find((c) => c[0] === hinted)[1];
  const smaller = cells.find((c) => c[1] < bestLargest);
  assert.ok(smaller, 'some row leaves fewer in the worst case');
  assert.match(await text(page, '#hint-why'), new RegExp(`Why not ${smaller[0]}, which leaves at most ${smaller[1]} secrets where ${hinted} may leave ${bestLargest}`));
  assert.ok(Math.abs(judged[1].value - ranked[0].value) < 1e-9, hinted);
  await shoot(page, 'index-hint', ['light', 'dark']);
  await page.close();
  // Mastermind: the first guess with its colours renamed and its places
  // reversed is still on the tree, its hint exact.
  const mm = await open(x, 'game=mm:4x6&mode=guess&secret=5500');
  const first = await text(mm, '#guess-code');
  const renamed = Array.from(first, (d) => String((Number(d) + 2) % 6)).reverse().join('');
  await mm.click('#tab-play');
  await typeGuess(mm, renamed);
  await mm.click('#play-hint');
  const said = await text(mm, '#play-hints p');
  assert.match(said, /exact/);
  assert.doesNotMatch(said, /not exact/);
  const mmRanked = mooJson(['--tree', 'data/mm-4x6.tree', 'rank'], [[renamed, answer('5500', renamed)]]);
  const value = Number(await mm.locator('table.rank tr.best').getAttribute('data-value'));
  assert.ok(Math.abs(value - mmRanked[0].value) < 1e-9, `${value} vs ${mmRanked[0].value}`);
  await mm.close();
});

test('accessibility: axe-core finds no serious or critical violation, light and dark', async () => {
  const x = indexSetup();
  const page = await open(x, 'game=moo:4x10&mode=play&secret=5293');
  await typeGuess(page, '0123');
  await page.click('#play-hint');
  await page.addScriptTag({ content: AXE });
  for (const [scheme, mode] of [['light', 'play'], ['dark', 'play'], ['light', 'guess'], ['dark', 'browse'], ['light', 'duel'], ['dark', 'duel']]) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.click(`#tab-${mode}`);
    const found = await page.evaluate(async () => (await window.axe.run(document)).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    assert.deepEqual(found, [], `${scheme} ${mode}`);
  }
  await page.click('#tab-play');
  await shoot(page, 'index-play', ['light', 'dark']);
  await page.click('#tab-browse');
  await shoot(page, 'index-browse', ['light', 'dark']);
  await page.close();
});


// ---- the race (Duel tab) -------------------------------------------------------
// The JSON export of a shipped equilibrium tree: the computer's strategy.
function duelTreeJson(folder, seat) {
  return JSON.parse(run('optimoo', ['export', `data/duel/${folder}/${seat}-1.tree`, '--format', 'json'])).root;
}
const duelState = (page) => page.evaluate(() => window.optimooPage.duel());
// The test's own player: the first code that every answer so far allows.
function consistent(codes, mine) {
  return codes.find((c) => mine.every(([g, f]) => answer(c, g) === f) && !mine.some(([g]) => g === c));
}
const split2 = (mv) => mv.split(':');
// Who won, by the rules (docs/duel.md), from the rounds each cracked.
function outcomeOf(rule, seat, mine, theirs) {
  const round = (list) => { const i = list.findIndex(([, f]) => f === '4A0B'); return i < 0 ? Infinity : i + 1; };
  const p = round(mine), e = round(theirs);
  if (rule === 'first-wins') return (seat === 'first' ? p <= e : p < e) ? 'won' : 'lost';
  return p < e ? 'won' : p > e ? 'lost' : 'drawn';
}
async function chancesShown(page) {
  const out = [];
  for (const li of await page.locator('#duel-chances li').all()) {
    out.push({ round: Number(await li.getAttribute('data-round')), low: await li.getAttribute('data-low'), high: await li.getAttribute('data-high') });
  }
  return out;
}
const value = (f) => { const [p, q] = f.split('/').map(Number); return p / (q || 1); };

test('duel: a race from a fixed seed to its end, the chance after each round, a contradiction refused, undo, reload, the outcome counted', async () => {
  const x = indexSetup();
  const g = { codes: allCodes('moo:4x10') };
  const engineTree = duelTreeJson('moo-4x10-first-wins', 'second');
  let page = await open(x, 'game=moo:4x10&mode=duel');
  await page.evaluate(() => localStorage.clear());
  await page.close();
  page = await open(x, 'game=moo:4x10&mode=duel&drule=first-wins&dseat=first&dseed=11');
  assert.equal(Number(await page.locator('#duel-stats').getAttribute('data-played')), 0);
  const yours = '5293';
  let node = engineTree, refused = false, undone = false, reloaded = false;
  const formats = [(f) => f, (f) => f[0] + f[2], (f) => f[0] + ' ' + f[2]];
  for (let step = 0; step < 40; step++) {
    const d = await duelState(page);
    if (d.over) break;
    const mine = d.mine.map(split2), theirs = d.theirs.map(split2);
    if (d.waiting === 'mine') {
      const guess = consistent(g.codes, mine);
      await page.fill('#duel-input', guess);
      await page.press('#duel-input', 'Enter');
      if (!undone && mine.length === 1) {
        // Undo takes the guess back; the same guess again.
        assert.equal((await duelState(page)).mine.length, 2);
        await page.click('#duel-undo');
        assert.deepEqual((await duelState(page)).mine, d.mine);
        undone = true;
        await page.fill('#duel-input', guess);
        await page.press('#duel-input', 'Enter');
      }
      const after = await duelState(page);
      const [, f] = split2(after.mine[after.mine.length - 1]);
      assert.equal(f, answer(after.secret, guess), 'the computer answers by the rules');
    } else {
      // The computer plays its equilibrium tree (data/duel), as exported.
      assert.equal(d.next, node.guess);
      const f = answer(yours, node.guess);
      if (!refused && theirs.length === 1) {
        const unlikely = page.locator('#duel-answers button.unlikely');
        assert.ok((await unlikely.count()) > 0, 'some answer contradicts the first');
        await unlikely.first().click();
        assert.match(await text(page, '#duel-message.error'), /No secret gives/);
        assert.deepEqual((await duelState(page)).theirs, d.theirs);
        refused = true;
      }
      await page.fill('#duel-input', formats[theirs.length % 3](f));
      await page.press('#duel-input', 'Enter');
      node = f === '4A0B' ? null : node.next[f];
    }
    const now = await duelState(page);
    if (!now.over && now.mine.length === now.theirs.length) {
      // After each complete round, its chance: bounds in order, in [0, 1].
      const shown = await chancesShown(page);
      assert.equal(shown.length, now.mine.length + 1);
      for (const c of shown.slice(1)) {
        assert.ok(value(c.low) <= value(c.high) && value(c.high) <= 1, JSON.stringify(c));
      }
      assert.match(await text(page, '#duel-chance'), /computed in this page/);
      if (now.mine.length === 2 && !reloaded) {
        await shoot(page, 'index-duel', ['light', 'dark']);
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        assert.deepEqual(await duelState(page), now, 'a reload keeps the race');
        assert.deepEqual((await chancesShown(page)).length, shown.length);
        reloaded = true;
      }
    }
  }
  const d = await duelState(page);
  assert.ok(d.over && refused && undone && reloaded, JSON.stringify(d));
  const expected = outcomeOf('first-wins', 'first', d.mine.map(split2), d.theirs.map(split2));
  assert.equal(d.outcome, expected);
  assert.equal(await page.locator('#duel-turn').getAttribute('data-outcome'), expected);
  assert.ok((await text(page, '#duel-turn')).includes(d.secret));
  const stats = page.locator('#duel-stats');
  assert.equal(Number(await stats.getAttribute('data-played')), 1);
  assert.equal(Number(await stats.getAttribute(`data-${expected}`)), 1);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(Number(await page.locator('#duel-stats').getAttribute('data-played')), 1, 'counted once');
  assert.equal(await page.locator('#duel-undo').isDisabled(), true);
  await page.close();
});

// ---- the served page: exact hints and the review from the engine ----------------
async function startServer() {
  if (served) return served;
  server = spawn(path.join(BIN, 'optimoo'), ['serve', '--bind', '127.0.0.1:0'], { cwd: ROOT });
  served = await new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d) => {
      seen += d;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (m) resolve(m[1]);
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => reject(new Error(`optimoo serve exited (${code}): ${seen}`)));
  });
  return served;
}
async function openServed(hash) {
  const base = await startServer();
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`served: ${e.message}`));
  await page.setViewportSize(SIZES.desktop);
  await page.goto(`${base}#${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

test('served: hints off the tree are exact, as moo rank --json', async () => {
  const secret = '5293';
  const page = await openServed(`game=moo:4x10&secret=${secret}`);
  assert.equal(await page.evaluate(() => window.optimooPage.served), true);
  const history = [];
  for (const gss of ['4568', '0179']) {
    await typeGuess(page, gss);
    history.push([gss, answer(secret, gss)]);
  }
  await page.click('#play-hint');
  await page.waitForSelector('#play-hints[data-source="server"]');
  assert.match(await text(page, '#play-hints p'), /exact/);
  const rows = await page.locator('#play-hints table.rank tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.guess, Number(tr.dataset.value)]));
  const ranked = mooJson(['rank'], history).slice(0, rows.length);
  assert.equal(rows.length, Math.min(8, ranked.length));
  assert.deepEqual(rows.map((r) => r[0]), ranked.map((l) => l.guess));
  rows.forEach((r, i) => assert.ok(Math.abs(r[1] - ranked[i].value) < 1e-9, `${r[0]}: ${r[1]} vs ${ranked[i].value}`));
  // Where a row leaves fewer secrets in the worst case, the hint says why the best still wins.
  const smaller = ranked.find((l) => l.largest < ranked[0].largest);
  assert.equal(await page.locator('#hint-why').count(), smaller ? 1 : 0);
  if (smaller) assert.match(await text(page, '#hint-why'), new RegExp(`Why not ${smaller.guess}.* on average`));
  await page.close();
});

test('served: when the budget stops the search, the hint says its values are proven bounds', async () => {
  const base = await startServer();
  assert.ok(base);
  const tight = spawn(path.join(BIN, 'optimoo'), ['serve', '--bind', '127.0.0.1:0', '--budget', '0'], { cwd: ROOT });
  try {
    const url = await new Promise((resolve, reject) => {
      let seen = '';
      const onData = (d) => { seen += d; const m = /serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen); if (m) resolve(m[1]); };
      tight.stdout.on('data', onData);
      tight.stderr.on('data', onData);
      tight.on('exit', (code) => reject(new Error(`optimoo serve exited (${code}): ${seen}`)));
    });
    served2 = url;
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(`served: ${e.message}`));
    await page.goto(`${url}#game=moo:4x10&secret=5293`);
    await page.waitForSelector('body[data-ready="true"]');
    await typeGuess(page, '4568');
    await typeGuess(page, '0179');
    await page.click('#play-hint');
    await page.waitForSelector('#play-hints[data-source="server"]');
    assert.match(await text(page, '#play-hints p'), /at least .* proven bound, not exact/);
    const values = await page.locator('#play-hints table.rank tbody tr td:last-child').allTextContents();
    assert.ok(values.some((v) => /^at least /.test(v)), values.join(','));
    await page.close();
  } finally {
    tight.kill();
    served2 = null;
  }
});

test('served: the review of three games matches moo analyze --json', async () => {
  const games = [
    { game: 'moo:4x10', args: ['analyze'], secret: '5293', moves: ['1234', '5678', '9012'] },
    { game: 'moo:4x10', args: ['analyze'], secret: '9876', moves: ['0123', '4567', '8901', '9876'] },
    { game: 'mm:4x6', args: ['--tree', 'data/mm-4x6.tree', 'analyze'], secret: '5500', moves: ['0011', '2345', '5501'] },
  ];
  for (const g of games) {
    const won = g.moves[g.moves.length - 1] === g.secret;
    const page = await openServed(`game=${g.game}&secret=${g.secret}`);
    for (const m of g.moves) await typeGuess(page, m);
    if (!won) await reveal(page);
    await page.waitForSelector('#review-table tbody tr');
    const shown = await page.locator('#review-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({ move: tr.dataset.move, best: tr.dataset.best, verdict: tr.dataset.verdict, loss: Number(tr.dataset.loss) })));
    const want = mooJson(g.args, g.moves.map((m) => [m, answer(g.secret, m)]));
    assert.deepEqual(shown.map((r) => [r.move, r.best, r.verdict]), want.map((l) => [l.move, l.best, l.verdict]), g.game);
    shown.forEach((r, i) => assert.ok(Math.abs(r.loss - want[i].loss) < 1e-12));
    const total = want.reduce((t, l) => t + l.loss, 0);
    assert.match(await text(page, '#review-total'), new RegExp(`Total expected loss: ${total.toFixed(4)}`));
    if (g === games[0]) await shoot(page, 'served-review', ['light', 'dark']);
    await page.close();
  }
});


test('served duel: started from the form with your secret, answered for you; the server computes the page\'s chance', async () => {
  const page = await openServed('game=mm:4x6&mode=duel');
  await page.check('input[name=duel-rule][value=equal-turns]');
  await page.check('input[name=duel-seat][value=second]');
  await page.fill('#duel-secret', '9999');
  await page.click('#duel-start');
  assert.match(await text(page, '#duel-setup-message'), /9999/);
  await page.fill('#duel-secret', '1234');
  await page.click('#duel-start');
  assert.match(hashOf(page), /drule=equal-turns&dseat=second&dseed=\d+&dsecret=1234/);
  const codes = allCodes('mm:4x6');
  const engineTree = duelTreeJson('mm-4x6-equal-turns', 'first');
  for (let step = 0; step < 20; step++) {
    const d = await duelState(page);
    if (d.over) break;
    assert.equal(d.waiting, 'mine', 'your answers are given for you');
    // The computer's moves so far are its tree's on your secret.
    let node = engineTree;
    for (const mv of d.theirs) {
      const [guess, f] = split2(mv);
      assert.equal(guess, node.guess);
      assert.equal(f, answer('1234', guess));
      node = node.next[f];
    }
    await page.fill('#duel-input', consistent(codes, d.mine.map(split2)));
    await page.press('#duel-input', 'Enter');
    const now = await duelState(page);
    if (!now.over) {
      await page.waitForSelector('#duel-chance[data-server]');
      const shown = await chancesShown(page);
      const last = shown[shown.length - 1];
      assert.equal(await page.locator('#duel-chance').getAttribute('data-server'), `${last.low} ${last.high}`);
      assert.match(await text(page, '#duel-chance'), /computed by optimoo serve, as this page computes it/);
    }
  }
  const d = await duelState(page);
  assert.ok(d.over);
  assert.equal(d.outcome, outcomeOf('equal-turns', 'second', d.mine.map(split2), d.theirs.map(split2)));
  await page.close();
});

test('no file page loaded anything but itself, the served page only its server, and no script failed', () => {
  assert.deepEqual(requests, []);
  assert.deepEqual(pageErrors, []);
});
