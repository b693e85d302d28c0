// optimoo's page: pick a game, play it, let the computer guess, browse its
// strategy.
//
// Invariants (crates/optimoo/src/tree/html.rs has the data layout):
// - codes are numbered in lexicographic order of their symbols, the
//   numbering of the tree data; a moo game has only codes of distinct
//   symbols; symbol i is written 0-9 then a-z, or with a word list's
//   alphabet (secrets.alphabet) as its i-th letter;
// - the secrets are secrets.codes when the tree plays a list, else every
//   code: secrets are drawn, counted and listed from them only; with
//   guesses "secrets" only they may be guessed;
// - an answer is packed as bulls * (k + 1) + cows, as in the data;
// - feedback: bulls = positions that agree; cows = for each symbol, the
//   smaller of its counts in the two codes, summed, less the bulls (the
//   Mastermind rule, which is the bulls-and-cows rule when no symbol repeats);
// - the address holds the whole state (game, tab, seed or secret, the moves
//   of each tab, given up): a reload, Back (one history entry a move) and a
//   link replay it; statistics live in localStorage only;
// - opened as a file, the page loads nothing and sends nothing: everything
//   is computed here. Served (DATA.served, set by `optimoo serve`), it asks
//   its own server's /api/rank, /api/analyze and /api/duel, nothing else;
// - the race (the Duel tab, "Race the computer"): the computer plays a tree
//   of the game's equilibrium (DATA.duel, data/duel), drawn with the
//   mixture's weights by the seed, which also draws its secret; its
//   chance figures follow crates/optimoo/src/play/chance.rs exactly (same
//   strategy, same tie-breaks; served, /api/duel computes them);
// - nothing shown as exact is a heuristic: exact values come from the tree
//   (its subtree's total guesses divided by the secrets left), along the
//   tree's own games or any game that is one of them with symbols and
//   places renamed (every renaming is a symmetry of a whole game; a list
//   has none), or from the server; the simple rule's choice says it is one.
(function () {
  'use strict';
  var ALL = JSON.parse(document.getElementById('tree-data').textContent);
  var SERVED = !!ALL.served;
  // The simple rule looks at most this many (guess, secret) pairs per hint.
  var QUICK_BUDGET = 4000000;
  var STATS_KEY = 'optimoo-stats-v1';

  // ---- the game in use: set by useGame --------------------------------------
  var DATA, K, N, REPEATS, LIST, WORDS, ALPHABET, RESTRICTED, WIN, codes, index, syms, counts, L,
    SECRETS, S, isSecret, GUESSES, G, CODE, SYMBOL, root, PERMS, ROOTHIST;
  var prepared = {};

  function prepare(entry) {
    var p = { entry: entry };
    p.K = entry.positions; p.N = entry.symbols; p.REPEATS = entry.repeats;
    p.LIST = entry.secrets || null;
    p.WORDS = !!(p.LIST && p.LIST.alphabet);
    p.ALPHABET = p.WORDS ? Array.from(p.LIST.alphabet) : Array.from('0123456789abcdefghijklmnopqrstuvwxyz');
    p.RESTRICTED = !!(p.LIST && p.LIST.guesses === 'secrets');
    p.codes = []; p.index = new Map();
    var rows = [];
    (function enumerate(prefix, used) {
      if (prefix.length === p.K) {
        var text = prefix.map(function (s) { return p.ALPHABET[s]; }).join('');
        p.index.set(text, p.codes.length);
        p.codes.push(text);
        rows.push(prefix.slice());
        return;
      }
      for (var s = 0; s < p.N; s++) {
        if (!p.REPEATS && used[s]) continue;
        used[s] = true; prefix.push(s);
        enumerate(prefix, used);
        prefix.pop(); used[s] = false;
      }
    })([], []);
    p.L = p.codes.length;
    p.syms = new Uint8Array(p.L * p.K);
    p.counts = new Uint8Array(p.L * p.N);
    rows.forEach(function (row, i) {
      for (var q = 0; q < p.K; q++) { p.syms[i * p.K + q] = row[q]; p.counts[i * p.N + row[q]]++; }
    });
    p.SECRETS = p.LIST ? p.LIST.codes.slice() : null;
    if (!p.SECRETS) { p.SECRETS = new Array(p.L); for (var i = 0; i < p.L; i++) p.SECRETS[i] = i; }
    p.isSecret = new Uint8Array(p.L);
    p.SECRETS.forEach(function (c) { p.isSecret[c] = 1; });
    p.root = (function decode(flat) {
      var at = 0;
      function node() {
        var n = { guess: flat[at], next: new Map() }, kids = flat[at + 1];
        at += 2;
        for (var j = 0; j < kids; j++) { var f = flat[at++]; n.next.set(f, node()); }
        return n;
      }
      var r = node();
      if (at !== flat.length) throw new Error('the tree data runs on');
      return r;
    })(entry.tree);
    // Renamings of places tried (identity first); a list has no symmetry.
    p.PERMS = permutations(p.LIST ? 1 : (p.K <= 6 ? p.K : 1), p.K);
    return p;
  }
  // The permutations of 0..m-1 (identity first), extended by the identity to k.
  function permutations(m, k) {
    var out = [];
    (function go(prefix, used) {
      if (prefix.length === m) {
        var full = prefix.slice();
        for (var i = m; i < k; i++) full.push(i);
        out.push(full);
        return;
      }
      for (var s = 0; s < m; s++) {
        if (used[s]) continue;
        used[s] = true; prefix.push(s); go(prefix, used); prefix.pop(); used[s] = false;
      }
    })([], []);
    return out;
  }
  function useGame(i) {
    var entry = ALL.games[i];
    var p = prepared[entry.game] || (prepared[entry.game] = prepare(entry));
    DATA = entry; K = p.K; N = p.N; REPEATS = p.REPEATS; LIST = p.LIST; WORDS = p.WORDS;
    ALPHABET = p.ALPHABET; RESTRICTED = p.RESTRICTED; WIN = K * (K + 1);
    codes = p.codes; index = p.index; syms = p.syms; counts = p.counts; L = p.L;
    SECRETS = p.SECRETS; S = SECRETS.length; isSecret = p.isSecret;
    GUESSES = RESTRICTED ? SECRETS : null; G = RESTRICTED ? S : L;
    CODE = WORDS ? 'word' : REPEATS ? 'code' : 'number';
    SYMBOL = WORDS ? 'letter' : REPEATS ? 'colour' : 'digit';
    root = p.root; PERMS = p.PERMS;
    ROOTHIST = subtreeHist(root, secrets());
  }

  function feedback(secret, guess) {
    var bulls = 0, common = 0, a = secret * K, b = guess * K;
    for (var p = 0; p < K; p++) if (syms[a + p] === syms[b + p]) bulls++;
    a = secret * N; b = guess * N;
    for (var s = 0; s < N; s++) {
      var x = counts[a + s], y = counts[b + s];
      common += x < y ? x : y;
    }
    return bulls * (K + 1) + common - bulls;
  }
  function bullsOf(f) { return Math.floor(f / (K + 1)); }
  function cowsOf(f) { return f % (K + 1); }
  function answerText(f) { return bullsOf(f) + 'A' + cowsOf(f) + 'B'; }
  function all() { var a = new Array(L); for (var i = 0; i < L; i++) a[i] = i; return a; }
  function secrets() { return SECRETS.slice(); }
  function guesses() { return GUESSES ? GUESSES.slice() : all(); }
  // The classes of `guess` over `set`: [answer, [codes]] in answer order.
  function split(guess, set) {
    var m = new Map();
    set.forEach(function (s) {
      var f = feedback(s, guess);
      var c = m.get(f);
      if (c) c.push(s); else m.set(f, [s]);
    });
    return Array.from(m.entries()).sort(function (x, y) { return x[0] - y[0]; });
  }
  function filter(set, guess, f) {
    return set.filter(function (s) { return feedback(s, guess) === f; });
  }
  function symbolOf(ch) {
    var s = ALPHABET.indexOf(ch);
    if (s < 0) s = ALPHABET.indexOf(ch.toLowerCase());
    return s < N ? s : -1;
  }
  // A code typed by a person: its number or an error text.
  function parseCode(text) {
    var t = Array.from(String(text).trim());
    if (t.length !== K) return 'a ' + CODE + ' has ' + K + ' ' + SYMBOL + 's';
    var word = '';
    for (var p = 0; p < K; p++) {
      var s = symbolOf(t[p]);
      if (s < 0) return '“' + t[p] + '” is not a ' + SYMBOL + ' of this game (' + symbolRange() + ')';
      word += ALPHABET[s];
    }
    if (!index.has(word)) return 'no ' + SYMBOL + ' may repeat in this game';
    return index.get(word);
  }
  function parseGuess(text) {
    var g = parseCode(text);
    if (typeof g === 'number' && RESTRICTED && !isSecret[g]) {
      return 'not one of the ' + S + ' listed ' + CODE + 's, and only they may be guessed';
    }
    return g;
  }
  // An answer typed by a person: 1A2B, 12, "1 2" or "1,2" (A first).
  function parseAnswer(text) {
    var t = String(text).trim(), m = /^(\d+)\s*a\s*(\d+)\s*b$/i.exec(t) || /^(\d)\s*[\s,;/-]?\s*(\d)$/.exec(t);
    if (!m) return 'type an answer as 1A2B, or as two numbers such as 12 or 1 2 (A first, then B)';
    var a = Number(m[1]), b = Number(m[2]);
    if (a + b > K || (a === K - 1 && b === 1)) return a + 'A' + b + 'B cannot be the answer to ' + K + ' ' + SYMBOL + 's';
    return a * (K + 1) + b;
  }
  function symbolRange() { return WORDS ? ALPHABET.slice(0, N).join(' ') : ALPHABET[0] + '–' + ALPHABET[N - 1]; }

  // ---- the tree ----------------------------------------------------------
  // Histogram of a subtree over `set` (the secrets left at `node`):
  // hist[d] = secrets solved by the (d+1)-th guess from this node on.
  function subtreeHist(node, set) {
    if (node.hist) return node.hist;
    var hist = [];
    (function walk(n, s, d) {
      split(n.guess, s).forEach(function (c) {
        if (c[0] === WIN) { hist[d] = (hist[d] || 0) + c[1].length; return; }
        var child = n.next.get(c[0]);
        if (!child) throw new Error('the tree has no move after ' + answerText(c[0]));
        walk(child, c[1], d + 1);
      });
    })(node, set, 0);
    for (var i = 0; i < hist.length; i++) hist[i] = hist[i] || 0;
    node.hist = hist;
    return hist;
  }
  function histTotal(hist) { return hist.reduce(function (t, h, d) { return t + h * (d + 1); }, 0); }
  function treeGame(secret) {
    var n = root, moves = [];
    while (n) {
      var f = feedback(secret, n.guess);
      moves.push([n.guess, f]);
      if (f === WIN) break;
      n = n.next.get(f);
    }
    return moves;
  }
  // Where a game of moves [[guess, answer]...] stands on the tree: the
  // tree's game with the same answers, and a renaming of symbols (sigma)
  // and places (pi) that turns each guess played into the tree's; null if
  // none does. The renaming maps code c to the code whose place pi[p]
  // holds sigma[c[p]]; it keeps every answer, so the tree's values hold.
  function onTree(moves) {
    var n = root, pairs = [], set = secrets();
    for (var i = 0; i < moves.length; i++) {
      if (!n) return null;
      pairs.push([moves[i][0], n.guess]);
      set = filter(set, n.guess, moves[i][1]);
      n = moves[i][1] === WIN ? null : n.next.get(moves[i][1]) || null;
    }
    if (!n) return null;
    for (var q = 0; q < PERMS.length; q++) {
      var pi = PERMS[q], sigma = new Int16Array(N).fill(-1), inv = new Int16Array(N).fill(-1), ok = true;
      for (var j = 0; j < pairs.length && ok; j++) {
        var g = pairs[j][0], t = pairs[j][1];
        for (var p = 0; p < K; p++) {
          var a = syms[g * K + p], b = syms[t * K + pi[p]];
          if (sigma[a] === -1 && inv[b] === -1) { sigma[a] = b; inv[b] = a; }
          else if (sigma[a] !== b) { ok = false; break; }
        }
      }
      if (!ok) continue;
      if (LIST && (pairs.some(function (x) { return x[0] !== x[1]; }))) return null;
      for (var s = 0; s < N; s++) if (sigma[s] === -1 && inv[s] === -1) { sigma[s] = s; inv[s] = s; }
      var free = 0;
      for (var s2 = 0; s2 < N; s2++) {
        if (sigma[s2] !== -1) continue;
        while (inv[free] !== -1) free++;
        sigma[s2] = free; inv[free] = s2;
      }
      var identity = pi.every(function (x, k) { return x === k; }) && Array.prototype.every.call(sigma, function (x, k) { return x === k; });
      return { node: n, set: set, pi: pi, sigma: sigma, inv: inv, identity: identity };
    }
    return null;
  }
  // The player's code for the tree's code `t` under the renaming `m`.
  function unmap(m, t) {
    var text = '';
    for (var p = 0; p < K; p++) text += ALPHABET[m.inv[syms[t * K + m.pi[p]]]];
    return index.get(text);
  }
  function renamingText(m) {
    var parts = [];
    for (var s = 0; s < N; s++) if (m.sigma[s] !== s) parts.push(ALPHABET[s] + '→' + ALPHABET[m.sigma[s]]);
    var moved = m.pi.some(function (x, k) { return x !== k; });
    return (parts.length ? SYMBOL + 's renamed ' + parts.join(', ') : '') +
      (moved ? (parts.length ? ', and ' : '') + 'places reordered' : '');
  }

  // ---- the simple rule (not exact) -----------------------------------------
  function row(guess, set) {
    var sizes = new Map(), largest = 0;
    set.forEach(function (s) {
      var f = feedback(s, guess), n = (sizes.get(f) || 0) + 1;
      sizes.set(f, n);
      if (n > largest) largest = n;
    });
    return { guess: guess, candidate: set.indexOf(guess) >= 0, classes: sizes.size, largest: largest };
  }
  function quickOrder(a, b) {
    return a.largest - b.largest || b.classes - a.classes ||
      (b.candidate ? 1 : 0) - (a.candidate ? 1 : 0) || a.guess - b.guess;
  }
  function quickPool(set) {
    if (G * set.length <= QUICK_BUDGET) return guesses();
    return set.slice(0, Math.max(1, Math.floor(QUICK_BUDGET / set.length)));
  }
  function quickRank(set, top) {
    var rows = quickPool(set).map(function (g) { return row(g, set); });
    rows.sort(quickOrder);
    return rows.slice(0, top);
  }

  // ---- small helpers -----------------------------------------------------
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'class') e.className = attrs[k];
      else if (k === 'text') e.textContent = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  function fmt(x) { return x.toFixed(4).replace(/\.?0+$/, ''); }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : /s$/.test(word) ? 'es' : 's'); }
  function codeList(set, limit) {
    var shown = set.slice(0, limit).map(function (i) { return codes[i]; }).join(' ');
    return set.length > limit ? shown + ' … and ' + (set.length - limit) + ' more' : shown;
  }
  function histBars(target, hist, firstGuess, label) {
    clear(target);
    var max = Math.max.apply(null, hist.concat([1]));
    hist.forEach(function (h, d) {
      var bar = el('span', { class: 'bar' });
      bar.style.width = (100 * h / max).toFixed(1) + '%';
      target.appendChild(el('div', { class: 'hrow' }, [
        el('span', { class: 'hlabel', text: (label || 'guess ') + (firstGuess + d) }),
        el('span', { class: 'htrack' }, [bar]),
        el('span', { class: 'hcount', text: String(h) }),
      ]));
    });
    target.setAttribute('data-first', String(firstGuess));
    target.setAttribute('data-counts', hist.join(' '));
  }
  function historyItem(n, guess, f) {
    return el('li', {}, [
      el('span', { class: 'muted', text: n + '.' }), ' ',
      el('span', { class: 'code', text: codes[guess] }), ' ',
      el('span', { class: 'answer' + (f === WIN ? ' win' : ''), text: answerText(f) }),
    ]);
  }
  function leftList(details, summary, target, set, what) {
    summary.textContent = plural(set.length, 'secret') + ' still possible' + (set.length > 24 ? ' (show them)' : '');
    target.textContent = codeList(set, 300);
    details.open = set.length <= 24;
    details.setAttribute('data-left', String(set.length));
    details.hidden = what === false;
  }
  // mulberry32: a small seeded generator, so #seed=N replays a secret.
  function seeded(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function secretOfSeed(seed) { return SECRETS[Math.floor(seeded(seed)() * S)]; }

  // ---- the rules, in words, with an example ---------------------------------
  function example() {
    var secret = index.has('5293') && isSecret[index.get('5293')] ? index.get('5293') : SECRETS[Math.floor(S * 0.61)];
    var start = index.has('1235') ? index.get('1235') : Math.floor(L * 0.37), guess = -1;
    for (var i = 0; i < L && guess < 0; i++) {
      var c = (start + i) % L, f = feedback(secret, c);
      if (bullsOf(f) >= 1 && cowsOf(f) >= 1 && (!RESTRICTED || isSecret[c])) guess = c;
    }
    if (guess < 0) return null;
    var inPlace = [], elsewhere = [], left = {}, s, p;
    for (p = 0; p < K; p++) {
      s = syms[secret * K + p];
      if (s === syms[guess * K + p]) inPlace.push(ALPHABET[s]); else left[s] = (left[s] || 0) + 1;
    }
    for (p = 0; p < K; p++) {
      s = syms[guess * K + p];
      if (s !== syms[secret * K + p] && left[s]) { left[s]--; elsewhere.push(ALPHABET[s]); }
    }
    return { secret: codes[secret], guess: codes[guess], answer: answerText(feedback(secret, guess)), inPlace: inPlace, elsewhere: elsewhere };
  }
  function words(list) {
    return list.length <= 1 ? list.join('') : list.slice(0, -1).join(', ') + ' and ' + list[list.length - 1];
  }
  function rulesText(forGuess) {
    var what;
    if (WORDS) what = 'The secret is a word of ' + K + ' letters, one of the ' + S + ' words of the list' +
      (LIST.name ? ' ' + LIST.name : '') + ' (letters ' + symbolRange() + ')' +
      (RESTRICTED ? '; only listed words may be guessed.' : '; any ' + K + ' different letters may be guessed.');
    else if (REPEATS) what = 'The secret is a row of ' + K + ' pegs, each one of ' + N + ' colours written ' +
      symbolRange() + '; colours may repeat.';
    else what = 'The secret is a number of ' + K + ' different digits (' + symbolRange() + '), a leading 0 allowed.';
    if (LIST && !WORDS) what += ' It is one of ' + S + ' listed secrets.';
    var how = ' Each guess is answered with two counts: A, the ' + SYMBOL + 's right and in the right place' +
      (REPEATS ? ' (black pegs)' : '') + ', and B, those in the secret but in another place' +
      (REPEATS ? ' (white pegs)' : '') + '. ' + K + 'A0B wins.';
    var ex = example(), exText = '';
    if (ex) {
      exText = ' Example: against the secret ' + ex.secret + ', the guess ' + ex.guess + ' is answered ' + ex.answer +
        ' (' + words(ex.inPlace) + (ex.inPlace.length === 1 ? ' is' : ' are') + ' in place; ' + words(ex.elsewhere) +
        (ex.elsewhere.length === 1 ? ' is' : ' are') + ' in the secret elsewhere).';
    }
    var role = forGuess ? ' Think of a secret and keep it; the computer guesses, and you answer each guess: type it as 1A2B, or just 1 2, or click it below.'
      : ' Find the secret in as few guesses as you can.';
    return { what: what, rest: how + exText + role };
  }
  function renderRules(target, forGuess) {
    var t = rulesText(forGuess);
    clear(target).appendChild(el('p', {}, [el('strong', { text: 'How to play. ' }), t.what + t.rest]));
  }

  // ---- the state, kept in the address ---------------------------------------
  // state: game, mode, seed | secret, moves (play guesses), gaveup,
  // answers (the computer guesses), path (browse).
  var state = {};
  function gameIndex(name) {
    for (var i = 0; i < ALL.games.length; i++) if (ALL.games[i].game === name) return i;
    return -1;
  }
  function list(text) { return text ? text.split(/[,\s]+/).filter(function (x) { return x; }) : []; }
  function readAddress() {
    var h = new URLSearchParams((location.hash || '').replace(/^#/, ''));
    var q = new URLSearchParams((location.search || '').replace(/^\?/, ''));
    var gi = gameIndex(h.get('game') || q.get('game') || '');
    var s = {
      game: gi >= 0 ? gi : 0,
      mode: MODES.indexOf(h.get('mode')) >= 0 ? h.get('mode') : 'play',
      seed: h.has('seed') ? (Number(h.get('seed')) >>> 0) : null,
      secret: h.get('secret'),
      moves: list(h.get('moves')),
      gaveup: h.get('gaveup') === '1',
      answers: list(h.get('answers')),
      path: list(h.get('path')),
      drule: h.get('drule') === 'equal-turns' ? 'equal-turns' : 'first-wins',
      dseat: h.get('dseat') === 'second' ? 'second' : 'first',
      dseed: h.has('dseed') ? (Number(h.get('dseed')) >>> 0) : null,
      dsecret: h.get('dsecret'),
      dmine: list(h.get('dmine')),
      dtheirs: list(h.get('dtheirs')),
    };
    if (s.seed === null && s.secret === null) s.fresh = true;
    return s;
  }
  function addressOf(s) {
    var parts = ['game=' + ALL.games[s.game].game, 'mode=' + s.mode];
    if (s.secret !== null && s.secret !== undefined) parts.push('secret=' + encodeURIComponent(s.secret));
    else if (s.seed !== null) parts.push('seed=' + s.seed);
    if (s.moves.length) parts.push('moves=' + s.moves.map(encodeURIComponent).join(','));
    if (s.gaveup) parts.push('gaveup=1');
    if (s.answers.length) parts.push('answers=' + s.answers.join(','));
    if (s.path.length) parts.push('path=' + s.path.join(','));
    if (s.dseed !== null && s.dseed !== undefined) {
      parts.push('drule=' + s.drule, 'dseat=' + s.dseat, 'dseed=' + s.dseed);
      if (s.dsecret) parts.push('dsecret=' + encodeURIComponent(s.dsecret));
      if (s.dmine.length) parts.push('dmine=' + s.dmine.map(encodeURIComponent).join(','));
      if (s.dtheirs.length) parts.push('dtheirs=' + s.dtheirs.join(','));
    }
    return '#' + parts.join('&');
  }
  function commit(push) {
    var url = location.pathname + location.search + addressOf(state);
    try {
      if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
    } catch (e) { /* a browser that refuses: the page still works */ }
  }
  function freshSeed() { return Math.floor(Math.random() * 2147483647) + 1; }

  // ---- statistics (localStorage) ---------------------------------------------
  function loadStats() {
    try { return JSON.parse(localStorage.getItem(STATS_KEY)) || { games: {}, recorded: [] }; } catch (e) { return { games: {}, recorded: [] }; }
  }
  function saveStats(st) { try { localStorage.setItem(STATS_KEY, JSON.stringify(st)); } catch (e) { /* private mode */ } }
  function record(won, guessCount) {
    var st = loadStats(), id = addressOf(state);
    if (st.recorded.indexOf(id) >= 0) return;
    st.recorded.push(id);
    if (st.recorded.length > 200) st.recorded = st.recorded.slice(-200);
    var g = st.games[DATA.game] || (st.games[DATA.game] = { played: 0, won: 0, guesses: 0, hist: {}, streak: 0, best: 0 });
    g.played++;
    if (won) {
      g.won++; g.guesses += guessCount; g.hist[guessCount] = (g.hist[guessCount] || 0) + 1;
      g.streak++; if (g.streak > g.best) g.best = g.streak;
    } else g.streak = 0;
    saveStats(st);
  }
  function renderStats() {
    var g = loadStats().games[DATA.game] || { played: 0, won: 0, guesses: 0, hist: {}, streak: 0, best: 0 };
    var line = $('stats-line');
    line.textContent = g.played === 0 ? 'No game finished yet in this browser.' :
      plural(g.played, 'game') + ' played, ' + g.won + ' won' +
      (g.won ? ', ' + fmt(g.guesses / g.won) + ' guesses on average' : '') +
      '; streak ' + g.streak + ' (best ' + g.best + '). The computer averages ' + fmt(histTotal(ROOTHIST) / S) + '.';
    line.setAttribute('data-played', String(g.played));
    line.setAttribute('data-won', String(g.won));
    line.setAttribute('data-streak', String(g.streak));
    var keys = Object.keys(g.hist).map(Number), max = keys.length ? Math.max.apply(null, keys) : 0, hist = [];
    for (var i = 1; i <= max; i++) hist.push(g.hist[i] || 0);
    histBars($('stats-hist'), hist, 1, 'in ');
    var r = (loadStats().duels || {})[DATA.game] || { played: 0, won: 0, lost: 0, drawn: 0 };
    var dl = r.played === 0 ? 'No race against the computer finished yet.' :
      'Races against the computer: ' + r.played + ' finished, ' + r.won + ' won, ' + r.lost + ' lost, ' + r.drawn + ' drawn.';
    [$('stats-duel'), $('duel-stats')].forEach(function (e) {
      e.textContent = dl;
      e.setAttribute('data-played', String(r.played)); e.setAttribute('data-won', String(r.won));
      e.setAttribute('data-lost', String(r.lost)); e.setAttribute('data-drawn', String(r.drawn));
    });
    $('stats-clear').disabled = g.played === 0 && r.played === 0;
  }
  // A finished race, counted once (its address is its identity).
  function recordDuel(outcome) {
    var st = loadStats(), id = addressOf(state);
    if (st.recorded.indexOf(id) >= 0) return;
    st.recorded.push(id);
    if (st.recorded.length > 200) st.recorded = st.recorded.slice(-200);
    st.duels = st.duels || {};
    var r = st.duels[DATA.game] || (st.duels[DATA.game] = { played: 0, won: 0, lost: 0, drawn: 0 });
    r.played++; r[outcome]++;
    saveStats(st);
  }

  // ---- You guess -----------------------------------------------------------
  var play = {};
  function playDerive() {
    var p = { moves: [], set: secrets(), won: false, error: '' };
    var secret = null;
    if (state.secret !== null) {
      var c = parseCode(state.secret);
      if (typeof c === 'number' && isSecret[c]) secret = c;
      else p.error = 'The address gives the secret “' + state.secret + '”: ' +
        (typeof c === 'number' ? 'not one of the list’s ' + S + ' secrets' : c) + '; a random secret instead.';
    }
    if (secret === null) {
      if (state.seed === null) state.seed = freshSeed();
      if (p.error) { state.secret = null; }
      secret = secretOfSeed(state.seed);
    }
    p.secret = secret;
    for (var i = 0; i < state.moves.length; i++) {
      var g = parseGuess(state.moves[i]);
      if (typeof g === 'string') { state.moves = state.moves.slice(0, i); break; }
      var f = feedback(secret, g);
      p.moves.push([g, f]);
      p.set = filter(p.set, g, f);
      if (f === WIN) { p.won = true; state.moves = state.moves.slice(0, i + 1); break; }
    }
    p.gaveup = state.gaveup && !p.won;
    p.done = p.won || p.gaveup;
    play = p;
  }
  function playGuess(text) {
    if (play.done) {
      playRender('This game is over' + (play.gaveup ? ' (you gave up)' : '') + ': draw a new secret to play again.', true);
      return;
    }
    var g = parseGuess(text);
    if (typeof g === 'string') { playRender('“' + String(text).trim() + '”: ' + g + '.', true); return; }
    for (var i = 0; i < play.moves.length; i++) {
      if (play.moves[i][0] === g) { playRender('You already guessed ' + codes[g] + ' (guess ' + (i + 1) + '): try another.', true); return; }
    }
    state.moves = state.moves.concat([codes[g]]);
    playDerive();
    commit(true);
    $('play-input').value = '';
    if (play.won) record(true, play.moves.length);
    playRender('');
    if (play.done) playReview();
  }
  function playRender(msg, error) {
    renderRules($('play-rules'), false);
    var m = $('play-message');
    var text = msg;
    if (!text && play.won) {
      var tree = treeGame(play.secret).length, n = play.moves.length;
      text = 'Solved in ' + plural(n, 'guess') + '! The computer’s strategy needs ' + tree + ' for this secret.';
    }
    if (!text && play.gaveup) text = 'The secret is ' + codes[play.secret] + '. You gave up: this game counts as lost.';
    if (!text) text = play.error || plural(play.set.length, 'secret') + ' still possible.';
    m.textContent = text;
    m.className = 'message' + (error || (play.error && !msg && !play.done) ? ' error' : play.won ? ' success' : play.gaveup ? ' over' : '');
    var h = clear($('play-history'));
    play.moves.forEach(function (mv, i) { h.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    leftList($('play-left'), $('play-left-summary'), $('play-left-codes'), play.set, !play.done && play.moves.length > 0);
    if (error) return;
    $('play-hints').hidden = true;
    $('play-input').disabled = play.done;
    Array.prototype.forEach.call($('play-keys').querySelectorAll('button'), function (b) { b.disabled = play.done; });
    $('play-submit').disabled = play.done;
    $('play-hint').disabled = play.done;
    $('play-undo').disabled = play.done || play.moves.length === 0;
    $('play-reveal').disabled = play.done;
    $('play-share').hidden = !play.done;
    $('share-box').hidden = true;
    $('play-confirm').hidden = true;
    if (!play.done) $('play-review').hidden = true;
    renderStats();
  }
  function playUndo() {
    if (play.done || !state.moves.length) return;
    state.moves = state.moves.slice(0, -1);
    playDerive();
    commit(true);
    playRender('Took back your last guess.');
  }
  function playNew() {
    state.seed = freshSeed(); state.secret = null; state.moves = []; state.gaveup = false;
    playDerive();
    commit(true);
    playRender('');
    $('play-input').focus({ preventScroll: true });
  }
  function askFirst(text, yes, onYes) {
    $('play-confirm-text').textContent = text;
    var b = $('play-confirm-yes');
    b.textContent = yes;
    b.onclick = function () { $('play-confirm').hidden = true; onYes(); };
    $('play-confirm').hidden = false;
    b.focus();
  }
  function playReveal() {
    if (play.done) return;
    state.gaveup = true;
    playDerive();
    commit(true);
    record(false, 0);
    playRender('');
    playReview();
  }
  // A seed that draws the same secret, so a shared link spoils nothing.
  function seedFor(secret) {
    if (state.seed !== null && state.secret === null) return state.seed;
    for (var s = 1; s < 2000000; s++) if (secretOfSeed(s) === secret) return s;
    return null;
  }
  function shareText() {
    var lines = ['optimoo · ' + DATA.label, play.won ? 'Solved in ' + plural(play.moves.length, 'guess') :
      'Gave up after ' + plural(play.moves.length, 'guess')];
    play.moves.forEach(function (mv) {
      var a = bullsOf(mv[1]), b = cowsOf(mv[1]);
      lines.push('🟩'.repeat(a) + '🟨'.repeat(b) + '⬜'.repeat(K - a - b) + ' ' + answerText(mv[1]));
    });
    var seed = seedFor(play.secret);
    var link = location.href.split('#')[0] + '#game=' + DATA.game + '&mode=play&' +
      (seed !== null ? 'seed=' + seed : 'secret=' + codes[play.secret]);
    lines.push(link);
    return lines.join('\n');
  }
  function playShare() {
    var text = shareText();
    $('share-box').hidden = false;
    $('share-text').value = text;
    try {
      if (navigator.clipboard) navigator.clipboard.writeText(text).catch(function () { /* shown below */ });
    } catch (e) { /* shown below */ }
  }

  // ---- hints ----------------------------------------------------------------------
  var hintToken = 0;
  function hintTable(rows, best, note) {
    var table = el('table', { class: 'rank' }, [el('thead', {}, [el('tr', {}, [
      el('th', { scope: 'col', text: 'guess' }), el('th', { scope: 'col', text: 'could win' }),
      el('th', { scope: 'col', text: 'answers' }), el('th', { scope: 'col', text: 'worst case' }),
      el('th', { scope: 'col', text: 'average' })])])]);
    var body = el('tbody');
    rows.forEach(function (r) {
      body.appendChild(el('tr', r.guess === best ? { class: 'best', 'data-guess': codes[r.guess], 'data-value': r.value === null ? '' : String(r.value) } :
        { 'data-guess': codes[r.guess], 'data-value': r.value === null ? '' : String(r.value) }, [
        el('td', { class: 'code', text: codes[r.guess] }), el('td', { text: r.candidate ? 'yes' : 'no' }),
        el('td', { text: String(r.classes) }), el('td', { text: String(r.largest) }),
        el('td', { text: r.shown })]));
    });
    table.appendChild(body);
    var box = $('play-hints');
    box.appendChild(el('div', { class: 'scroll' }, [table]));
    // Why the best move may leave more secrets in the worst case than another.
    var top = rows.filter(function (r) { return r.guess === best; })[0];
    var smaller = top && rows.filter(function (r) { return r.guess !== best && r.largest < top.largest; })[0];
    if (smaller) {
      box.appendChild(el('p', { id: 'hint-why', text: 'Why not ' + codes[smaller.guess] + ', which leaves at most ' +
        smaller.largest + ' secrets where ' + codes[best] + ' may leave ' + top.largest + '? What counts is how many guesses ' +
        'a move takes on average over every answer it may get, not its single worst answer' +
        (smaller.value !== null && top.value !== null ? ': ' + codes[smaller.guess] + ' takes ' + fmt(smaller.value) +
          ' on average, ' + codes[best] + ' ' + fmt(top.value) + '.' : '.') }));
    }
    box.appendChild(el('p', { class: 'muted small', text: note }));
  }
  function useButton(best) {
    return el('button', { type: 'button', id: 'hint-use', class: 'primary',
      onclick: function () { playGuess(codes[best]); }, text: 'Play ' + codes[best] });
  }
  function playHint() {
    if (play.done) return;
    var box = clear($('play-hints'));
    box.hidden = false;
    if (SERVED) { serverHint(box); return; }
    fileHint(box);
  }
  function fileHint(box, why) {
    var set = play.set, best, exact = null, pos = onTree(play.moves);
    if (pos) {
      best = unmap(pos, pos.node.guess);
      var total = histTotal(subtreeHist(pos.node, pos.set));
      exact = total / set.length;
      box.appendChild(el('p', {}, [
        (why ? why + ' ' : '') + 'Best here: ', el('span', { class: 'code', id: 'hint-guess', text: codes[best] }), '. ',
        'From here it takes ' + fmt(exact) + ' guesses on average (' + total + ' over ' +
        plural(set.length, 'secret') + ', this guess included): exact' +
        (DATA.optimal ? ', and optimal.' : ' for the computer’s strategy, which is not proved the best.') +
        (pos.identity ? '' : ' Your game is the strategy’s own with ' + renamingText(pos) +
          ', which changes no answer, so its values hold for you.'),
      ]));
    } else {
      best = quickRank(set, 1)[0].guess;
      box.appendChild(el('p', {}, [
        (why ? why + ' ' : '') + 'Your game has left the computer’s strategy, and no renaming of ' + SYMBOL + 's or places brings it back, ' +
        'so this page cannot work out exact values here (it holds one strategy, not the engine). ' +
        'A simple rule (fewest secrets left in the worst case) suggests ',
        el('span', { class: 'code', id: 'hint-guess', text: codes[best] }), ': not exact.',
      ]));
    }
    box.appendChild(useButton(best));
    var rows = quickRank(set, 6);
    if (pos && !rows.some(function (r) { return r.guess === best; })) rows.unshift(row(best, set));
    else if (pos) rows.sort(function (a, b) { return (b.guess === best) - (a.guess === best); });
    rows.forEach(function (r) {
      r.value = r.guess === best && exact !== null ? exact : null;
      r.shown = r.value !== null ? fmt(r.value) : 'unknown';
    });
    hintTable(rows, best, 'Rows: ' + (pos ? 'the best move, then ' : '') + 'the best by the simple rule. ' +
      'Could win: the guess may be the secret. Answers: how many different answers it may get. Worst case: the most secrets ' +
      'it may leave. Average: how many more guesses it takes, this one included, playing on as well as possible; ' +
      'exact only where the page can prove it.' + (SERVED ? '' : ' For exact values of every guess, open this page through optimoo serve.'));
  }
  function historyParam(moves) {
    return moves.map(function (mv) { return codes[mv[0]] + ':' + answerText(mv[1]); }).join(',');
  }
  function api(endpoint, moves, extra) {
    var url = '/api/' + endpoint + '?game=' + encodeURIComponent(DATA.game) + '&history=' +
      encodeURIComponent(historyParam(moves)) + (extra || '');
    return fetch(url).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body && body.error ? body.error : 'status ' + r.status);
        return body;
      });
    });
  }
  function serverHint(box) {
    var token = ++hintToken, moves = play.moves.slice(), set = play.set;
    box.appendChild(el('p', { class: 'muted', text: 'Asking the engine…' }));
    api('rank', moves, '&top=8').then(function (lines) {
      if (token !== hintToken) return;
      clear(box);
      if (!lines.length) return;
      var best = index.get(lines[0].guess), allExact = lines.every(function (l) { return l.exact; });
      var first = lines[0];
      box.appendChild(el('p', {}, [
        'Best here: ', el('span', { class: 'code', id: 'hint-guess', text: codes[best] }), '. ',
        first.value === null ? 'No guess finishes within the strategy’s limit of guesses.' :
          (first.exact ? 'From here it takes ' + fmt(first.value) + ' guesses on average (' + first.total + ' over ' +
            plural(set.length, 'secret') + ', this guess included): exact, worked out by the engine for your position.' :
            'The engine ran out of its time before finishing: from here it takes at least ' + fmt(first.value) +
            ' guesses on average (a proven bound, not exact).'),
      ]));
      box.appendChild(useButton(best));
      var rows = lines.map(function (l) {
        return { guess: index.get(l.guess), candidate: l.candidate, classes: l.classes, largest: l.largest,
          value: l.value, shown: l.value === null ? 'over the limit' : (l.exact ? '' : 'at least ') + fmt(l.value) };
      });
      hintTable(rows, best, 'Rows: the engine’s best guesses for your position, best first. Average: how many more guesses it takes, ' +
        'this one included, playing on as well as possible; ' + (allExact ? 'every value is exact.' :
          '“at least” marks a proven lower bound where the engine’s time ran out.'));
      box.setAttribute('data-source', 'server');
    }).catch(function (e) {
      if (token !== hintToken) return;
      clear(box);
      fileHint(box, 'The engine did not answer (' + e.message + '), so this is the page’s own hint.');
    });
  }

  // ---- the review after a game ---------------------------------------------------
  function playReview() {
    var box = clear($('play-review'));
    if (!play.moves.length) { box.hidden = true; return; }
    box.hidden = false;
    if (!SERVED) {
      box.appendChild(el('p', { class: 'muted', text: 'A move-by-move review (how many guesses each move cost against the best) ' +
        'needs the engine: open this page through optimoo serve, or run moo analyze with your moves.' }));
      return;
    }
    var token = ++hintToken, moves = play.moves.slice();
    box.appendChild(el('p', { class: 'muted', text: 'Reviewing your game with the engine…' }));
    api('analyze', moves).then(function (lines) {
      if (token !== hintToken) return;
      clear(box);
      box.appendChild(el('h2', { text: 'Review of your game' }));
      var table = el('table', { class: 'rank', id: 'review-table' }, [el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'move' }), el('th', { scope: 'col', text: 'guess' }),
        el('th', { scope: 'col', text: 'answer' }), el('th', { scope: 'col', text: 'left' }),
        el('th', { scope: 'col', text: 'your value' }), el('th', { scope: 'col', text: 'best' }),
        el('th', { scope: 'col', text: 'best value' }), el('th', { scope: 'col', text: 'loss' }),
        el('th', { scope: 'col', text: 'verdict' })])])]);
      var body = el('tbody'), loss = 0;
      lines.forEach(function (l, i) {
        loss += l.loss || 0;
        var v = function (x) { return x === null || x === undefined ? '—' : x.toFixed(4); };
        body.appendChild(el('tr', { 'data-move': l.move, 'data-best': l.best || '', 'data-loss': String(l.loss),
          'data-verdict': l.verdict || '' }, [
          el('td', { text: String(i + 1) }), el('td', { class: 'code', text: l.move }), el('td', { text: l.answer }),
          el('td', { text: String(l.left) }), el('td', { text: v(l.value) }), el('td', { class: 'code', text: l.best || '—' }),
          el('td', { text: v(l.best_value) }), el('td', { text: v(l.loss) }),
          el('td', { text: (l.verdict || '—') + (l.exact ? '' : ' (at least)') })]));
      });
      table.appendChild(body);
      box.appendChild(el('div', { class: 'scroll' }, [table]));
      box.appendChild(el('p', { id: 'review-total', text: 'Total expected loss: ' + loss.toFixed(4) +
        ' guesses (the average guesses your moves cost against the best, as moo analyze says).' }));
    }).catch(function (e) {
      if (token !== hintToken) return;
      clear(box).appendChild(el('p', { class: 'message error', text: 'The engine could not review this game: ' + e.message }));
    });
  }

  // ---- The computer guesses --------------------------------------------------------
  var tg = {};
  function guessDerive() {
    var n = root, set = secrets(), moves = [];
    for (var i = 0; i < state.answers.length; i++) {
      var f = parseAnswer(state.answers[i]);
      if (typeof f === 'string' || !n) break;
      var left = filter(set, n.guess, f);
      if (!left.length) break;
      moves.push([n.guess, f]);
      set = left;
      n = f === WIN ? null : n.next.get(f);
    }
    state.answers = moves.map(function (m) { return answerText(m[1]); });
    tg = { node: n, set: set, moves: moves };
  }
  function guessAnswer(f) {
    if (!tg.node) return;
    var left = filter(tg.set, tg.node.guess, f);
    if (left.length === 0) {
      guessRender('No secret gives ' + answerText(f) + ' to ' + codes[tg.node.guess] +
        (tg.moves.length ? ' after your earlier answers: one of them is wrong. Check them, or undo.' : '.'), true);
      return;
    }
    state.answers = state.answers.concat([answerText(f)]);
    guessDerive();
    commit(true);
    $('guess-input').value = '';
    guessRender('');
  }
  function guessRender(msg, error) {
    renderRules($('guess-rules'), true);
    var won = tg.moves.length && tg.moves[tg.moves.length - 1][1] === WIN;
    var m = $('guess-message');
    var answers = clear($('guess-answers'));
    $('guess-form').hidden = !!won;
    $('guess-legend').hidden = !!won || !!LIST;
    if (won) {
      var last = tg.moves[tg.moves.length - 1][0];
      $('guess-number').textContent = 'Your secret is';
      $('guess-code').textContent = codes[last];
      $('guess-left').textContent = '';
      m.textContent = 'Found in ' + plural(tg.moves.length, 'guess') + '.';
      m.className = 'message success';
    } else {
      var g = tg.node.guess;
      $('guess-number').textContent = 'Guess ' + (tg.moves.length + 1) + ':';
      $('guess-code').textContent = codes[g];
      $('guess-left').textContent = plural(tg.set.length, 'secret') + ' still possible.';
      var given = new Set(split(g, tg.set).map(function (c) { return c[0]; }));
      split(g, LIST ? tg.set : all()).forEach(function (c) {
        var f = c[0], possible = given.has(f);
        answers.appendChild(el('button', { type: 'button', 'data-answer': answerText(f),
          class: 'answer-btn' + (possible ? '' : ' unlikely') + (f === WIN ? ' win' : ''),
          title: possible ? 'Answer ' + answerText(f) : 'No secret still possible gives ' + answerText(f) + ': an earlier answer would be wrong',
          onclick: function () { guessAnswer(f); }, text: answerText(f) }));
      });
      m.textContent = msg;
      m.className = 'message' + (error ? ' error' : '');
    }
    var h = clear($('guess-history'));
    tg.moves.forEach(function (mv, i) { h.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    leftList($('guess-left-list'), $('guess-left-summary'), $('guess-left-codes'), tg.set, !won && tg.moves.length > 0);
    $('guess-undo').disabled = tg.moves.length === 0;
  }

  // ---- Explore the strategy -----------------------------------------------------------
  function browseDerive() {
    var n = root, set = secrets(), steps = [], ok = [];
    for (var i = 0; i < state.path.length; i++) {
      var f = parseAnswer(state.path[i]);
      if (typeof f === 'string' || f === WIN || !n.next.has(f)) break;
      steps.push([n.guess, f]); ok.push(answerText(f));
      set = filter(set, n.guess, f);
      n = n.next.get(f);
    }
    state.path = ok;
    return { node: n, set: set, steps: steps };
  }
  function browseGo(path) { state.path = path; commit(true); browseRender(); }
  function browseRender(msg, error) {
    var b = browseDerive(), n = b.node, set = b.set, steps = b.steps;
    var crumbs = clear($('browse-crumbs'));
    crumbs.appendChild(el('button', { type: 'button', class: 'crumb', onclick: function () { browseGo([]); }, text: 'Start' }));
    steps.forEach(function (s, i) {
      crumbs.appendChild(el('span', { class: 'sep', text: '›' }));
      crumbs.appendChild(el('button', { type: 'button', class: 'crumb',
        onclick: function () { browseGo(state.path.slice(0, i + 1)); },
        text: codes[s[0]] + ' ' + answerText(s[1]) }));
    });
    var depth = steps.length + 1;
    $('browse-number').textContent = 'Guess ' + depth + ':';
    $('browse-code').textContent = codes[n.guess];
    var cand = set.indexOf(n.guess) >= 0;
    $('browse-cand').textContent = cand ? 'could be the secret' : 'cannot be the secret';
    $('browse-cand').className = 'tag' + (cand ? ' yes' : '');
    var hist = subtreeHist(n, set), total = histTotal(hist);
    $('browse-stats').textContent = plural(set.length, 'secret') + ' left; from here the strategy needs ' + total +
      ' guesses in all, ' + fmt(total / set.length) + ' on average, at most ' + hist.length + ' (this guess included).';
    $('browse-stats').setAttribute('data-left', String(set.length));
    $('browse-stats').setAttribute('data-total', String(total));
    histBars($('browse-hist'), hist, depth);
    $('browse-left-title').textContent = 'Secrets left (' + set.length + ')';
    $('browse-left').textContent = codeList(set, 200);
    var m = $('browse-message');
    m.textContent = msg || '';
    m.className = 'message' + (error ? ' error' : '');
    $('browse-undo').disabled = steps.length === 0;
    var listEl = clear($('browse-answers'));
    split(n.guess, set).forEach(function (c) {
      var f = c[0], size = c[1].length;
      if (f === WIN) {
        listEl.appendChild(el('div', { class: 'answer-item win', 'data-answer': answerText(f), 'data-left': '1' }, [
          el('span', { class: 'answer win', text: answerText(f) }), el('span', { text: 'solved' })]));
        return;
      }
      var child = n.next.get(f);
      listEl.appendChild(el('button', { type: 'button', class: 'answer-item', 'data-answer': answerText(f),
        'data-left': String(size), onclick: function () { browseGo(state.path.concat([answerText(f)])); window.scrollTo(0, 0); } }, [
        el('span', { class: 'answer', text: answerText(f) }),
        el('span', { text: plural(size, 'secret') }),
        el('span', { class: 'muted', text: size === 1 && child.guess === c[1][0] ? 'next ' + codes[child.guess] + ', wins' :
          'next ' + codes[child.guess] }),
      ]));
    });
  }
  function browseAnswer(text) {
    var f = parseAnswer(text), b = browseDerive();
    if (typeof f === 'string') { browseRender('“' + String(text).trim() + '”: ' + f + '.', true); return; }
    if (f === WIN) { browseRender(answerText(f) + ' wins: nothing follows it.', true); return; }
    if (!b.node.next.has(f)) { browseRender('No secret left gives ' + answerText(f) + ' to ' + codes[b.node.guess] + '.', true); return; }
    $('browse-input').value = '';
    browseGo(state.path.concat([answerText(f)]));
  }


  // ---- Race the computer ------------------------------------------------------
  // The chance figures (crates/optimoo/src/play/chance.rs has the model):
  // lengths are histograms, h[i] secrets found with i + 1 more guesses.
  function score(rule, seat, opp, d) {
    var longer = 0, equal = d >= 1 && d - 1 < opp.length ? opp[d - 1] : 0;
    for (var i = d; i < opp.length; i++) longer += opp[i];
    if (rule === 'first-wins') return seat === 'first' ? 2 * (longer + equal) : 2 * longer;
    return 2 * longer + equal;
  }
  function gcd(a, b) { while (b) { var t = a % b; a = b; b = t; } return a; }
  // The probability to win (draws 1/2) of lengths `mine` against `opp`, as [num, den] reduced.
  function raceValue(rule, seat, mine, opp) {
    var nm = 0, no = 0, scored = 0;
    mine.forEach(function (h, i) { nm += h; scored += h * score(rule, seat, opp, i + 1); });
    opp.forEach(function (h) { no += h; });
    var den = 2 * Math.max(nm, 1) * Math.max(no, 1), g = gcd(scored, den) || 1;
    return [scored / g, den / g];
  }
  function addShifted(into, lengths, by) {
    for (var i = 0; i < lengths.length; i++) into[i + by] = (into[i + by] || 0) + lengths[i];
    for (var j = 0; j < into.length; j++) into[j] = into[j] || 0;
  }
  // The splitting strategy: guess the secret left with the most answers,
  // then the smallest largest class, then the smallest code.
  function splittingLengths(set) {
    if (set.length <= 1) return [set.length];
    var best = null, seen = new Int32Array(WIN + 1);
    for (var i = 0; i < set.length; i++) {
      seen.fill(0);
      for (var j = 0; j < set.length; j++) seen[feedback(set[j], set[i])]++;
      var parts = 0, largest = 0;
      for (var f = 0; f <= WIN; f++) { if (seen[f]) parts++; if (seen[f] > largest) largest = seen[f]; }
      if (!best || parts > best[0] || (parts === best[0] && largest < best[1])) best = [parts, largest, set[i]];
    }
    var out = [1];
    split(best[2], set).forEach(function (c) { if (c[0] !== WIN) addShifted(out, splittingLengths(c[1]), 1); });
    return out;
  }
  // No strategy finds more secrets within j guesses than this histogram.
  function fastestLengths(set) {
    var m = set.length;
    if (m <= 1) return [m];
    var seen = new Uint8Array(WIN + 1), two = 0, pool = guesses();
    for (var i = 0; i < pool.length; i++) {
      seen.fill(0);
      var told = 0;
      for (var j = 0; j < m; j++) { var f = feedback(set[j], pool[i]); if (!seen[f]) { seen[f] = 1; told++; } }
      if (told > two) two = told;
    }
    var r = (K + 1) * (K + 2) / 2 - 2, found = [1, Math.min(two, m)], generic = 1 + r;
    while (found[found.length - 1] < m) {
      generic = 1 + r * generic;
      found.push(Math.max(Math.min(generic, m), found[found.length - 1]));
    }
    return found.map(function (n, k) { return n - (k ? found[k - 1] : 0); });
  }
  // The engine's lengths from `node`: over `set`, or for the one secret given.
  function engineLengths(node, set, secret) {
    if (secret === null) return subtreeHist(node, set);
    var n = node, d = 0;
    while (n) { d++; var f = feedback(secret, n.guess); if (f === WIN) break; n = n.next.get(f); }
    var h = []; for (var i = 0; i < d; i++) h.push(i === d - 1 ? 1 : 0);
    return h;
  }
  var chanceCache = new Map();
  function chanceOf(rule, seat, node, eset, pset, secret, key) {
    if (chanceCache.has(key)) return chanceCache.get(key);
    var engine = engineLengths(node, eset, secret);
    var c = { low: raceValue(rule, seat, splittingLengths(pset), engine), high: raceValue(rule, seat, fastestLengths(pset), engine) };
    c.exact = c.low[0] === c.high[0] && c.low[1] === c.high[1];
    chanceCache.set(key, c);
    return c;
  }
  function pct(r) { return (100 * r[0] / r[1]).toFixed(1) + '%'; }
  function frac(r) { return r[1] === 1 ? String(r[0]) : r[0] + '/' + r[1]; }
  function fraction(text) { var m = /^(\d+)(?:\/(\d+))?$/.exec(text || ''); return m ? Number(m[1]) / Number(m[2] || 1) : 0; }
  function decodeDuelTree(list) {
    var at = 0;
    function node(set, depth) {
      if (depth > 64) throw new Error('a duel tree too deep');
      var g;
      if (set.length === 1) {
        if (at < list.length && list[at] >= L) g = list[at++] - L;
        else return { guess: set[0], next: new Map() };
      } else {
        if (at >= list.length || list[at] >= L) throw new Error('a duel tree ends early');
        g = list[at++];
      }
      var n = { guess: g, next: new Map() };
      split(g, set).forEach(function (c) { if (c[0] !== WIN) n.next.set(c[0], node(c[1], depth + 1)); });
      return n;
    }
    var r = node(secrets(), 1);
    if (at !== list.length) throw new Error('a duel tree runs on');
    return r;
  }
  var duelTrees = {};
  function duelTree(i) {
    var key = DATA.game + '#' + i;
    return duelTrees[key] || (duelTrees[key] = decodeDuelTree(DATA.duel_trees[i]));
  }
  function equilibrium(rule) {
    var list = DATA.duel || [];
    for (var i = 0; i < list.length; i++) if (list[i].rule === rule) return list[i];
    return null;
  }
  var duel = {};
  function duelDerive() {
    var d = { eq: equilibrium(state.drule), started: state.dseed !== null, rounds: [], mine: [], theirs: [], order: [], error: '' };
    duel = d;
    if (!d.eq || !d.started) return;
    d.rule = state.drule; d.seat = state.dseat;
    var rng = seeded(state.dseed);
    d.secret = SECRETS[Math.floor(rng() * S)];
    var mixture = d.seat === 'first' ? d.eq.second : d.eq.first, x = rng(), total = 0, acc = 0;
    mixture.forEach(function (m) { total += fraction(m.weight); });
    d.pick = mixture.length - 1;
    for (var i = 0; i < mixture.length; i++) { acc += fraction(mixture[i].weight); if (x * total < acc) { d.pick = i; break; } }
    d.treeIndex = mixture[d.pick].tree;
    d.mySecret = null;
    if (state.dsecret) {
      var c = parseCode(state.dsecret);
      if (typeof c === 'number' && isSecret[c]) d.mySecret = c;
      else { d.error = 'Your secret “' + state.dsecret + '”: ' + (typeof c === 'number' ? 'not a secret of this game' : c) + '; you answer yourself.'; state.dsecret = null; }
    }
    var node = duelTree(d.treeIndex), eset = secrets(), pset = secrets(), mi = 0, ti = 0;
    var person = d.seat === 'first' ? 0 : 1, cracked = [0, 0];
    d.rounds.push({ node: node, eset: eset, pset: pset });
    for (var round = 1; !d.over; round++) {
      for (var seat = 0; seat < 2; seat++) {
        if (cracked[0] && (d.rule === 'first-wins' || seat === 0)) break;
        if (seat === person) {
          if (mi >= state.dmine.length) { d.waiting = 'mine'; break; }
          var g = parseGuess(state.dmine[mi]);
          if (typeof g === 'string' || d.mine.some(function (mv) { return mv[0] === g; })) { state.dmine = state.dmine.slice(0, mi); d.waiting = 'mine'; break; }
          var f = feedback(d.secret, g);
          d.mine.push([g, f]); d.order.push('mine'); mi++;
          pset = filter(pset, g, f);
          if (f === WIN) cracked[seat] = round;
        } else {
          var a;
          if (d.mySecret !== null) a = feedback(d.mySecret, node.guess);
          else if (ti < state.dtheirs.length) a = parseAnswer(state.dtheirs[ti]);
          else { d.waiting = 'theirs'; break; }
          var left = typeof a === 'string' ? [] : filter(eset, node.guess, a);
          if (!left.length) { state.dtheirs = state.dtheirs.slice(0, ti); d.waiting = 'theirs'; break; }
          d.theirs.push([node.guess, a]); d.order.push('theirs'); ti++;
          eset = left;
          if (a === WIN) cracked[seat] = round; else node = node.next.get(a);
        }
      }
      if (d.waiting) break;
      if (cracked[0] || cracked[1]) {
        d.over = true; d.round = round;
        d.outcome = cracked[person] && cracked[1 - person] ? 'drawn' : cracked[person] ? 'won' : 'lost';
      } else d.rounds.push({ node: node, eset: eset, pset: pset });
    }
    if (d.mySecret === null) state.dtheirs = state.dtheirs.slice(0, ti);
    else state.dtheirs = [];
    state.dmine = state.dmine.slice(0, mi);
    d.node = node; d.eset = eset; d.pset = pset;
  }
  function duelChanceText(c, by) {
    return c.exact ? pct(c.low) + ' (exactly ' + frac(c.low) + ')' :
      'at least ' + pct(c.low) + ', at most ' + pct(c.high) + (by ? '' : '');
  }
  function duelRender(msg, error) {
    var d = duel;
    $('duel-none').hidden = !!(DATA.duel && DATA.duel.length);
    if (!DATA.duel || !DATA.duel.length) {
      $('duel-none').textContent = 'No equilibrium of the race is shipped for this game: pick Bulls and Cows (4 digits) or Mastermind (4 pegs, 6 colours).';
      $('duel-setup').hidden = true; $('duel-game').hidden = true; $('duel-rules').hidden = true;
      return;
    }
    $('duel-rules').hidden = false;
    clear($('duel-rules')).appendChild(el('p', {}, [el('strong', { text: 'The race. ' }),
      'You and the computer each hide a secret (' + rulesText(false).what.replace(/^The secret is /, '').replace(/\.$/, '') +
      ') and guess in turn; each sees only the answers to their own guesses; the first to crack the other’s secret wins. ' +
      'The computer plays a strategy of the race’s equilibrium, proved: no strategy wins more often against it.']));
    $('duel-setup').hidden = d.started;
    $('duel-game').hidden = !d.started;
    if (!d.started) { renderStats(); return; }
    var person = d.seat, yourTurn = d.waiting === 'mine';
    var turn = $('duel-turn');
    var rnd = d.rounds.length;
    if (d.over) {
      turn.textContent = (d.outcome === 'won' ? 'You win' : d.outcome === 'lost' ? 'The computer wins' : 'A draw: both cracked it in the same round') +
        ' (round ' + d.round + '). The computer’s secret was ' + codes[d.secret] + '.';
      turn.className = 'message ' + (d.outcome === 'won' ? 'success' : 'over');
      turn.setAttribute('data-outcome', d.outcome);
    } else {
      turn.removeAttribute('data-outcome');
      turn.className = 'message';
      turn.textContent = 'Round ' + rnd + ' (' + (d.rule === 'first-wins' ? 'first to crack wins' : 'equal turns') + ', ' +
        (person === 'first' ? 'you guess first' : 'the computer guesses first') + '): ' +
        (yourTurn ? 'your guess.' : 'the computer guesses ' + codes[d.node.guess] + ': answer it.');
    }
    $('duel-form').hidden = !!d.over;
    $('duel-submit').textContent = yourTurn ? 'Guess' : 'Answer';
    $('duel-input').setAttribute('aria-label', yourTurn ? 'your guess' : 'your answer to ' + (d.node ? codes[d.node.guess] : '') + ', as 1A2B or 1 2');
    $('duel-input').placeholder = yourTurn ? '' : '1A2B';
    var answers = clear($('duel-answers'));
    if (!d.over && !yourTurn) {
      var given = new Set(split(d.node.guess, d.eset).map(function (c) { return c[0]; }));
      split(d.node.guess, all()).forEach(function (c) {
        var f = c[0], possible = given.has(f);
        answers.appendChild(el('button', { type: 'button', 'data-answer': answerText(f),
          class: 'answer-btn' + (possible ? '' : ' unlikely') + (f === WIN ? ' win' : ''),
          title: possible ? 'Answer ' + answerText(f) : 'No secret still possible gives ' + answerText(f) + ': an earlier answer would be wrong',
          onclick: function () { duelAnswer(f); }, text: answerText(f) }));
      });
    }
    var m = $('duel-message');
    m.textContent = msg || d.error || '';
    m.className = 'message' + (error || (d.error && !msg) ? ' error' : '');
    var hm = clear($('duel-mine')), ht = clear($('duel-theirs'));
    d.mine.forEach(function (mv, i) { hm.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    d.theirs.forEach(function (mv, i) { ht.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    $('duel-mine-left').textContent = plural(d.pset.length, 'secret') + ' of the computer’s still possible.';
    $('duel-theirs-left').textContent = plural(d.eset.length, 'secret') + ' of yours still possible for the computer' +
      (d.mySecret !== null ? ' (yours: ' + codes[d.mySecret] + '; the page answers for you)' : '') + '.';
    // The chance after each complete round.
    var list = clear($('duel-chances')), v = fraction(d.eq.value), start = person === 'first' ? v : 1 - v;
    list.appendChild(el('li', { 'data-round': '0' }, ['Before the race: ' + (100 * start).toFixed(1) +
      '% (the race’s exact value for your seat, ' + (person === 'first' ? d.eq.value : '1 − ' + d.eq.value) + ': what your best play wins against the computer’s strategy, over every secret).']));
    var last = null;
    for (var r = 1; r < d.rounds.length; r++) {
      var s = d.rounds[r], key = [DATA.game, d.rule, d.seat, d.treeIndex, d.mySecret, d.mine.slice(0, r).join(';'), d.theirs.slice(0, r).join(';')].join('|');
      last = chanceOf(d.rule, d.seat, s.node, s.eset, s.pset, d.mySecret, key);
      list.appendChild(el('li', { 'data-round': String(r), 'data-low': frac(last.low), 'data-high': frac(last.high) },
        ['After round ' + r + ': ' + duelChanceText(last)]));
    }
    var now = $('duel-chance');
    now.removeAttribute('data-server');
    if (d.over) now.textContent = d.outcome === 'won' ? 'You won.' : d.outcome === 'lost' ? 'You lost.' : 'A draw.';
    else if (last) {
      now.textContent = 'Now: ' + duelChanceText(last) + ' (computed in this page).';
      if (SERVED) duelServerChance(d, last);
    } else now.textContent = 'Now: ' + (100 * start).toFixed(1) + '%, the race’s value for your seat.';
    $('duel-model').textContent = 'How the chance is computed: the computer goes on with its strategy, from the guesses it made, over ' +
      (d.mySecret !== null ? 'your secret' : 'every secret of yours your answers leave, each equally likely') +
      '; its secret is equally likely to be any your answers leave. “At least” is what you win if from now on you always guess, among the secrets left, ' +
      'the one that splits them into the most answers; “at most” is what no play beats (one secret found by your next guess, then at most as many as the answers tell apart). ' +
      'When both are equal the chance is exact. Draws count half.';
    $('duel-undo').disabled = !!d.over || d.order.length === 0 || (d.mySecret !== null && d.mine.length === 0);
    renderStats();
  }
  // The chance after the last complete round, asked of the server.
  function duelServerChance(d, local) {
    var r = d.rounds.length - 1;
    var q = 'game=' + encodeURIComponent(DATA.game) + '&rule=' + d.rule + '&seat=' + d.seat + '&pick=' + d.pick +
      '&mine=' + encodeURIComponent(historyParam(d.mine.slice(0, r))) + '&theirs=' + encodeURIComponent(historyParam(d.theirs.slice(0, r))) +
      (d.mySecret !== null ? '&secret=' + encodeURIComponent(codes[d.mySecret]) : '');
    fetch('/api/duel?' + q).then(function (r) { return r.json().then(function (b) { if (!r.ok) throw new Error(b.error || r.status); return b; }); })
      .then(function (b) {
        if (duel !== d) return;
        var now = $('duel-chance');
        var c = { low: b.low.split('/').map(Number), high: b.high.split('/').map(Number), exact: b.exact };
        if (c.low.length === 1) c.low.push(1);
        if (c.high.length === 1) c.high.push(1);
        now.textContent = 'Now: ' + duelChanceText(c) + ' (computed by optimoo serve' +
          (frac(c.low) === frac(local.low) && frac(c.high) === frac(local.high) ? ', as this page computes it' : '') + ').';
        now.setAttribute('data-server', b.low + ' ' + b.high);
      }).catch(function (e) { /* the page's own figures stay */ });
  }
  function duelFinish() {
    if (duel.over) recordDuel(duel.outcome);
  }
  function duelGuess(text) {
    var d = duel, g = parseGuess(text);
    if (typeof g === 'string') { duelRender('“' + String(text).trim() + '”: ' + g + '.', true); return; }
    if (d.mine.some(function (mv) { return mv[0] === g; })) { duelRender('You already guessed ' + codes[g] + ': try another.', true); return; }
    state.dmine = state.dmine.concat([codes[g]]);
    duelStep();
  }
  function duelAnswer(f) {
    var d = duel;
    if (d.over || d.waiting !== 'theirs') return;
    if (!filter(d.eset, d.node.guess, f).length) {
      duelRender('No secret gives ' + answerText(f) + ' to ' + codes[d.node.guess] +
        (d.theirs.length ? ' after your earlier answers: one of them is wrong. Check them, or undo.' : '.'), true);
      return;
    }
    state.dtheirs = state.dtheirs.concat([answerText(f)]);
    duelStep();
  }
  function duelStep() {
    duelDerive(); commit(true); $('duel-input').value = ''; duelFinish(); duelRender('');
  }
  function duelSubmit(text) {
    if (duel.over) return;
    if (duel.waiting === 'mine') { duelGuess(text); return; }
    var f = parseAnswer(text);
    if (typeof f === 'string') { duelRender('“' + String(text).trim() + '”: ' + f + '.', true); return; }
    duelAnswer(f);
  }
  function duelUndo() {
    var d = duel;
    if (d.over || !d.order.length) return;
    // The last thing you did: a guess, or an answer (answers the page gave for you are not yours to undo).
    var lastMine = d.order.lastIndexOf('mine');
    if (d.mySecret !== null || d.order[d.order.length - 1] === 'mine') {
      if (lastMine < 0) return;
      state.dmine = state.dmine.slice(0, -1);
    } else state.dtheirs = state.dtheirs.slice(0, -1);
    duelStep();
  }
  function duelStart() {
    var rule = document.querySelector('input[name=duel-rule]:checked'), seat = document.querySelector('input[name=duel-seat]:checked');
    var secret = $('duel-secret').value.trim();
    if (secret) {
      var c = parseCode(secret);
      if (typeof c === 'string' || !isSecret[c]) { $('duel-setup-message').textContent = 'Your secret “' + secret + '”: ' + (typeof c === 'string' ? c : 'not a secret of this game') + '.'; return; }
    }
    state.drule = rule ? rule.value : 'first-wins'; state.dseat = seat ? seat.value : 'first';
    state.dseed = freshSeed(); state.dsecret = secret || null; state.dmine = []; state.dtheirs = [];
    $('duel-setup-message').textContent = '';
    duelStep();
    $('duel-input').focus({ preventScroll: true });
  }
  function duelNew() {
    state.dseed = null; state.dsecret = null; state.dmine = []; state.dtheirs = [];
    $('duel-secret').value = '';
    duelStep();
  }

  // ---- tabs, the picker, start-up ------------------------------------------------------
  var MODES = ['play', 'guess', 'browse', 'duel'];
  function show(mode, focus) {
    MODES.forEach(function (m) {
      var tab = $('tab-' + m);
      $(m).hidden = m !== mode;
      tab.setAttribute('aria-selected', String(m === mode));
      tab.tabIndex = m === mode ? 0 : -1;
    });
    if (focus) $('tab-' + mode).focus();
    else if (mode === 'play' && !play.done) $('play-input').focus({ preventScroll: true });
  }
  function setMode(mode, focus) {
    state.mode = mode;
    commit(false);
    show(mode, focus);
  }
  MODES.forEach(function (m, i) {
    var tab = $('tab-' + m);
    tab.addEventListener('click', function () { setMode(m); });
    tab.addEventListener('keydown', function (e) {
      var to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: MODES.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      setMode(MODES[(to + MODES.length) % MODES.length], true);
    });
  });

  function renderGame() {
    useGame(state.game);
    document.title = DATA.label + ' · optimoo';
    $('title').textContent = DATA.label;
    $('game-picker').value = String(state.game);
    var hist = ROOTHIST, total = histTotal(hist);
    $('caption').textContent = (DATA.optimal ? 'The computer plays a strategy proved the best on average: ' :
      'The computer plays a good strategy, not proved the best: ') + fmt(total / S) + ' guesses on average, never more than ' +
      hist.length + ', over ' + plural(S, 'secret') + '.';
    $('footer-note').textContent = 'Technical name of this game’s strategy: ' + DATA.caption + '.';
    var keys = clear($('play-keys'));
    for (var s = 0; s < N; s++) {
      (function (ch) {
        keys.appendChild(el('button', { type: 'button', class: 'key', text: ch, onclick: function () {
          var inp = $('play-input');
          if (Array.from(inp.value).length < K) inp.value += ch;
        } }));
      })(ALPHABET[s]);
    }
    keys.appendChild(el('button', { type: 'button', class: 'key wide', text: '⌫', 'aria-label': 'delete',
      onclick: function () { var inp = $('play-input'); inp.value = Array.from(inp.value).slice(0, -1).join(''); } }));
    playDerive();
    guessDerive();
    commit(false);
    playRender('');
    if (play.done) playReview(); else $('play-review').hidden = true;
    guessRender('');
    browseRender();
    duelDerive();
    commit(false);
    duelRender('');
    show(state.mode);
  }
  function loadAddress() {
    state = readAddress();
    renderGame();
  }

  var picker = $('game-picker');
  ALL.games.forEach(function (g, i) { picker.appendChild(el('option', { value: String(i), text: g.label })); });
  $('picker-box').hidden = ALL.games.length < 2;
  picker.addEventListener('change', function () {
    state = { game: Number(picker.value), mode: state.mode, seed: freshSeed(), secret: null, moves: [], gaveup: false, answers: [], path: [],
      drule: state.drule, dseat: state.dseat, dseed: null, dsecret: null, dmine: [], dtheirs: [] };
    commit(true);
    renderGame();
  });
  // Enter after the on-screen keys submits the guess.
  $('play-keys').addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); playGuess($('play-input').value); }
  });
  $('play-form').addEventListener('submit', function (e) { e.preventDefault(); playGuess($('play-input').value); });
  $('play-hint').addEventListener('click', playHint);
  $('play-undo').addEventListener('click', playUndo);
  $('play-new').addEventListener('click', function () {
    if (play.moves.length && !play.done) askFirst('Drop this game and draw a new secret?', 'Yes, new secret', playNew);
    else playNew();
  });
  $('play-confirm-no').addEventListener('click', function () { $('play-confirm').hidden = true; $('play-new').focus(); });
  $('play-reveal').addEventListener('click', function () {
    if (play.done) return;
    askFirst('Give up and see the secret? The game counts as lost.', 'Yes, show it', playReveal);
  });
  $('play-share').addEventListener('click', playShare);
  $('stats-clear').addEventListener('click', function () {
    askFirst('Clear your statistics of every game in this browser?', 'Yes, clear them', function () {
      try { localStorage.removeItem(STATS_KEY); } catch (e) { /* nothing kept */ }
      renderStats();
    });
  });
  $('guess-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var f = parseAnswer($('guess-input').value);
    if (typeof f === 'string') { guessRender('“' + $('guess-input').value.trim() + '”: ' + f + '.', true); return; }
    guessAnswer(f);
  });
  $('guess-undo').addEventListener('click', function () {
    state.answers = state.answers.slice(0, -1); guessDerive(); commit(true); guessRender('');
  });
  $('guess-restart').addEventListener('click', function () {
    state.answers = []; guessDerive(); commit(true); guessRender('');
  });
  $('duel-setup').addEventListener('submit', function (e) { e.preventDefault(); duelStart(); });
  $('duel-form').addEventListener('submit', function (e) { e.preventDefault(); duelSubmit($('duel-input').value); });
  $('duel-undo').addEventListener('click', duelUndo);
  $('duel-new').addEventListener('click', function () {
    // Mid-race, a second click drops it.
    if (duel.started && !duel.over && duel.order.length && !duel.armed) {
      duel.armed = true;
      duelRender('Click “New race” again to drop this race.', true);
      return;
    }
    duelNew();
  });
  $('browse-form').addEventListener('submit', function (e) { e.preventDefault(); browseAnswer($('browse-input').value); });
  $('browse-undo').addEventListener('click', function () { browseGo(state.path.slice(0, -1)); });
  window.addEventListener('popstate', loadAddress);
  window.addEventListener('hashchange', function () { if (addressOf(state) !== location.hash) loadAddress(); });

  loadAddress();

  // For the browser test (tests/browser) and the curious: the page's own rule.
  window.optimooPage = {
    get game() { return DATA.game; },
    get codes() { return codes; },
    get secrets() { return SECRETS.map(function (c) { return codes[c]; }); },
    get guessesRestricted() { return RESTRICTED; },
    served: SERVED,
    feedback: function (secret, guess) { return answerText(feedback(index.get(secret), index.get(guess))); },
    parseAnswer: function (text) { var f = parseAnswer(text); return typeof f === 'string' ? f : answerText(f); },
    duel: function () {
      return duel.started ? { secret: codes[duel.secret], pick: duel.pick, tree: duel.treeIndex, over: !!duel.over, outcome: duel.outcome || null,
        waiting: duel.waiting || null, next: duel.node && !duel.over ? codes[duel.node.guess] : null,
        mine: duel.mine.map(function (mv) { return codes[mv[0]] + ':' + answerText(mv[1]); }),
        theirs: duel.theirs.map(function (mv) { return codes[mv[0]] + ':' + answerText(mv[1]); }) } : null;
    },
    classes: function (guess, history) {
      var set = secrets();
      (history || []).forEach(function (m) {
        var ba = /^(\d+)A(\d+)B$/.exec(m[1]);
        set = filter(set, index.get(m[0]), Number(ba[1]) * (K + 1) + Number(ba[2]));
      });
      var out = {};
      split(index.get(guess), set).forEach(function (c) { out[answerText(c[0])] = c[1].length; });
      return out;
    },
  };
  document.body.setAttribute('data-ready', 'true');
})();
