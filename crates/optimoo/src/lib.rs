//! optimoo: provably optimal strategies for Bulls and Cows (MOO) and
//! Mastermind, and the heuristics they are measured against.
//!
//! The data flows one way, one folder a step (docs/architecture.md):
//! [`model`] (rules → codes and feedback → partitions; [`model::shape`]
//! the codes and candidate sets of games of any size) → [`heuristic`]
//! strategies (the phased strategy of games of any size among them,
//! [`heuristic::phased`]) | the exact [`search`] → [`tree`] (the tree, its
//! file, its pictures, the independent checker) → [`play`] (the player
//! and the codemaker); beside `play`, the [`static_game`] (all guesses at
//! once: its search and its checker). In the code the tree is below the
//! strategies and the search that build it (they name it, it names only
//! the model; crates/optimoo/tests/layers.rs checks every arrow, doc links
//! too). [`exec`] is how the search and the heuristics are told to spread
//! work over threads, [`observe`] how every long computation reports its
//! progress, [`rng`] the one generator; this crate starts no thread and
//! prints nothing itself.
//!
//! Each item has one path: the types of a folder are named from the folder
//! (`optimoo::model::Game`, `optimoo::search::Config`,
//! `optimoo::tree::Tree`); the few modules below a folder are namespaces of
//! their own (`tree::format`, `search::plan`, `play::player`,
//! `static_game::search`, ...).
//!
//! # Example
//!
//! Solve Mastermind with 2 pegs and 4 colours exactly, compare the optimum
//! with Knuth's minimax heuristic, and play the optimal tree from its file:
//!
//! ```
//! use optimoo::heuristic::{build_tree, Heuristic, StrategyConfig};
//! use optimoo::model::{Game, Objective, Rules};
//! use optimoo::play::player::Player;
//! use optimoo::search::{optimize, solve, Config, Driver, Goal, Tuning};
//! use optimoo::tree::format::TreeFile;
//!
//! let rules: Rules = "mm:2x4".parse()?;
//! let game = Game::new(rules);
//! let best = solve(&game, Config::default())?;
//! let tree = best.tree.expect("a game with no cap always has a strategy");
//! // The tree's statistics come from replaying every secret.
//! assert_eq!(best.stats.unwrap().total, best.cost);
//!
//! // By objective, as `optimoo solve --objective worst` asks: the smallest
//! // cap any strategy meets (every smaller one refuted), then the least
//! // total within it.
//! let worst = Goal::of(Objective::Worst, None, None)?;
//! let within = optimize(&game, &worst, &Tuning::default(), Driver::sequential())?;
//! assert!(within.solution.cost >= best.cost);
//! assert_eq!(within.min_cap.map(|m| m.cap), within.cap);
//!
//! let knuth = build_tree(&game, &StrategyConfig::new(Heuristic::Minimax))?;
//! assert!(knuth.replay(&game, None)?.total >= best.cost);
//!
//! // The compact file: versioned, checksummed, read back and played.
//! let bytes = TreeFile::new(&game, tree, Objective::Average, None)?.to_bytes(&game)?;
//! let file = TreeFile::from_bytes(&bytes, Some(rules))?;
//! let player = Player::new(&game, &file.tree)?;
//! let secret = game.codes().parse("31")?;
//! let moves = player.play(secret);
//! assert_eq!(moves.last().map(|m| m.0), Some(secret));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod exec;
pub mod heuristic;
pub mod model;
pub mod observe;
pub mod play;
pub mod rng;
pub mod search;
pub mod static_game;
pub mod tree;
