//! A FIFO ring buffer of `Copy` values for the hot path's queues (output queues, the slow lane's
//! run, lazy deliveries, limiter buffers). The capacity is a power of two, so a push or a pop is a
//! masked index; `VecDeque`'s wrap-around costs a compare and a subtract per operation, and those
//! queues handle several pushes and pops per frame. It grows (doubling) when full, never shrinks.

use std::mem::MaybeUninit;

pub struct Ring<T> {
    buf: Box<[MaybeUninit<T>]>,
    head: usize,
    len: usize,
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Ring::with_capacity(0)
    }
}

impl<T> std::fmt::Debug for Ring<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ring(len {})", self.len)
    }
}

impl<T: Copy> Ring<T> {
    /// The capacity `with_capacity(n)` makes.
    pub const fn capacity_for(n: usize) -> usize {
        let n = if n < 4 { 4 } else { n };
        n.next_power_of_two()
    }
    /// Room for at least `n` values before the first growth.
    pub fn with_capacity(n: usize) -> Self {
        let cap = Self::capacity_for(n);
        Ring { buf: vec![MaybeUninit::uninit(); cap].into_boxed_slice(), head: 0, len: 0 }
    }
    #[inline(always)]
    fn slot(&self, i: usize) -> usize {
        (self.head + i) & (self.buf.len() - 1)
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn push_back(&mut self, v: T) {
        if self.len == self.buf.len() {
            self.grow();
        }
        let i = self.slot(self.len);
        // SAFETY: `slot` masks with capacity − 1 (a power of two), so i < buf.len().
        unsafe { *self.buf.get_unchecked_mut(i) = MaybeUninit::new(v) };
        self.len += 1;
    }
    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        // SAFETY: head < buf.len() always, and the slot at head holds a value when len > 0.
        let v = unsafe { self.buf.get_unchecked(self.head).assume_init() };
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        Some(v)
    }
    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        // SAFETY: as in `pop_front`.
        (self.len > 0).then(|| unsafe { self.buf.get_unchecked(self.head).assume_init_ref() })
    }
    #[inline(always)]
    pub fn back(&self) -> Option<&T> {
        // SAFETY: slot(len − 1) < buf.len() and holds the last value pushed when len > 0.
        (self.len > 0).then(|| unsafe { self.buf.get_unchecked(self.slot(self.len - 1)).assume_init_ref() })
    }
    /// The values, front to back.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        // SAFETY: the len slots from head hold values.
        (0..self.len).map(move |i| unsafe { self.buf[self.slot(i)].assume_init_ref() })
    }
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let mut bigger = Ring::with_capacity(2 * self.buf.len());
        while let Some(v) = self.pop_front() {
            bigger.push_back(v);
        }
        *self = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_fifo_through_wrap_and_growth() {
        let (mut r, mut d) = (Ring::with_capacity(3), VecDeque::new());
        let mut x = 7u64;
        for i in 0..10_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 3 != 0 {
                r.push_back(i);
                d.push_back(i);
            } else {
                assert_eq!(r.pop_front(), d.pop_front());
            }
            assert_eq!((r.len(), r.front(), r.back()), (d.len(), d.front(), d.back()));
        }
        assert!(r.iter().eq(d.iter()));
        while let Some(v) = d.pop_front() {
            assert_eq!(r.pop_front(), Some(v));
        }
        assert!(r.is_empty() && r.pop_front().is_none() && r.front().is_none() && r.back().is_none());
    }
}
