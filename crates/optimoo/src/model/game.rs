//! A game ready to play: its rules, its codes, and the feedback between them.
//!
//! Invariants:
//! - `Game::new` is cheap (it lists the codes, no `N²` work), so a player that
//!   only looks a move up pays for nothing more. The full feedback table is
//!   built once, on the first call to [`Game::table`] (which builds it only
//!   for games of at most [`crate::model::feedback::TABLE_MAX_CODES`]
//!   codes, for the heuristics) or [`Game::table_with`] (any game: the exact
//!   search), and reused after that.
//! - [`Game::feedback`] always equals the rule in [`crate::model::feedback`], table
//!   or not.
//! - The set of possible answers is exact: an answer is possible when some
//!   pair of codes gives it (computed once, from one guess per orbit of the
//!   symbol and position permutations, against every secret; under Wordle's
//!   rule, which positions do not keep, one guess per orbit of the symbol
//!   permutations).
//! - Answers follow the rules' [`crate::model::AnswerRule`]: the win,
//!   reading and writing are the rule's.
//! - With a [`SecretSet`] ([`Game::with_secrets`]) the secrets are its list
//!   ([`Game::secrets`]) and the guesses all codes or the list
//!   ([`Game::is_guess`]); codes are written in its alphabet if it has one.
//!   The rules, the codebook and the answers stay those of the whole game.
//! - A game of a code list ([`Game::of_list`]: Wordle's guesses) has the
//!   list's codebook and always a secret list (every listed code, or some
//!   of them); its codes are written in the list's alphabet; its possible
//!   answers are those some guess gives against some secret, all computed
//!   on first use of [`Game::possible_feedbacks`] (before that,
//!   [`Game::is_possible`] looks for one pair that gives the answer); its guesses are restricted ([`Game::guesses_restricted`]):
//!   not every code of its positions and symbols may be guessed, so no
//!   symmetry and no absent-symbol swap applies.

use std::sync::OnceLock;

use crate::exec::Parallel;
use crate::model::answer::AnswerRule;
use crate::model::code::{Code, CodeError, Codebook};
use crate::model::codelist::CodeList;
use crate::model::feedback::{self, Feedback, FeedbackError, FeedbackTable};
use crate::model::rules::{GuessRule, Rules, RulesError};
use crate::model::secrets::{GuessMode, SecretSet};

/// Rules, codes and feedback of one game. Share it by reference.
#[derive(Debug)]
pub struct Game {
    rules: Rules,
    book: Codebook,
    table: OnceLock<FeedbackTable>,
    /// The secrets' rows by secret ([`Game::secret_rows_with`]).
    rows: OnceLock<FeedbackTable>,
    /// `possible[f]`: some pair of codes gives feedback `f` (for a code
    /// list: some guess against some secret), computed on first use.
    possible: OnceLock<Vec<bool>>,
    /// The secret list, if the secrets are not every code.
    list: Option<SecretSet>,
    /// With guesses restricted to the list: `guess[c]` says whether `c` may
    /// be guessed.
    guess: Option<Vec<bool>>,
    /// The code list, for a game of one.
    universe: Option<CodeList>,
}

impl Game {
    /// Lists the codes of `rules` (the game of every code: not listed
    /// rules, whose game is made from their list by [`Game::of_list`]).
    pub fn new(rules: Rules) -> Game {
        Game {
            rules,
            book: Codebook::new(rules),
            table: OnceLock::new(),
            rows: OnceLock::new(),
            possible: OnceLock::new(),
            list: None,
            guess: None,
            universe: None,
        }
    }

    /// The game whose codes are `list`, under `answer`, its secrets
    /// `secrets` (codes of the list, alphabet `None`: the list's writes
    /// them) or every listed code.
    pub fn of_list(
        list: CodeList,
        answer: AnswerRule,
        secrets: Option<SecretSet>,
    ) -> Result<Game, RulesError> {
        Game::of_list_under(list, answer, GuessRule::Any, secrets)
    }

