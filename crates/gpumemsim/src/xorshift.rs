//! The project's one seeded pseudo-random generator: Marsaglia's xorshift64 with the shift
//! triple 13, 7, 17 ("Xorshift RNGs", Journal of Statistical Software 8(14), 2003). It fills
//! `rand:SEED` buffers ([`rand_bytes`]) and `--lds-init random:SEED` LDS, and draws the random
//! cases of the tests and benchmarks, so that a seed names the same sequence everywhere.

/// A xorshift64 generator. Its state must not be 0 (xorshift's fixed point).
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator in state `state` (not 0): its first draw is `state` stepped once.
    pub fn new(state: u64) -> XorShift {
        XorShift(state)
    }

    /// The next 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// The next draw reduced modulo `n` (not 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// One of `from` (not empty), by [`XorShift::below`].
    pub fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len() as u64) as usize]
    }
}

/// The `len` bytes of a `rand:SEED` buffer: the low byte of each draw of a generator started
/// at `seed × 0x9e3779b97f4a7c15 | 1` (odd, so never 0, and different seeds spread apart).
pub fn rand_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut g = XorShift::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..len).map(|_| g.next_u64() as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_marsaglias_xorshift64_13_7_17() {
        // From state 1: 1 ^ 1 << 13 = 0x2001; ^ >> 7 = 0x2041; ^ << 17 = 0x4082_2041.
        let mut g = XorShift::new(1);
        assert_eq!(g.next_u64(), 0x4082_2041);
        assert_eq!(g.below(10), {
            let mut h = XorShift::new(0x4082_2041);
            h.next_u64() % 10
        });
    }

    #[test]
    fn rand_bytes_are_the_low_bytes_of_the_seeded_draws() {
        let mut g = XorShift::new(7u64.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let want: Vec<u8> = (0..16).map(|_| g.next_u64() as u8).collect();
        assert_eq!(rand_bytes(7, 16), want);
        assert_ne!(rand_bytes(7, 16), rand_bytes(8, 16));
        assert_eq!(rand_bytes(0, 3).len(), 3);
    }
}
