//! Finite zero-sum matrix games: the rows' player maximizes the payoff,
//! the columns' player minimizes it.
//!
//! [`solve`] finds optimal mixtures in floating point with a linear program
//! (microlp), then re-derives them exactly: on the supports the float
//! solution names, the equalities that make each player indifferent are
//! solved in rationals, and the result is kept only if every inequality of
//! the game holds exactly (every row earns at most the value against the
//! columns' mixture, every column concedes at least the value against the
//! rows'). So a returned solution is an exact equilibrium of the matrix,
//! whatever the float solver's rounding.

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Why a matrix game could not be solved exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    /// The float linear program failed.
    #[error("the linear program failed: {0}")]
    Lp(String),
    /// The supports of the float solution give no exact equilibrium.
    #[error("no exact equilibrium on the supports of the float solution ({0})")]
    Exact(String),
}

/// An exact equilibrium of a matrix game.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// The rows' mixture.
    pub rows: Vec<BigRational>,
    /// The columns' mixture.
    pub cols: Vec<BigRational>,
    /// The value.
    pub value: BigRational,
}

/// Weights below this in the float solution are read as 0.
const SUPPORT: f64 = 1e-9;

/// Optimal mixtures of the game `payoff[row][col]` (see the module doc).
pub fn solve(payoff: &[Vec<BigRational>]) -> Result<Equilibrium, MatrixError> {
    let m = payoff.len();
    let n = payoff.first().map_or(0, Vec::len);
    if m == 0 || n == 0 {
        return Err(MatrixError::Lp("an empty game".into()));
    }
    let float: Vec<Vec<f64>> = payoff
        .iter()
        .map(|r| r.iter().map(|v| v.to_f64().unwrap_or(f64::NAN)).collect())
        .collect();
    let transposed: Vec<Vec<f64>> = (0..n)
        .map(|j| (0..m).map(|i| -float[i][j]).collect())
        .collect();
    let x = maximin(&float)?;
    // The columns' player maximizes the negated payoff.
    let y = maximin(&transposed)?;
    let rows: Vec<usize> = (0..m).filter(|&i| x[i] > SUPPORT).collect();
    let cols: Vec<usize> = (0..n).filter(|&j| y[j] > SUPPORT).collect();
    // The float optimum is a vertex: the constraints tight there (columns
    // that are best replies to x, rows that are best replies to y)
    // determine it. Tried first; then the other side's support.
    let fx = value_against(&float, &x, true);
    let fy = value_against(&float, &y, false);
    let tight_cols: Vec<usize> = (0..n)
        .filter(|&j| column_pays(&float, &x, j) <= fx + TIGHT * (1.0 + fx.abs()))
        .collect();
    let tight_rows: Vec<usize> = (0..m)
        .filter(|&i| row_earns(&float, &y, i) >= fy - TIGHT * (1.0 + fy.abs()))
        .collect();
    let mut why = String::new();
    for (eq_cols, eq_rows) in [(&tight_cols, &tight_rows), (&cols, &rows)] {
        let attempt = (|| {
            let (xs, v1) = indifferent(payoff, &rows, eq_cols, false)?;
            let (ys, v2) = indifferent(payoff, eq_rows, &cols, true)?;
            if v1 != v2 {
                return Err(MatrixError::Exact(format!("values {v1} and {v2} differ")));
            }
            let mut rows_mix = vec![BigRational::zero(); m];
            for (k, &i) in rows.iter().enumerate() {
                rows_mix[i] = xs[k].clone();
            }
            let mut cols_mix = vec![BigRational::zero(); n];
            for (k, &j) in cols.iter().enumerate() {
                cols_mix[j] = ys[k].clone();
            }
            let eq = Equilibrium {
                rows: rows_mix,
                cols: cols_mix,
                value: v1,
            };
            check(payoff, &eq).map_err(MatrixError::Exact)?;
            Ok(eq)
        })();
        match attempt {
            Ok(eq) => return Ok(eq),
            Err(e) => why = e.to_string(),
        }
    }
    Err(MatrixError::Exact(why))
}

/// A constraint counts as tight within this relative margin.
const TIGHT: f64 = 1e-7;