    /// [`Game::of_list`] under a guess rule (`--guesses consistent`,
    /// Wordle's hard mode).
    pub fn of_list_under(
        list: CodeList,
        answer: AnswerRule,
        guesses: GuessRule,
        secrets: Option<SecretSet>,
    ) -> Result<Game, RulesError> {
        let rules = list.rules(answer)?.with_guesses(guesses)?;
        let book = Codebook::from_list(rules, list.symbols().to_vec());
        let set = match secrets {
            Some(set) => set,
            None => SecretSet::new(
                book.all().collect(),
                GuessMode::All,
                None,
                list.name().to_string(),
            )
            .expect("a list has a code"),
        };
        if set.codes().last().is_some_and(|c| c.index() >= book.len()) {
            return Err(RulesError::List(format!(
                "a secret beyond the {} codes of the list",
                book.len()
            )));
        }
        let mut game = Game {
            rules,
            book,
            table: OnceLock::new(),
            rows: OnceLock::new(),
            possible: OnceLock::new(),
            list: None,
            guess: None,
            universe: Some(list),
        };
        game.set_secrets(set);
        Ok(game)
    }

    /// The code list, for a game of one.
    pub fn code_list(&self) -> Option<&CodeList> {
        self.universe.as_ref()
    }

    /// The same game (its codes, its rules) with the secrets `set`.
    pub fn with_secret_set(&self, set: SecretSet) -> Game {
        match &self.universe {
            Some(list) => {
                Game::of_list_under(
                    list.clone(),
                    self.rules.answer(),
                    self.rules.guesses(),
                    Some(set),
                )
            }
            .expect("the rules of a game's own list"),
            None => Game::with_secrets(self.rules, set),
        }
    }

    /// The same game (its codes, its secrets) under another answer rule.
    pub fn with_answer(&self, answer: AnswerRule) -> Result<Game, RulesError> {
        let rules = self.rules.with_answer(answer)?;
        Ok(match (&self.universe, &self.list) {
            (Some(list), set) => {
                Game::of_list_under(list.clone(), answer, self.rules.guesses(), set.clone())?
            }
            (None, Some(set)) => Game::with_secrets(rules, set.clone()),
            (None, None) => Game::new(rules),
        })
    }

    /// The same game (its codes, its secrets) under another guess rule.
    pub fn with_guess_rule(&self, guesses: GuessRule) -> Result<Game, RulesError> {
        let rules = self.rules.with_guesses(guesses)?;
        Ok(match (&self.universe, &self.list) {
            (Some(list), set) => {
                Game::of_list_under(list.clone(), self.rules.answer(), guesses, set.clone())?
            }
            (None, Some(set)) => Game::with_secrets(rules, set.clone()),
            (None, None) => Game::new(rules),
        })
    }

    fn set_secrets(&mut self, set: SecretSet) {
        self.guess = (set.guesses == GuessMode::Secrets).then(|| {
            let mut ok = vec![false; self.len()];
            for &c in set.codes() {
                ok[c.index()] = true;
            }
            ok
        });
        self.list = Some(set);
    }

    /// `possible[f]`: some pair of codes gives `f`. Every guess is, up to
    /// a relabelling of the symbols and a reordering of the positions, a
    /// code 0…0 1…1 2…2 … with non-increasing runs; doing the same to the
    /// secret keeps the feedback, and the secrets run over every code, so
    /// those guesses see every possible answer (one guess for moo, a few
    /// for mm: 8 for mm:15x2, where every guess in first-occurrence order
    /// took 8 s). Wordle's rule keeps symbol relabellings only: one guess
    /// per orbit is then a code whose symbols first occur in order 0, 1,
    /// 2… A code list has no symmetry: every guess against every secret.
    fn possible(&self) -> &[bool] {
        self.possible.get_or_init(|| {
            let book = &self.book;
            let rules = self.rules;
            let mut possible = vec![false; rules.feedback_slots()];
            if self.universe.is_some() {
                // The secrets' rows, which the exact search reads too.
                let rows = self.secret_rows_with(&crate::exec::Sequential);
                for secret in self.secrets() {
                    for (g, f) in rows.row(secret).iter().enumerate() {
                        if self.is_guess(Code(g as u16)) {
                            possible[f.index()] = true;
                        }
                    }
                }
                return possible;
            }
            let representative = |g: Code| {
                if !rules.answer().keeps_position_permutations() {
                    return first_occurrence_order(book.symbols(g));
                }
                sorted_runs(book.symbols(g))
            };
            for guess in book.all().filter(|&g| representative(g)) {
                for secret in book.all() {
                    possible[feedback::compute(book, secret, guess).index()] = true;
                }
            }
            possible
        })
    }

    /// The game of `rules` whose secrets are `set`, which must hold codes
    /// of `rules` (as [`crate::model::secrets::parse_list`] and the tree
    /// file reader make them).
    pub fn with_secrets(rules: Rules, set: SecretSet) -> Game {
        let mut game = Game::new(rules);
        game.set_secrets(set);
        game
    }

