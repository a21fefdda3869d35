//! Values remembered by key, for work a frame would otherwise redo (highlighting a line,
//! wrapping a message); cleared whole once it holds `capacity` of them, so it stays small.

use std::collections::HashMap;
use std::hash::Hash;

/// A map from key to value that forgets everything once it is full.
pub struct Memo<K, V> {
    entries: HashMap<K, V>,
    capacity: usize,
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// An empty memo that starts afresh when it holds `capacity` values.
    pub fn new(capacity: usize) -> Self {
        Self {
            entries: HashMap::new(),
            capacity,
        }
    }

    /// The value remembered for `key`, or the one `make` gives (then remembered).
    pub fn get_or_make(&mut self, key: K, make: impl FnOnce(&K) -> V) -> V {
        if let Some(value) = self.get(&key) {
            return value;
        }
        let value = make(&key);
        self.put(key, value.clone());
        value
    }

    /// The value remembered for `key`.
    pub fn get(&self, key: &K) -> Option<V> {
        self.entries.get(key).cloned()
    }

    /// Remembers `value` for `key`.
    pub fn put(&mut self, key: K, value: V) {
        if self.entries.len() >= self.capacity {
            self.entries.clear();
        }
        self.entries.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_made_once_and_the_memo_starts_afresh_when_full() {
        let mut memo = Memo::new(2);
        let mut made = 0;
        let mut get = |memo: &mut Memo<u32, u32>, key| {
            memo.get_or_make(key, |k| {
                made += 1;
                k * 10
            })
        };
        assert_eq!(get(&mut memo, 1), 10);
        assert_eq!(get(&mut memo, 1), 10);
        assert_eq!(get(&mut memo, 2), 20);
        // Full: the third key clears the first two.
        assert_eq!(get(&mut memo, 3), 30);
        assert_eq!(get(&mut memo, 1), 10);
        assert_eq!(made, 4);
    }
}
