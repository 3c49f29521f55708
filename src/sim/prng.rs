//! Deterministic randomness without a crate: splitmix64 streams keyed by a purpose
//! (salt) and an ID, so a record looks the same on every run and every machine.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The splitmix64 finaliser: a cheap, well-mixed bijection on u64.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform fraction in [0, 1) from the top 53 bits of a hash.
pub fn fraction(hash: u64) -> f64 {
    (hash >> 11) as f64 / (1u64 << 53) as f64
}

/// A uniform fraction in [0, 1) for one (salt, id) pair: independent per salt.
pub fn unit(salt: u64, id: u64) -> f64 {
    fraction(mix(salt ^ mix(id)))
}

/// FNV-1a, for keying decisions on arbitrary request text.
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// A stream of values for one (salt, id): each record draws its fields from one.
pub struct Dice(u64);

impl Dice {
    pub fn new(salt: u64, id: u64) -> Self {
        Dice(mix(salt ^ mix(id)))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN);
        mix(self.0)
    }

    /// A value in `lo..=hi`; the modulo bias is irrelevant for made-up data.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    pub fn chance(&mut self, p: f64) -> bool {
        fraction(self.next_u64()) < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next_u64() as usize % items.len()]
    }

    /// Picks by integer weights, so the common case (delivered, active) dominates.
    pub fn weighted<'a, T>(&mut self, items: &'a [T], weight: impl Fn(&T) -> u32) -> &'a T {
        let total: u64 = items.iter().map(|item| u64::from(weight(item))).sum();
        let mut roll = self.next_u64() % total;
        for item in items {
            let weight = u64::from(weight(item));
            if roll < weight {
                return item;
            }
            roll -= weight;
        }
        unreachable!("roll is below the total weight")
    }

    /// `count` decimal digits, leading zeros allowed.
    pub fn digits(&mut self, count: usize) -> String {
        (0..count)
            .map(|_| char::from(b'0' + (self.next_u64() % 10) as u8))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_salted() {
        let a: Vec<u64> = (0..4).map(|_| Dice::new(1, 42).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Dice::new(1, 42).next_u64(), Dice::new(2, 42).next_u64());
        assert_ne!(unit(1, 42), unit(1, 43));
    }

    #[test]
    fn ranges_and_fractions_stay_in_bounds() {
        let mut dice = Dice::new(7, 7);
        for _ in 0..10_000 {
            let v = dice.range(3, 9);
            assert!((3..=9).contains(&v));
            let f = fraction(dice.next_u64());
            assert!((0.0..1.0).contains(&f));
        }
        assert_eq!(dice.digits(9).len(), 9);
    }

    #[test]
    fn weighted_follows_the_weights() {
        let mut dice = Dice::new(3, 3);
        let items = [("common", 9), ("rare", 1), ("never", 0)];
        let picks: Vec<&str> = (0..1000)
            .map(|_| dice.weighted(&items, |(_, w)| *w).0)
            .collect();
        let common = picks.iter().filter(|p| **p == "common").count();
        assert!(common > 800, "{common}");
        assert!(!picks.contains(&"never"));
    }
}