    /// The secret list, if the secrets are not every code.
    pub fn secret_set(&self) -> Option<&SecretSet> {
        self.list.as_ref()
    }

    /// The game's name: its rules (`moo:4x12`), and with a list
    /// `moo:4x12, 120 secrets of FILE, guesses all`.
    pub fn name(&self) -> String {
        if let (Some(universe), Some(set)) = (&self.universe, &self.list) {
            let guesses = match set.guesses {
                GuessMode::All => format!("{} of {}", universe.len(), universe.name()),
                GuessMode::Secrets => "secrets".to_string(),
            };
            return format!(
                "{}, {} secrets of {}, guesses {guesses}",
                self.rules,
                set.codes().len(),
                set.name
            );
        }
        match &self.list {
            Some(set) => format!("{}, {}", self.rules, set.describe()),
            None => self.rules.to_string(),
        }
    }

    /// Every secret, smallest first: the list, or every code.
    pub fn secrets(&self) -> Vec<Code> {
        match &self.list {
            Some(set) => set.codes().to_vec(),
            None => self.all_codes(),
        }
    }

    /// Whether `code` is a secret (in the list, if the game has one).
    pub fn is_secret(&self, code: Code) -> bool {
        match &self.list {
            Some(set) => set.codes().binary_search(&code).is_ok(),
            None => code.index() < self.len(),
        }
    }

    /// Number of secrets.
    pub fn secret_count(&self) -> usize {
        self.list.as_ref().map_or(self.len(), |s| s.codes().len())
    }

    /// Whether `code` (a code of the game) may be guessed.
    #[inline]
    pub fn is_guess(&self, code: Code) -> bool {
        match &self.guess {
            Some(ok) => ok.get(code.index()).copied().unwrap_or(false),
            None => code.index() < self.len(),
        }
    }

    /// Whether only some codes of the game's positions and symbols may
    /// be guessed: the listed secrets (`--guesses secrets`), or the codes
    /// of a code list. Then no symmetry of the symbols applies to the
    /// guesses (no absent-symbol swap, no canonical keys).
    pub fn guesses_restricted(&self) -> bool {
        self.guess.is_some() || self.universe.is_some()
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The codes.
    pub fn codes(&self) -> &Codebook {
        &self.book
    }

    /// Number of legal codes.
    pub fn len(&self) -> usize {
        self.book.len()
    }

    /// Always false: every game has a code.
    pub fn is_empty(&self) -> bool {
        self.book.is_empty()
    }

    /// Every code, smallest first.
    pub fn all_codes(&self) -> Vec<Code> {
        self.book.all().collect()
    }

    /// Number of positions.
    pub fn positions(&self) -> usize {
        self.rules.positions()
    }

    /// The winning answer (`kA0B` under bulls and cows): the largest
    /// answer a pair gives.
    pub fn win(&self) -> Feedback {
        self.rules.win()
    }

    /// The full feedback table, built on first use for games of at most
    /// [`crate::model::feedback::TABLE_MAX_CODES`] codes; above, `None`
    /// unless [`Game::table_with`] built it.
    pub fn table(&self) -> Option<&FeedbackTable> {
        if self.len() > feedback::TABLE_MAX_CODES {
            return self.built_table();
        }
        Some(self.table.get_or_init(|| FeedbackTable::new(&self.book)))
    }

    /// The rows of the secrets by secret (`row(s)[g]` = the answer to
    /// guess `g` when the secret is `s`: [`FeedbackTable::by_secret`];
    /// every code's row for a game of every code), built side by side by
    /// `par` on first use and kept: the exact search's table under an
    /// asymmetric rule (Wordle's: 2315 rows of 12972 answers, 30 MB), and
    /// where a code list's possible answers are read.
    pub fn secret_rows_with(&self, par: &dyn Parallel) -> &FeedbackTable {
        self.rows.get_or_init(|| {
            let secrets = self.list.as_ref().map(|s| s.codes());
            FeedbackTable::by_secret(&self.book, secrets, par)
        })
    }

    /// The feedback table if it is built already (never builds it).
    #[inline]
    pub fn built_table(&self) -> Option<&FeedbackTable> {
        self.table.get()
    }

    /// The full feedback table of any game (`N²` bytes: 914 MB for
    /// moo:5x10), built side by side by `par` if not built yet.
    pub fn table_with(&self, par: &dyn Parallel) -> &FeedbackTable {
        self.table
            .get_or_init(|| FeedbackTable::new_with(&self.book, par))
    }

    /// Feedback of `guess` against `secret`.
    #[inline]
    pub fn feedback(&self, secret: Code, guess: Code) -> Feedback {
        match self.built_table() {
            Some(table) => table.row(guess)[secret.index()],
            None => feedback::compute(&self.book, secret, guess),
        }
    }

    /// Whether some pair of codes gives this answer.
    pub fn is_possible(&self, f: Feedback) -> bool {
        if self.universe.is_some() && self.possible.get().is_none() {
            // A code list: a few pairs find an answer that occurs, without
            // every guess against every secret (0.4 s on Wordle's lists).
            let secrets = self.secrets();
            return f.index() < self.rules.feedback_slots()
                && self
                    .book
                    .all()
                    .filter(|&g| self.is_guess(g))
                    .any(|g| secrets.iter().any(|&s| self.feedback(s, g) == f));
        }
        self.possible().get(f.index()).copied().unwrap_or(false)
    }

    /// Every possible answer, in (bulls, cows) order, the win last.
    pub fn possible_feedbacks(&self) -> impl Iterator<Item = Feedback> + '_ {
        self.possible()
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .map(|(i, _)| Feedback(i as u8))
    }

