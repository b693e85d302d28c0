// The page of `optimoo export --format html`, driven in a real browser.
//
// Debian's headless Chromium (/usr/bin/chromium; playwright-core downloads
// no browser) opens the page from disk for moo:4x10 (data/moo-4x10-cap7.tree)
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
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'target/release');
const OUT = path.join(ROOT, 'target/browser');
const SHOTS = path.join(ROOT, 'target/browser-screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

const GAMES = [
  { name: 'moo', game: 'moo:4x10', tree: 'data/moo-4x10-cap7.tree', secrets: ['5293', '9876'], off: '4567' },
  { name: 'mm', game: 'mm:4x6', tree: 'data/mm-4x6.tree', secrets: ['1234', '5500'], off: '0000' },
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
let context, userDir;
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
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  context.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
});

after(async () => {
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
async function shoot(page, name) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size}.png`), fullPage: size === 'phone' });
  }
  await page.setViewportSize(SIZES.desktop);
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
      for (const guess of [first, second, g.off, g.codes[g.codes.length - 1]]) {
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
    for (const ch of g.off) await page.click(`#play-keys button:text-is("${ch}")`);
    await page.click('#play-submit');
    assert.equal(await text(page, '#play-history li .answer'), answer(secret, g.off));
    await page.click('#play-hint');
    assert.match(await text(page, '#play-hints p'), /not exact/);
    // No row has a value: only the tree gives exact ones.
    const values = await page.locator('table.rank tbody tr td:last-child').allTextContents();
    assert.ok(values.length > 0 && values.every((v) => v === '—'), values.join(','));
    // A code that is not one of the game's is refused with a message.
    await page.fill('#play-input', 'zz');
    await page.click('#play-submit');
    assert.match(await text(page, '#play-message.error'), /4 symbols/);
    await page.close();
  });

  test(`${g.game}: #seed=N replays a secret, #secret=CODE fixes it`, async () => {
    const secretOf = async (hash) => {
      const page = await open(g, hash);
      await page.click('#play-reveal');
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
    await p.click('#play-reveal');
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

test('no page loaded anything but itself, and no script failed', () => {
  assert.deepEqual(requests, []);
  assert.deepEqual(pageErrors, []);
});