/// What column `j` concedes against the rows' mixture `x`.
fn column_pays(p: &[Vec<f64>], x: &[f64], j: usize) -> f64 {
    x.iter().zip(p).map(|(xi, row)| xi * row[j]).sum()
}

/// What row `i` earns against the columns' mixture `y`.
fn row_earns(p: &[Vec<f64>], y: &[f64], i: usize) -> f64 {
    y.iter().zip(&p[i]).map(|(yj, v)| yj * v).sum()
}

/// The float value a mixture guarantees: the least column against rows'
/// `mix` (`rows`), else the largest row against the columns'.
fn value_against(p: &[Vec<f64>], mix: &[f64], rows: bool) -> f64 {
    if rows {
        (0..p[0].len())
            .map(|j| column_pays(p, mix, j))
            .fold(f64::INFINITY, f64::min)
    } else {
        (0..p.len())
            .map(|i| row_earns(p, mix, i))
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Checks an equilibrium exactly: mixtures nonnegative summing to 1, every
/// column concedes at least the value against the rows' mixture, every row
/// earns at most the value against the columns'.
pub fn check(payoff: &[Vec<BigRational>], eq: &Equilibrium) -> Result<(), String> {
    let one = BigRational::one();
    for (name, mix) in [("rows", &eq.rows), ("columns", &eq.cols)] {
        if mix.iter().any(|w| w.is_negative()) {
            return Err(format!("a negative weight among the {name}"));
        }
        if mix.iter().sum::<BigRational>() != one {
            return Err(format!("the {name}' weights do not add up to 1"));
        }
    }
    for j in 0..eq.cols.len() {
        let got: BigRational = eq.rows.iter().zip(payoff).map(|(x, row)| x * &row[j]).sum();
        if got < eq.value {
            return Err(format!(
                "column {j} concedes {got}, below the value {}",
                eq.value
            ));
        }
    }
    for (i, row) in payoff.iter().enumerate() {
        let got: BigRational = (0..eq.cols.len()).map(|j| &eq.cols[j] * &row[j]).sum();
        if got > eq.value {
            return Err(format!("row {i} earns {got}, above the value {}", eq.value));
        }
    }
    Ok(())
}

/// The maximin mixture of the rows of `p` by linear program: maximize v
/// with `Σ_i x_i p[i][j] ≥ v` for every column, `Σ x = 1`, `x ≥ 0`.
fn maximin(p: &[Vec<f64>]) -> Result<Vec<f64>, MatrixError> {
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = p.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    for j in 0..p[0].len() {
        let mut terms: Vec<_> = x.iter().zip(p).map(|(&xi, row)| (xi, row[j])).collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
    lp.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let solution = lp
        .solve()
        .map_err(|e| MatrixError::Lp(e.to_string()))?
        .into_solution()
        .map_err(|e| MatrixError::Lp(format!("{e:?}")))?;
    Ok(x.iter().map(|&xi| solution[xi]).collect())
}

/// The exact mixture on one side's support that makes every strategy of
/// the other side's support pay the same (`columns`: the columns' mixture,
/// else the rows'), and that value. Solved by Gaussian elimination in
/// rationals; an underdetermined system keeps its free weights at 0.
fn indifferent(
    payoff: &[Vec<BigRational>],
    rows: &[usize],
    cols: &[usize],
    columns: bool,
) -> Result<(Vec<BigRational>, BigRational), MatrixError> {
    let (mine, theirs) = if columns { (cols, rows) } else { (rows, cols) };
    let entry = |a: usize, b: usize| -> BigRational {
        if columns {
            payoff[b][a].clone()
        } else {
            payoff[a][b].clone()
        }
    };
    // Unknowns: the weights of `mine`, then the value. Equations: for each
    // of `theirs`, Σ w_a · entry(a, b) − v = 0; and Σ w = 1.
    let k = mine.len();
    let mut rowsys: Vec<Vec<BigRational>> = Vec::new();
    for &b in theirs {
        let mut eq: Vec<BigRational> = mine.iter().map(|&a| entry(a, b)).collect();
        eq.push(-BigRational::one());
        eq.push(BigRational::zero());
        rowsys.push(eq);
    }
    let mut sum = vec![BigRational::one(); k];
    sum.push(BigRational::zero());
    sum.push(BigRational::one());
    rowsys.push(sum);
    let solution = gauss(rowsys, k + 1)
        .ok_or_else(|| MatrixError::Exact("the indifference equations have no solution".into()))?;
    let value = solution[k].clone();
    Ok((solution[..k].to_vec(), value))
}

/// Solves the augmented system `a` (each row: `unknowns` coefficients,
/// then the right side) by Gaussian elimination; free unknowns are 0.
/// `None` when it is inconsistent.
pub(crate) fn gauss(a: Vec<Vec<BigRational>>, unknowns: usize) -> Option<Vec<BigRational>> {
    let (a, pivots) = reduce(a, unknowns);
    if a[pivots.len()..].iter().any(|row| !row[unknowns].is_zero()) {
        return None;
    }
    let mut out = vec![BigRational::zero(); unknowns];
    for (row, &c) in pivots.iter().enumerate() {
        out[c] = a[row][unknowns].clone();
    }
    Some(out)
}

/// The reduced row echelon form of `a` over its first `columns` columns
/// (Gauss-Jordan elimination in rationals), and the pivot column of each
/// of its first rows.
pub(crate) fn reduce(
    mut a: Vec<Vec<BigRational>>,
    columns: usize,
) -> (Vec<Vec<BigRational>>, Vec<usize>) {
    let mut pivots = Vec::new();
    for c in 0..columns {
        let r = pivots.len();
        if r == a.len() {
            break;
        }
        let Some(p) = (r..a.len()).find(|&i| !a[i][c].is_zero()) else {
            continue;
        };
        a.swap(r, p);
        let lead = a[r][c].clone();
        for x in a[r].iter_mut() {
            *x = &*x / &lead;
        }
        let pivot_row = a[r].clone();
        for (i, row) in a.iter_mut().enumerate() {
            if i != r && !row[c].is_zero() {
                let f = row[c].clone();
                for (x, y) in row.iter_mut().zip(&pivot_row) {
                    *x = &*x - &f * y;
                }
            }
        }
        pivots.push(c);
    }
    (a, pivots)
}

/// `n / d` as an exact rational.
pub fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// "p/q", or "p" for an integer.
pub fn show(r: &BigRational) -> String {
    if r.is_integer() {
        r.to_integer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(p: &[&[i64]]) -> Vec<Vec<BigRational>> {
        p.iter()
            .map(|r| {
                r.iter()
                    .map(|&v| BigRational::from_integer(v.into()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn matching_pennies_and_a_saddle_point() {
        let eq = solve(&game(&[&[1, -1], &[-1, 1]])).unwrap();
        assert_eq!(eq.value, BigRational::zero());
        assert_eq!(eq.rows, vec![ratio(1, 2), ratio(1, 2)]);
        // Rock, paper, scissors: 1/3 each.
        let eq = solve(&game(&[&[0, -1, 1], &[1, 0, -1], &[-1, 1, 0]])).unwrap();
        assert_eq!(eq.cols, vec![ratio(1, 3); 3]);
        // A saddle point: row 1, column 0, value 2.
        let eq = solve(&game(&[&[1, 5], &[2, 3]])).unwrap();
        assert_eq!(eq.value, BigRational::from_integer(2.into()));
        assert_eq!(eq.rows, vec![BigRational::zero(), BigRational::one()]);
        // A wrong claim is caught.
        let mut bad = eq.clone();
        bad.value = BigRational::from_integer(3.into());
        assert!(check(&game(&[&[1, 5], &[2, 3]]), &bad).is_err());
    }

    #[test]
    fn an_unequal_game() {
        // x = (3/7, 4/7)? Solve [[3, -1], [-2, 1]]: value 1/7.
        let eq = solve(&game(&[&[3, -1], &[-2, 1]])).unwrap();
        assert_eq!(eq.value, ratio(1, 7));
        assert_eq!(eq.rows, vec![ratio(3, 7), ratio(4, 7)]);
        assert_eq!(eq.cols, vec![ratio(2, 7), ratio(5, 7)]);
    }
}