    /// Reads a code.
    pub fn parse_code(&self, text: &str) -> Result<Code, CodeError> {
        if let Some(universe) = &self.universe {
            return universe.alphabet().parse(&self.book, text.trim());
        }
        match self.list.as_ref().and_then(|l| l.alphabet.as_ref()) {
            Some(a) => a.parse(&self.book, text),
            None => self.book.parse(text),
        }
    }

    /// Writes a code.
    pub fn format_code(&self, code: Code) -> String {
        if let Some(universe) = &self.universe {
            return universe.alphabet().format(&self.book, code);
        }
        match self.list.as_ref().and_then(|l| l.alphabet.as_ref()) {
            Some(a) => a.format(&self.book, code),
            None => self.book.format(code),
        }
    }

    /// Reads an answer in the rule's forms (bulls and cows: `1A2B`, `1a2b`,
    /// `1 2`, `1,2`; see [`crate::model::AnswerRule::parse`] for the others)
    /// and checks that it can occur in this game.
    pub fn parse_feedback(&self, text: &str) -> Result<Feedback, FeedbackError> {
        let k = self.positions();
        if !self.rules.answer().is_bulls_cows() {
            let f = self.rules.answer().parse(text, k)?;
            if self.is_possible(f) {
                return Ok(f);
            }
            return Err(self.impossible(self.format_feedback(f)));
        }
        let (bulls, cows) = feedback::parse_pair(text)?;
        let f = (bulls.checked_add(cows).is_some_and(|sum| sum <= k))
            .then(|| Feedback::new(bulls, cows, k));
        match f {
            Some(f) if self.is_possible(f) => Ok(f),
            _ => Err(FeedbackError::Impossible {
                text: format!("{bulls}A{cows}B"),
                rules: self.rules.to_string(),
                allowed: self
                    .possible_feedbacks()
                    .map(|f| self.format_feedback(f))
                    .collect::<Vec<_>>()
                    .join(" "),
            }),
        }
    }

