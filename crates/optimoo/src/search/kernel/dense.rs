//! The dense table: a game's answers recoded as small codes for the SIMD
//! mask kernels. Invariant: `row(s)[g]` is the code of the answer of `g`
//! to `s` (the `i`-th non-winning answer `i`, the win and impossible
//! answers [`DENSE_WIN`]); built only where [`Kernel::dense_applies`].

use super::{Kernel, KernelPath, DENSE_MAX_CODES};
use crate::model::code::Code;
use crate::model::feedback::Feedback;

/// The answers of a game recoded for [`Kernel::least`]'s masks: the
/// `i`-th non-winning answer as `i` (below 16), the win as [`DENSE_WIN`],
/// so that two byte lookups of the code itself give its bit (where the
/// packed answers, up to 30, take an add, an exclusive or and three
/// lookups). Symmetric, as the feedback table is; `N²` bytes.
///
/// Invariant: `row(s)[g]` is `dense_code` of the answer of `g` to `s`.
#[derive(Debug, Clone)]
pub struct DenseTable {
    len: usize,
    cells: Vec<u8>,
}

impl DenseTable {
    /// The codes of every guess's answer to secret `s` (the table being
    /// symmetric: of `s`'s answer to every secret).
    #[inline]
    pub fn row(&self, s: Code) -> &[u8] {
        &self.cells[s.index() * self.len..(s.index() + 1) * self.len]
    }
}

impl Kernel {
    /// Whether searches of a game of `len` codes take the dense table
    /// ([`Kernel::dense_table`]): a SIMD path, answers that fit the masks
    /// and at most 16 non-winning ones (their bits in two bytes), and at
    /// most [`DENSE_MAX_CODES`] codes. The scalar path never does: it is
    /// the plain counterpart the tests compare with.
    pub fn dense_applies(&self, len: usize) -> bool {
        self.path != KernelPath::Scalar
            && Kernel::dense_fits(self.masks_fit, self.answers.len(), len)
    }

    /// [`Kernel::dense_applies`] but for the path, for the memory
    /// estimate: answers that fit masks, at most 16 non-winning ones, at
    /// most [`DENSE_MAX_CODES`] codes.
    pub fn dense_fits(masks_fit: bool, answers: usize, len: usize) -> bool {
        masks_fit && answers <= 16 && len <= DENSE_MAX_CODES
    }

    /// Whether the answers of a game fit the masks (every answer below 32,
    /// at most eight of them 16 or more), from its possible answers and
    /// win; with their count, for [`Kernel::dense_fits`].
    pub fn masks_fit_of(possible: impl Iterator<Item = Feedback>, win: Feedback) -> (bool, usize) {
        let answers: Vec<u8> = possible.filter(|&f| f != win).map(|f| f.0).collect();
        let high = answers.iter().filter(|&&a| a >= 16).count();
        let fit = win.0 < 32 && answers.iter().all(|&a| a < 32) && high <= 8;
        (fit, answers.len())
    }

    /// The dense table of a game of `len` codes from its full feedback
    /// table (`rows(c)`: the row of code `c`), or `None` when it does not
    /// apply ([`Kernel::dense_applies`]).
    pub fn dense_table<'t>(
        &self,
        len: usize,
        rows: impl Fn(Code) -> &'t [Feedback],
    ) -> Option<DenseTable> {
        if !self.dense_applies(len) {
            return None;
        }
        let mut cells = Vec::with_capacity(len * len);
        for c in 0..len {
            let row = rows(Code(c as u16));
            cells.extend(row[..len].iter().map(|f| self.dense_code[usize::from(f.0)]));
        }
        Some(DenseTable { len, cells })
    }
}
