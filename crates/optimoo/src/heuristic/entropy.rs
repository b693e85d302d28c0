//! Exact ties of entropy scores: Σ n ln n = ln Π nⁿ, so two scores are
//! equal exactly when the prime-exponent vectors Σ n·v_p(n) of the two
//! products agree, and otherwise ordered as the products are (compared as
//! big integers).
//!
//! Invariant: [`compare_power_products`] is the exact order of Π nⁿ (checked
//! against direct big-integer products for every pair of partitions of 12);
//! the float scores are trusted only when they differ by more than
//! [`super::ENTROPY_TOLERANCE`], far above their rounding error.

use std::cmp::Ordering;

/// `spf[n]`: the smallest prime factor of `n` (0 for `n < 2`).
pub(crate) fn smallest_prime_factors(max: usize) -> Vec<u32> {
    let mut spf = vec![0u32; max + 1];
    for i in 2..=max {
        if spf[i] == 0 {
            for j in (i..=max).step_by(i) {
                if spf[j] == 0 {
                    spf[j] = i as u32;
                }
            }
        }
    }
    spf
}

/// Compares Π aᵢ^aᵢ with Π bᵢ^bᵢ exactly (class sizes `a`, `b`, all below
/// `spf.len()`): the orders of Σ n ln n.
pub(crate) fn compare_power_products(a: &[u32], b: &[u32], spf: &[u32]) -> Ordering {
    // e[p] = exponent of p in Π aᵢ^aᵢ minus that in Π bᵢ^bᵢ.
    let mut e: Vec<(u32, i64)> = Vec::new();
    let mut add = |n: u32, sign: i64| {
        let mut m = n;
        while m >= 2 {
            let p = spf[m as usize];
            let mut v = 0;
            while m.is_multiple_of(p) {
                m /= p;
                v += 1;
            }
            let d = sign * n as i64 * v;
            match e.iter_mut().find(|(q, _)| *q == p) {
                Some((_, x)) => *x += d,
                None => e.push((p, d)),
            }
        }
    };
    for &n in a {
        add(n, 1);
    }
    for &n in b {
        add(n, -1);
    }
    if e.iter().all(|&(_, x)| x == 0) {
        return Ordering::Equal;
    }
    let side = |sign: i64| {
        let mut big = BigUint::one();
        for &(p, x) in &e {
            for _ in 0..(x * sign).max(0) {
                big.mul_small(p);
            }
        }
        big
    };
    side(1).cmp(&side(-1))
}

/// Just enough of an unsigned big integer to compare products of primes.
#[derive(Debug, PartialEq, Eq)]
struct BigUint {
    /// Base 2³² digits, least significant first, no leading zero digit.
    digits: Vec<u32>,
}

impl BigUint {
    fn one() -> BigUint {
        BigUint { digits: vec![1] }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for d in &mut self.digits {
            let x = *d as u64 * m as u64 + carry;
            *d = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.digits.push(carry as u32);
        }
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.digits
            .len()
            .cmp(&other.digits.len())
            .then_with(|| self.digits.iter().rev().cmp(other.digits.iter().rev()))
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::ENTROPY_TOLERANCE;

    /// Π nⁿ as a big integer, directly.
    fn power_product(sizes: &[u32]) -> BigUint {
        let mut big = BigUint::one();
        for &n in sizes {
            for _ in 0..n {
                if n > 1 {
                    big.mul_small(n);
                }
            }
        }
        big
    }

    #[test]
    fn exact_entropy_comparison_matches_big_integers() {
        let spf = smallest_prime_factors(64);
        // 4⁴·1 = 2²·2²·2²·2² = 256: a classic exact tie of different sizes.
        assert_eq!(
            compare_power_products(&[4, 1, 1, 1, 1], &[2, 2, 2, 2], &spf),
            Ordering::Equal
        );
        // Every pair of partitions of 12 secrets (sizes in decreasing order).
        fn partitions(n: u32, max: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if n == 0 {
                out.push(prefix.clone());
            }
            for part in (1..=n.min(max)).rev() {
                prefix.push(part);
                partitions(n - part, part, prefix, out);
                prefix.pop();
            }
        }
        let mut parts = Vec::new();
        partitions(12, 12, &mut Vec::new(), &mut parts);
        assert_eq!(parts.len(), 77);
        let mut ties = 0;
        for x in &parts {
            for y in &parts {
                let want = power_product(x).cmp(&power_product(y));
                assert_eq!(compare_power_products(x, y, &spf), want, "{x:?} {y:?}");
                let fx: f64 = x.iter().map(|&n| n as f64 * (n.max(1) as f64).ln()).sum();
                let fy: f64 = y.iter().map(|&n| n as f64 * (n.max(1) as f64).ln()).sum();
                if want != Ordering::Equal {
                    assert!((fx - fy).abs() > ENTROPY_TOLERANCE);
                } else if x != y {
                    ties += 1;
                }
            }
        }
        assert!(ties > 0, "some different multisets tie exactly");
    }
}