    /// The error of an answer no pair of codes gives, written `text`.
    fn impossible(&self, text: String) -> FeedbackError {
        FeedbackError::Impossible {
            text,
            rules: self.rules.to_string(),
            allowed: self
                .possible_feedbacks()
                .map(|f| self.format_feedback(f))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// Writes an answer: `xAyB` under bulls and cows, `xA` under black
    /// pegs, `GYBBY` under Wordle.
    pub fn format_feedback(&self, f: Feedback) -> String {
        self.rules.answer().format(f, self.positions())
    }
}

/// Each symbol first occurs after every smaller one (`0`, then `0` or `1`,
/// then at most one more than the largest so far…).
fn first_occurrence_order(symbols: &[u8]) -> bool {
    let mut next = 0u8;
    for &s in symbols {
        if s > next {
            return false;
        }
        if s == next {
            next += 1;
        }
    }
    true
}

/// The code is `0…0 1…1 2…2 …` with runs that never grow.
fn sorted_runs(symbols: &[u8]) -> bool {
    let mut prev_run = usize::MAX;
    let mut expected = 0u8;
    let mut i = 0;
    while i < symbols.len() {
        if symbols[i] != expected {
            return false;
        }
        let run = symbols[i..].iter().take_while(|&&s| s == expected).count();
        if run > prev_run {
            return false;
        }
        prev_run = run;
        expected += 1;
        i += run;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moo_has_fourteen_answers() {
        let game = Game::new(Rules::standard());
        let all: Vec<String> = game
            .possible_feedbacks()
            .map(|f| game.format_feedback(f))
            .collect();
        assert_eq!(all.len(), 14);
        assert!(!all.contains(&"3A1B".to_string()));
        assert_eq!(all.last().unwrap(), "4A0B");
        assert!(game.parse_feedback("3A1B").is_err());
        assert!(game.parse_feedback("5A0B").is_err());
        assert!(game.parse_feedback("2,3").is_err());
        assert_eq!(
            game.format_feedback(game.parse_feedback("1 2").unwrap()),
            "1A2B"
        );
    }

    #[test]
    fn possible_answers_match_brute_force() {
        for rules in [
            "mm:2x2", "mm:3x3", "moo:3x4", "moo:4x4", "mm:4x6", "moo:2x3", "mm:5x3", "mm:6x2",
            "mm:4x2", "mm:1x3",
        ] {
            let game = Game::new(rules.parse().unwrap());
            let mut brute = vec![false; game.rules().feedback_slots()];
            for g in game.codes().all() {
                for s in game.codes().all() {
                    brute[game.feedback(s, g).index()] = true;
                }
            }
            let fast: Vec<bool> = (0..brute.len())
                .map(|i| game.is_possible(Feedback(i as u8)))
                .collect();
            assert_eq!(fast, brute, "{rules}");
        }
    }

    #[test]
    fn possible_answers_match_brute_force_under_every_rule() {
        use crate::model::AnswerRule;
        for rules in [
            "mm:3x3", "moo:3x4", "mm:4x3", "mm:5x3", "moo:4x5", "mm:2x4", "mm:1x3",
        ] {
            for rule in [AnswerRule::BlackPeg, AnswerRule::Wordle] {
                let r: Rules = rules.parse().unwrap();
                let game = Game::new(r.with_answer(rule).unwrap());
                let mut brute = vec![false; game.rules().feedback_slots()];
                for g in game.codes().all() {
                    for s in game.codes().all() {
                        let f = game.feedback(s, g);
                        assert_eq!(
                            f,
                            rule.answer(game.codes().symbols(s), game.codes().symbols(g))
                        );
                        brute[f.index()] = true;
                    }
                }
                let fast: Vec<bool> = (0..brute.len())
                    .map(|i| game.is_possible(Feedback(i as u8)))
                    .collect();
                assert_eq!(fast, brute, "{rules} {rule}");
                assert_eq!(game.possible_feedbacks().last(), Some(game.win()));
            }
        }
    }

    #[test]
    fn answers_are_read_and_written_by_the_rule() {
        use crate::model::AnswerRule;
        let wordle = Game::new(
            Rules::mm(3, 4)
                .unwrap()
                .with_answer(AnswerRule::Wordle)
                .unwrap(),
        );
        let f = wordle.parse_feedback("gy-").unwrap();
        assert_eq!(wordle.format_feedback(f), "GYB");
        assert_eq!(wordle.parse_feedback("GGG").unwrap(), wordle.win());
        // Two greens and a yellow: no pair of codes gives it.
        let err = wordle.parse_feedback("GGY").unwrap_err();
        assert!(matches!(err, FeedbackError::Impossible { .. }), "{err}");
        assert!(wordle.parse_feedback("1A2B").is_err());
        let black = Game::new(
            Rules::moo(3, 3)
                .unwrap()
                .with_answer(AnswerRule::BlackPeg)
                .unwrap(),
        );
        assert_eq!(
            black.format_feedback(black.parse_feedback("1").unwrap()),
            "1A"
        );
        // Two bulls of three leave the third place to the one symbol left.
        let err = black.parse_feedback("2A").unwrap_err();
        assert!(err.to_string().contains("0A 1A 3A"), "{err}");
        assert!(black.parse_feedback("4A").is_err());
        // Bulls and cows: the message of before.
        let moo = Game::new(Rules::standard());
        let err = moo.parse_feedback("5A0B").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("5A0B is impossible in moo:4x10"),
            "{err}"
        );
    }

    #[test]
    fn table_and_direct_feedback_agree() {
        let game = Game::new("mm:4x6".parse().unwrap());
        let direct: Vec<Feedback> = game
            .codes()
            .all()
            .map(|s| game.feedback(s, Code(7)))
            .collect();
        let table = game.table().unwrap();
        assert_eq!(table.row(Code(7)), &direct[..]);
    }
}
