// optimoo's page: play, let the tree guess, browse the tree.
//
// Invariants (crates/optimoo/src/tree/html.rs has the data layout):
// - codes are numbered in lexicographic order of their symbols, the
//   numbering of the tree data; a moo game has only codes of distinct
//   symbols; symbol i is written 0-9 then a-z, or with a word list's
//   alphabet (DATA.secrets.alphabet) as its i-th letter;
// - the secrets are DATA.secrets.codes when the tree plays a list, else
//   every code: secrets are drawn, counted and listed from them only; with
//   guesses "secrets" only they may be guessed;
// - an answer is packed as bulls * (k + 1) + cows, as in the data;
// - feedback: bulls = positions that agree; cows = for each symbol, the
//   smaller of its counts in the two codes, summed, less the bulls (the
//   Mastermind rule, which is the bulls-and-cows rule when no symbol repeats);
// - the page loads nothing and sends nothing: everything is computed here.
// - nothing shown as exact is a heuristic: exact values come from the tree
//   (its subtree's total guesses divided by the secrets left), the quick
//   score is labelled as such.
(function () {
  'use strict';
  var DATA = JSON.parse(document.getElementById('tree-data').textContent);
  var K = DATA.positions, N = DATA.symbols, REPEATS = DATA.repeats;
  var LIST = DATA.secrets || null;
  var WORDS = !!(LIST && LIST.alphabet);
  // The letters of symbols 0..N-1 (code points: a letter may be any one).
  var ALPHABET = WORDS ? Array.from(LIST.alphabet) : Array.from('0123456789abcdefghijklmnopqrstuvwxyz');
  var RESTRICTED = !!(LIST && LIST.guesses === 'secrets');
  var WIN = K * (K + 1);
  // The quick score looks at most this many (guess, secret) pairs per hint.
  var QUICK_BUDGET = 4000000;

  // ---- codes -------------------------------------------------------------
  var codes = [];          // text of each code
  var index = new Map();   // text -> number
  var symbolRows = [];     // the symbols of each code
  (function enumerate(prefix, used) {
    if (prefix.length === K) {
      var text = prefix.map(function (s) { return ALPHABET[s]; }).join('');
      index.set(text, codes.length);
      codes.push(text);
      symbolRows.push(prefix.slice());
      return;
    }
    for (var s = 0; s < N; s++) {
      if (!REPEATS && used[s]) continue;
      used[s] = true;
      prefix.push(s);
      enumerate(prefix, used);
      prefix.pop();
      used[s] = false;
    }
  })([], []);
  var L = codes.length;
  var syms = new Uint8Array(L * K);   // symbol at each position
  var counts = new Uint8Array(L * N); // how often each symbol occurs
  symbolRows.forEach(function (row, i) {
    for (var p = 0; p < K; p++) {
      syms[i * K + p] = row[p];
      counts[i * N + row[p]]++;
    }
  });
  symbolRows = null;
  // The secrets (sorted code numbers) and the guesses allowed.
  var SECRETS = LIST ? LIST.codes.slice() : null;
  if (!SECRETS) { SECRETS = new Array(L); for (var i0 = 0; i0 < L; i0++) SECRETS[i0] = i0; }
  var S = SECRETS.length;
  var isSecret = new Uint8Array(L);
  SECRETS.forEach(function (c) { isSecret[c] = 1; });
  var GUESSES = RESTRICTED ? SECRETS : null; // null: every code
  var G = RESTRICTED ? S : L;
  var CODE = WORDS ? 'word' : 'code', SYMBOL = WORDS ? 'letter' : 'symbol';

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
  function answerText(f) { return Math.floor(f / (K + 1)) + 'A' + (f % (K + 1)) + 'B'; }
  function all() { var a = new Array(L); for (var i = 0; i < L; i++) a[i] = i; return a; }
  // Every secret (a copy: callers may keep it).
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
  // The symbol a typed character writes: itself, else its lower case (as
  // the optimoo commands read codes and words), or -1.
  function symbolOf(ch) {
    var s = ALPHABET.indexOf(ch);
    if (s < 0) s = ALPHABET.indexOf(ch.toLowerCase());
    return s < N ? s : -1;
  }
  // Reads a code typed by a person; returns its number or an error text.
  function parseCode(text) {
    var t = Array.from(text.trim());
    if (t.length !== K) return 'a ' + CODE + ' has ' + K + ' ' + SYMBOL + 's';
    var word = '';
    for (var p = 0; p < K; p++) {
      var s = symbolOf(t[p]);
      if (s < 0) return '“' + t[p] + '” is not a ' + SYMBOL + ' of this game (' + symbolRange() + ')';
      word += ALPHABET[s];
    }
    if (!index.has(word)) return 'no ' + SYMBOL + ' may repeat in ' + DATA.game;
    return index.get(word);
  }
  // A guess typed by a person: its number, or an error text (a code the
  // game does not allow as a guess is refused).
  function parseGuess(text) {
    var g = parseCode(text);
    if (typeof g === 'number' && RESTRICTED && !isSecret[g]) {
      return 'not one of the ' + S + ' listed ' + CODE + 's, and only they may be guessed';
    }
    return g;
  }
  function symbolRange() { return WORDS ? ALPHABET.slice(0, N).join(' ') : ALPHABET[0] + '–' + ALPHABET[N - 1]; }
  // What the secret is, for the intro texts.
  function secretKind() {
    var what = K + ' ' + SYMBOL + 's ' + (WORDS ? 'of ' : '') + symbolRange() +
      (REPEATS ? ', repeats allowed' : ', all different');
    if (!LIST) return what;
    return what + ', one of the ' + S + ' ' + CODE + 's of the list ' + (LIST.name || '') +
      (RESTRICTED ? ' (only they may be guessed)' : '');
  }

  // ---- the tree ----------------------------------------------------------
  var root = (function decode(flat) {
    var at = 0;
    function node() {
      var n = { guess: flat[at], next: new Map() }, kids = flat[at + 1];
      at += 2;
      for (var i = 0; i < kids; i++) { var f = flat[at++]; n.next.set(f, node()); }
      return n;
    }
    var r = node();
    if (at !== flat.length) throw new Error('the tree data runs on');
    return r;
  })(DATA.tree);

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
  function histTotal(hist) {
    return hist.reduce(function (t, h, d) { return t + h * (d + 1); }, 0);
  }
  // The guesses the tree plays against `secret`.
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

  // ---- quick score (not exact) ---------------------------------------------
  // The rank-style row of a guess over the secrets left.
  function row(guess, set) {
    var sizes = new Map(), largest = 0;
    set.forEach(function (s) {
      var f = feedback(s, guess), n = (sizes.get(f) || 0) + 1;
      sizes.set(f, n);
      if (n > largest) largest = n;
    });
    return { guess: guess, candidate: set.indexOf(guess) >= 0, classes: sizes.size, largest: largest };
  }
  // Knuth's minimax order: smaller largest class, then more classes, then a
  // guess that can win, then code order. A heuristic, never exact.
  function quickOrder(a, b) {
    return a.largest - b.largest || b.classes - a.classes ||
      (b.candidate ? 1 : 0) - (a.candidate ? 1 : 0) || a.guess - b.guess;
  }
  // The guesses the quick score looks at: every allowed guess if the budget
  // allows, else the secrets left (as many as the budget allows).
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
  function histBars(target, hist, firstGuess) {
    clear(target);
    var max = Math.max.apply(null, hist.concat([1]));
    hist.forEach(function (h, d) {
      var bar = el('span', { class: 'bar' });
      bar.style.width = (100 * h / max).toFixed(1) + '%';
      target.appendChild(el('div', { class: 'hrow' }, [
        el('span', { class: 'hlabel', text: 'guess ' + (firstGuess + d) }),
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

  // ---- URL parameters: #mode=play&secret=0123, #seed=7 --------------------
  var params = new URLSearchParams((location.hash || '').replace(/^#/, '') || location.search.replace(/^\?/, ''));
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
  var random = params.has('seed') ? seeded(Number(params.get('seed')) || 0) : Math.random;

  // ---- Play ------------------------------------------------------------------
  var play = {};
  function playNew(secret) {
    play.secret = secret !== undefined ? secret : SECRETS[Math.floor(random() * S)];
    play.moves = [];
    play.node = root;      // null once the player leaves the tree
    play.set = secrets();  // secrets still possible
    play.done = false;
    $('play-input').value = '';
    $('play-input').disabled = false;
    $('play-submit').disabled = false;
    playRender('');
  }
  function playGuess(text) {
    if (play.done) return;
    var g = parseGuess(text);
    if (typeof g === 'string') { playRender('“' + text.trim() + '”: ' + g + '.', true); return; }
    var f = feedback(play.secret, g);
    play.moves.push([g, f]);
    play.set = filter(play.set, g, f);
    play.node = play.node && play.node.guess === g ? play.node.next.get(f) || null : null;
    $('play-input').value = '';
    var msg = '';
    if (f === WIN) {
      play.done = true;
      var tree = treeGame(play.secret).length, n = play.moves.length;
      msg = 'Solved in ' + plural(n, 'guess') + '! ' +
        'The tree needs ' + tree + ' for this secret.';
      $('play-input').disabled = true;
      $('play-submit').disabled = true;
    }
    playRender(msg);
  }
  function playRender(msg, error) {
    $('play-intro').textContent = 'Find the secret ' + CODE + ': ' + secretKind() + '.';
    var m = $('play-message');
    m.textContent = msg || (play.done ? '' : plural(play.set.length, 'secret') + ' still possible.');
    m.className = 'message' + (error ? ' error' : play.done ? ' success' : '');
    var h = clear($('play-history'));
    play.moves.forEach(function (mv, i) { h.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    $('play-hints').hidden = true;
    $('play-hint').disabled = play.done;
  }
  function playHint() {
    if (play.done) return;
    var box = clear($('play-hints'));
    box.hidden = false;
    var set = play.set, best, exact = null;
    if (play.node) {
      best = play.node.guess;
      var total = histTotal(subtreeHist(play.node, set));
      exact = total / set.length;
      box.appendChild(el('p', {}, [
        'The tree plays ', el('span', { class: 'code', id: 'hint-guess', text: codes[best] }), '. ',
        'Following the tree from here takes ' + fmt(exact) + ' guesses on average (' + total + ' over ' +
        plural(set.length, 'secret') + ', this guess included): exact' +
        (DATA.optimal ? ', and optimal.' : ' for this tree, which is not proved optimal.'),
      ]));
    } else {
      var q = quickRank(set, 1)[0];
      best = q.guess;
      box.appendChild(el('p', {}, [
        'You left the tree, so this is the quick score’s choice, not exact: ',
        el('span', { class: 'code', id: 'hint-guess', text: codes[best] }), '.',
      ]));
    }
    box.appendChild(el('button', { type: 'button', id: 'hint-use', class: 'primary',
      onclick: function () { playGuess(codes[best]); }, text: 'Play ' + codes[best] }));
    var rows = quickRank(set, 6);
    if (play.node && !rows.some(function (r) { return r.guess === best; })) rows.unshift(row(best, set));
    else if (play.node) rows.sort(function (a, b) { return (b.guess === best) - (a.guess === best); });
    var table = el('table', { class: 'rank' }, [el('thead', {}, [el('tr', {}, [
      el('th', { text: 'guess' }), el('th', { text: 'can win' }), el('th', { text: 'classes' }),
      el('th', { text: 'largest' }), el('th', { text: 'value' })])])]);
    var body = el('tbody');
    rows.forEach(function (r) {
      var value = r.guess === best && exact !== null ? fmt(exact) : '—';
      body.appendChild(el('tr', r.guess === best ? { class: 'best' } : {}, [
        el('td', { class: 'code', text: codes[r.guess] }), el('td', { text: r.candidate ? 'yes' : 'no' }),
        el('td', { text: String(r.classes) }), el('td', { text: String(r.largest) }),
        el('td', { text: value })]));
    });
    table.appendChild(body);
    box.appendChild(el('div', { class: 'scroll' }, [table]));
    box.appendChild(el('p', { class: 'muted small', text:
      'Rows: ' + (play.node ? 'the tree’s move, then ' : '') + 'the best by a quick score ' +
      '(smallest largest class, then most classes, then a guess that can win; over ' +
      (G * set.length <= QUICK_BUDGET ? (RESTRICTED ? 'every listed ' + CODE : 'every code') : 'some of the secrets left') + '). ' +
      'Value: expected guesses still needed, this one included, exact only where the tree gives it; ' +
      '— where only the quick score is known.' }));
  }

  // ---- Tree guesses your secret ---------------------------------------------
  var tg = {};
  function guessRestart() { tg.moves = []; guessRender(''); }
  function guessState() {
    var n = root, set = secrets();
    for (var i = 0; i < tg.moves.length; i++) {
      var m = tg.moves[i];
      set = filter(set, m[0], m[1]);
      n = m[1] === WIN ? null : n.next.get(m[1]);
    }
    return { node: n, set: set };
  }
  function guessAnswer(f) {
    var st = guessState();
    if (!st.node) return;
    var left = filter(st.set, st.node.guess, f);
    if (left.length === 0) {
      guessRender('No secret gives ' + answerText(f) + ' to ' + codes[st.node.guess] +
        (tg.moves.length ? ' after your earlier answers: one of them is wrong. Check them, or undo.' : '.'), true);
      return;
    }
    tg.moves.push([st.node.guess, f]);
    guessRender('');
  }
  function guessRender(msg, error) {
    var st = guessState(), won = tg.moves.length && tg.moves[tg.moves.length - 1][1] === WIN;
    $('guess-intro').textContent = 'Think of a ' + CODE + ' of ' + secretKind() + '. Click the answer to each guess.';
    var m = $('guess-message');
    var answers = clear($('guess-answers'));
    if (won) {
      var last = tg.moves[tg.moves.length - 1][0];
      $('guess-number').textContent = 'Your secret is';
      $('guess-code').textContent = codes[last];
      $('guess-left').textContent = '';
      m.textContent = 'Found in ' + plural(tg.moves.length, 'guess') + '.';
      m.className = 'message success';
    } else {
      var g = st.node.guess;
      $('guess-number').textContent = 'Guess ' + (tg.moves.length + 1) + ':';
      $('guess-code').textContent = codes[g];
      $('guess-left').textContent = plural(st.set.length, 'secret') + ' still possible.';
      // Every answer this guess can get in the game; those no secret left gives
      // are dimmed (clicking one reports the contradiction). With a list,
      // only the answers some secret left gives.
      var given = new Set(split(g, st.set).map(function (c) { return c[0]; }));
      split(g, LIST ? st.set : all()).forEach(function (c) {
        var f = c[0];
        answers.appendChild(el('button', { type: 'button', 'data-answer': answerText(f),
          class: 'answer-btn' + (given.has(f) ? '' : ' unlikely') + (f === WIN ? ' win' : ''),
          onclick: function () { guessAnswer(f); }, text: answerText(f) }));
      });
      m.textContent = msg;
      m.className = 'message' + (error ? ' error' : '');
    }
    var h = clear($('guess-history'));
    tg.moves.forEach(function (mv, i) { h.appendChild(historyItem(i + 1, mv[0], mv[1])); });
    $('guess-undo').disabled = tg.moves.length === 0;
  }

  // ---- Browse ------------------------------------------------------------------
  var path = []; // answers from the root
  function browseRender() {
    var n = root, set = secrets(), steps = [];
    path.forEach(function (f) {
      steps.push([n.guess, f]);
      set = filter(set, n.guess, f);
      n = n.next.get(f);
    });
    var crumbs = clear($('browse-crumbs'));
    crumbs.appendChild(el('button', { type: 'button', class: 'crumb', onclick: function () { path = []; browseRender(); },
      text: 'Start' }));
    steps.forEach(function (s, i) {
      crumbs.appendChild(el('span', { class: 'sep', text: '›' }));
      crumbs.appendChild(el('button', { type: 'button', class: 'crumb',
        onclick: function () { path = path.slice(0, i + 1); browseRender(); },
        text: codes[s[0]] + ' ' + answerText(s[1]) }));
    });
    var depth = steps.length + 1;
    $('browse-number').textContent = 'Guess ' + depth + ':';
    $('browse-code').textContent = codes[n.guess];
    var cand = set.indexOf(n.guess) >= 0;
    $('browse-cand').textContent = cand ? 'can win' : 'cannot win';
    $('browse-cand').className = 'tag' + (cand ? ' yes' : '');
    var hist = subtreeHist(n, set), total = histTotal(hist);
    $('browse-stats').textContent = plural(set.length, 'secret') + ' left; from here the tree needs ' + total +
      ' guesses in all, ' + fmt(total / set.length) + ' on average, at most ' + hist.length +
      ' (this guess included).';
    $('browse-stats').setAttribute('data-left', String(set.length));
    $('browse-stats').setAttribute('data-total', String(total));
    histBars($('browse-hist'), hist, depth);
    $('browse-left-title').textContent = 'Secrets left (' + set.length + ')';
    $('browse-left').textContent = codeList(set, 200);
    var list = clear($('browse-answers'));
    split(n.guess, set).forEach(function (c) {
      var f = c[0], size = c[1].length;
      if (f === WIN) {
        list.appendChild(el('div', { class: 'answer-item win', 'data-answer': answerText(f), 'data-left': '1' }, [
          el('span', { class: 'answer win', text: answerText(f) }), el('span', { text: 'solved' })]));
        return;
      }
      var child = n.next.get(f);
      list.appendChild(el('button', { type: 'button', class: 'answer-item', 'data-answer': answerText(f),
        'data-left': String(size), onclick: function () { path.push(f); browseRender(); window.scrollTo(0, 0); } }, [
        el('span', { class: 'answer', text: answerText(f) }),
        el('span', { text: plural(size, 'secret') }),
        el('span', { class: 'muted', text: size === 1 && child.guess === c[1][0] ? 'next ' + codes[child.guess] + ', wins' :
          'next ' + codes[child.guess] }),
      ]));
    });
  }

  // ---- tabs and start-up ---------------------------------------------------------
  var MODES = ['play', 'guess', 'browse'];
  function show(mode) {
    MODES.forEach(function (m) {
      $(m).hidden = m !== mode;
      $('tab-' + m).setAttribute('aria-selected', String(m === mode));
    });
    if (mode === 'play') $('play-input').focus({ preventScroll: true });
  }
  MODES.forEach(function (m) { $('tab-' + m).addEventListener('click', function () { show(m); }); });

  document.title = 'optimoo: ' + DATA.game;
  $('title').textContent = (REPEATS ? 'Mastermind ' : 'Bulls and Cows ') + DATA.game;
  $('caption').textContent = DATA.caption + ' · ' + plural(S, 'secret') +
    (LIST ? ' of ' + (LIST.name || 'a list') + (RESTRICTED ? ', only they guessed' : ', any code guessed') : '');

  var keys = $('play-keys');
  for (var s = 0; s < N; s++) {
    (function (ch) {
      keys.appendChild(el('button', { type: 'button', class: 'key', text: ch, onclick: function () {
        var inp = $('play-input');
        if (Array.from(inp.value).length < K) inp.value += ch;
      } }));
    })(ALPHABET[s]);
  }
  keys.appendChild(el('button', { type: 'button', class: 'key wide', text: '⌫', 'aria-label': 'delete',
    onclick: function () { var inp = $('play-input'); inp.value = inp.value.slice(0, -1); } }));
  $('play-form').addEventListener('submit', function (e) { e.preventDefault(); playGuess($('play-input').value); });
  $('play-hint').addEventListener('click', playHint);
  $('play-new').addEventListener('click', function () { playNew(); });
  $('play-reveal').addEventListener('click', function () {
    playRender('The secret is ' + codes[play.secret] + '.');
  });
  $('guess-undo').addEventListener('click', function () { tg.moves.pop(); guessRender(''); });
  $('guess-restart').addEventListener('click', guessRestart);

  var fixed = params.get('secret');
  var start = fixed !== null ? parseCode(fixed) : undefined;
  if (typeof start === 'number' && !isSecret[start]) start = 'not one of the list’s ' + S + ' secrets';
  playNew(typeof start === 'number' ? start : undefined);
  if (typeof start === 'string') playRender('#secret=' + fixed + ': ' + start + '; a random secret instead.', true);
  guessRestart();
  browseRender();
  show(MODES.indexOf(params.get('mode')) >= 0 ? params.get('mode') : 'play');

  // For the browser test (tests/browser) and the curious: the page's own rule.
  window.optimooPage = {
    game: DATA.game,
    codes: codes,
    secrets: SECRETS.map(function (c) { return codes[c]; }),
    guessesRestricted: RESTRICTED,
    feedback: function (secret, guess) { return answerText(feedback(index.get(secret), index.get(guess))); },
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
