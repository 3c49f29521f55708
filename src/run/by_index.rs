//! Maps keyed by a lookup's input index, hashed by one multiplication: SipHash (the
//! default, made to resist keys chosen by an attacker) was a visible share of a
//! batch's CPU, and indexes are our own counter.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub(crate) type ByIndex<V> = HashMap<usize, V, BuildHasherDefault<IndexHasher>>;

#[derive(Debug, Default)]
pub(crate) struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing: consecutive indexes spread over the high bits too,
        // which the table uses to tell entries apart.
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_are_kept_apart() {
        let mut map = ByIndex::default();
        for i in 0..10_000 {
            map.insert(i, i * 2);
        }
        assert_eq!(map.len(), 10_000);
        assert!((0..10_000).all(|i| map[&i] == i * 2));
        map.remove(&5);
        assert!(!map.contains_key(&5));
    }
}
