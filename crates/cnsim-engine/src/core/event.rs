//! The event queue (docs/architecture.md §2): a binary min-heap keyed by (time, tie). Events with equal times
//! run in a stated deterministic order: by default a seeded permutation of their scheduling order
//! (`tie = mix(seq ^ key)`, a bijection, so keys stay unique), so that no entity wins every tie
//! because it was declared first (identical sources starting together would otherwise be served in
//! file order at every simultaneous arrival); with key 0, scheduling (FIFO) order. Either way a run
//! is a pure function of (scenario, seed, version). Generic over the event type: the core names no
//! event of any protocol.
//!
//! Hand-written rather than `std::collections::BinaryHeap` (measured, docs/performance.md): the
//! heap is the largest cost of the event loop, and std's `pop` swaps the last entry into the root
//! with narrow stores and reads it back at once with wide loads (a store-forwarding stall that
//! `perf` put at ~20 % of the loop's samples). Here the entry that must be re-placed stays in
//! registers. The (time, seq) key is compared as one u128, so the "which child" choice compiles to
//! `cmp/sbb` instead of a branch; a node's two children share one cache line (`Pair`). Keys are unique, so the pop order — hence every result — is the
//! same as with any other correct priority queue.

use super::time::Time;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: Time,
    seq: u64,
    ev: E,
}

impl<E> Entry<E> {
    /// The total order of events: time, then scheduling order.
    #[inline(always)]
    fn key(&self) -> u128 {
        (self.time as u128) << 64 | self.seq as u128
    }
}

/// Two heap entries aligned to a 64-byte cache line: node k's children (2k and 2k + 1, the root
/// being 1) are the two entries of pair k, so each level of a sift-down reads one line (with
/// 32-byte entries) rather than two: with the root at 0, every pair of children straddled a line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Pair<E>([Entry<E>; 2]);

/// A binary min-heap of entries (one lane of the queue), numbered from 1 (see `Pair`); entry k
/// is `pairs[k / 2].0[k % 2]`. Slot 0 is not an entry (it holds a copy of one, never read).
struct Heap<E> {
    pairs: Vec<Pair<E>>,
    len: usize,
}

impl<E> Default for Heap<E> {
    fn default() -> Self {
        Heap { pairs: Vec::new(), len: 0 }
    }
}

impl<E: Copy> Heap<E> {
    /// Entries are laid out end to end (true for 32-byte entries): entry k is then the k-th
    /// `Entry` from the start, one multiply instead of two.
    const FLAT: bool = std::mem::size_of::<Pair<E>>() == 2 * std::mem::size_of::<Entry<E>>();

    /// Pointer to entry `k`. SAFETY: the caller keeps `k / 2 < self.pairs.len()`, which holds for
    /// every `k ≤ len` (`push` keeps it).
    #[inline(always)]
    unsafe fn at(&self, k: usize) -> *mut Entry<E> {
        debug_assert!(k / 2 < self.pairs.len());
        let base = self.pairs.as_ptr() as *mut Pair<E>;
        if Self::FLAT { (base as *mut Entry<E>).add(k) } else { (base.add(k >> 1) as *mut Entry<E>).add(k & 1) }
    }
    #[inline(always)]
    fn first(&self) -> Option<&Entry<E>> {
        // SAFETY: 1 ≤ len.
        if self.len == 0 { None } else { Some(unsafe { &*self.at(1) }) }
    }
    fn len(&self) -> usize {
        self.len
    }
    /// The entries, in heap order (accounting, not the hot path).
    fn iter(&self) -> impl Iterator<Item = &Entry<E>> {
        (1..=self.len).map(|k| &self.pairs[k / 2].0[k % 2])
    }
    #[inline(always)]
    fn push(&mut self, e: Entry<E>) {
        self.len += 1;
        let k = self.len;
        if k / 2 == self.pairs.len() {
            self.pairs.push(Pair([e, e]));
        }
        self.sift_up(k, e);
    }
    #[inline(always)]
    fn first_key(&self) -> u128 {
        self.first().map_or(u128::MAX, |e| e.key())
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry<E>> {
        let n = self.len.checked_sub(1)?;
        // SAFETY (here and below): every index used is at most the old `len`, and `push` keeps
        // `len / 2 < pairs.len()`.
        let last = unsafe { *self.at(n + 1) };
        self.len = n;
        if n == 0 {
            return Some(last);
        }
        let top = unsafe { *self.at(1) };
        // Bottom-up (as std does): walk the hole from the root down along the smaller children to
        // a leaf — one branch-free choice per level — then let `last` rise from there (usually
        // not far: it was a leaf). (Unchecked: the bounds checks were ~5 % of the benchmark's
        // instructions, on the loop every event goes through.)
        let mut i = 1;
        let mut c = 2;
        while c < n {
            // c + 1 <= n
            unsafe {
                c += ((*self.at(c + 1)).key() < (*self.at(c)).key()) as usize;
                *self.at(i) = *self.at(c);
            }
            i = c;
            c = 2 * i;
        }
        if c == n {
            unsafe { *self.at(i) = *self.at(c) };
            i = c;
        }
        self.sift_up(i, last);
        Some(top)
    }
    /// Put `e` at hole `i` (1 ≤ i ≤ len) or above it.
    #[inline(always)]
    fn sift_up(&mut self, mut i: usize, e: Entry<E>) {
        let k = e.key();
        assert!(i <= self.len);
        while i > 1 {
            let parent = i / 2;
            // SAFETY: parent < i ≤ len (asserted above, and i only decreases).
            unsafe {
                if (*self.at(parent)).key() <= k {
                    break;
                }
                *self.at(i) = *self.at(parent);
            }
            i = parent;
        }
        unsafe { *self.at(i) = e };
    }
}

/// The slow lane: a heap, and a run of entries pushed in increasing key order (a FIFO) for the
/// events offered to it (`EventQueue::push_slow_run`). Sources with equal gaps (every CBR source of
/// a benchmark, say) push their next generations in the order they pop them, so those need no
/// sifting at all; a push that would break the run's order goes to the heap. Only such streams are
/// offered to the run: one event far ahead in it (a timer 15 ms out) would send every later
/// in-order push to the heap until it is popped. The lane pops the smaller head, so its order is
/// the heap's.
struct SlowLane<E> {
    run: super::ring::Ring<Entry<E>>,
    heap: Heap<E>,
}

impl<E: Copy> SlowLane<E> {
    /// To the run when `e` continues it, else to the heap.
    #[inline(always)]
    fn push_in_order(&mut self, e: Entry<E>) {
        match self.run.back() {
            Some(b) if b.key() > e.key() => self.heap.push(e),
            _ => self.run.push_back(e),
        }
    }
    #[inline(always)]
    fn first_key(&self) -> u128 {
        self.run.front().map_or(u128::MAX, |e| e.key()).min(self.heap.first_key())
    }
    /// Time of the first entry (`Time::MAX` when empty).
    #[inline(always)]
    fn first_time(&self) -> Time {
        let r = self.run.front().map_or(Time::MAX, |e| e.time);
        r.min(self.heap.first().map_or(Time::MAX, |e| e.time))
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry<E>> {
        match self.run.front() {
            Some(r) if r.key() < self.heap.first_key() => self.run.pop_front(),
            _ => self.heap.pop(),
        }
    }
    fn len(&self) -> usize {
        self.run.len() + self.heap.len()
    }
}

/// Two lanes sharing one sequence counter, so the pop order is exactly that of a single queue.
/// The slow lane holds the events of which there is one per entity, each far ahead: timers,
/// recording, and each source's next generation or limiter release. The fast lane holds the few
/// near events of frames on links (transmitter free, arrival). With N sources every source has an
/// event queued at all times; in one heap they made every per-hop pop walk log2(N + a few) levels
/// (N = 100, QCN off: moving the sources' events out cut 15 % of all instructions; with QCN the RP
/// timers had already doubled the heap, ~115 → ~256 entries).
pub struct EventQueue<E> {
    heap: Heap<E>,
    slow: SlowLane<E>,
    /// Tie-break key: 0 = FIFO among equal times, else the seed of the permutation.
    tie_key: u64,
    /// Time of the slow lane's first event (`Time::MAX` when empty; times stay below 2^63): the
    /// per-pop lane check is then one compare of registers, not two loads of u128 keys.
    slow_time: Time,
    seq: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: Heap::default(), slow: SlowLane { run: Default::default(), heap: Heap::default() }, tie_key: 0, slow_time: Time::MAX, seq: 0 }
    }
}

/// SplitMix64's finalizer: a bijection on u64 that scatters consecutive inputs.
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<E: Copy> EventQueue<E> {
    /// Bytes one queued event takes (the memory budget counts them, `build/flow_bytes.rs`).
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry<E>>();
    /// A queue whose equal-time events run in the permutation seeded by `key` (0: FIFO).
    pub fn with_tie_key(key: u64) -> Self {
        EventQueue { tie_key: key, ..Default::default() }
    }
    /// The next tie-break value: unique, in scheduling order or permuted.
    #[inline(always)]
    fn tie(&mut self) -> u64 {
        self.seq += 1;
        if self.tie_key == 0 { self.seq } else { mix(self.seq ^ self.tie_key) }
    }
    #[inline]
    pub fn push(&mut self, time: Time, ev: E) {
        let seq = self.tie();
        self.heap.push(Entry { time, seq, ev });
    }
    /// Use up the tie-break value of an event that is not queued (it is handled lazily), so that
    /// every queued event keeps the key — hence the order — it would have had.
    #[inline]
    pub fn skip(&mut self) {
        self.seq += 1;
    }
    /// Like `push`, for an event of the slow lane (one per entity, far ahead: see the type's doc).
    #[inline(always)]
    pub fn push_slow(&mut self, time: Time, ev: E) {
        let seq = self.tie();
        self.slow.heap.push(Entry { time, seq, ev });
        self.slow_time = self.slow_time.min(time);
    }
    /// Like `push_slow`, for the next event of a stream whose events usually come in time order
    /// (a source's next generation): it joins the slow lane's run when it continues it.
    #[inline(always)]
    pub fn push_slow_run(&mut self, time: Time, ev: E) {
        let seq = self.tie();
        self.slow.push_in_order(Entry { time, seq, ev });
        self.slow_time = self.slow_time.min(time);
    }
    #[inline]
    pub fn peek_time(&self) -> Option<Time> {
        match self.heap.first() {
            Some(e) => Some(e.time.min(self.slow_time)),
            None => (self.slow_time != Time::MAX).then_some(self.slow_time),
        }
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_due(Time::MAX)
    }
    /// Pop the next event if it is due by `end` (inclusive); one look at the lanes' heads for
    /// what `peek_time` then `pop` would do.
    #[inline(always)]
    pub fn pop_due(&mut self, end: Time) -> Option<(Time, E)> {
        if let Some(top) = self.heap.first() {
            // The fast lane goes first unless the slow lane's head is earlier (or as early and older).
            if self.slow_time > top.time || (self.slow_time == top.time && self.slow.first_key() > top.key()) {
                if top.time > end {
                    return None;
                }
                return self.heap.pop().map(|e| (e.time, e.ev));
            }
        }
        if self.slow_time > end {
            return None; // also when both lanes are empty (`slow_time` is then `Time::MAX`)
        }
        self.pop_slow()
    }
    #[inline]
    fn pop_slow(&mut self) -> Option<(Time, E)> {
        let e = self.slow.pop()?;
        self.slow_time = self.slow.first_time();
        Some((e.time, e.ev))
    }
    pub fn len(&self) -> usize {
        self.heap.len() + self.slow.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Visit every pending event (for accounting; not on the hot path).
    pub fn for_each(&self, mut f: impl FnMut(E)) {
        self.heap.iter().chain(self.slow.run.iter()).chain(self.slow.heap.iter()).for_each(|e| f(e.ev));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_run_in_scheduling_order() {
        let mut q = EventQueue::default();
        q.push(5, 'a');
        q.push(3, 'b');
        q.push(5, 'c');
        q.push(3, 'd');
        q.push(5, 'e');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(3, 'b'), (3, 'd'), (5, 'a'), (5, 'c'), (5, 'e')]);
    }

    #[test]
    fn pops_in_key_order_under_random_load() {
        // Compare against a sort of (time, seq) with many equal times, pushes interleaved with pops.
        let mut q = EventQueue::default();
        let mut x = 12345u64;
        let mut pushed = vec![];
        let mut popped = vec![];
        let mut now = 0;
        for i in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if !x.is_multiple_of(3) || q.is_empty() {
                let t = now + x % 50;
                q.push(t, i);
                pushed.push((t, i));
            } else {
                let (t, ev) = q.pop().unwrap();
                assert!(t >= now);
                now = t;
                popped.push((t, ev));
            }
        }
        while let Some(p) = q.pop() {
            popped.push(p);
        }
        // Popped order: nondecreasing time, FIFO within a time.
        assert_eq!(popped.len(), pushed.len());
        assert!(popped.windows(2).all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }

    #[test]
    fn lanes_keep_one_fifo_order() {
        let mut q = EventQueue::default();
        q.push(5, 'a');
        q.push_slow(5, 'b');
        q.push(3, 'c');
        q.push_slow(3, 'd');
        q.push(5, 'e');
        assert_eq!(q.peek_time(), Some(3));
        // `pop_due` pops in the same order, and nothing later than its bound.
        assert_eq!((q.pop_due(2), q.len()), (None, 5));
        let order: Vec<_> = std::iter::from_fn(|| q.pop_due(4)).collect();
        assert_eq!(order, vec![(3, 'c'), (3, 'd')]);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(5, 'a'), (5, 'b'), (5, 'e')]);
        assert_eq!(q.pop_due(Time::MAX - 1), None);
    }

    #[test]
    fn slow_lane_run_and_heap_pop_in_one_order() {
        // Pushes to both lanes, the slow ones often in increasing order (they join the run) and
        // sometimes not (they go to its heap): the pop order is still (time, scheduling order).
        let mut q = EventQueue::default();
        let mut x = 99u64;
        let (mut now, mut next_slow) = (0u64, 0u64);
        let (mut popped, mut pushed) = (vec![], 0);
        for i in 0..30_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pushed += (x % 6 != 4) as usize;
            match x % 6 {
                0 | 1 => {
                    next_slow = next_slow.max(now) + x % 7; // monotone: joins the run
                    q.push_slow_run(next_slow, i);
                }
                2 => q.push_slow_run(now + x % 40, i), // anywhere: often the heap
                5 => q.push_slow(now + x % 60, i), // the heap
                3 => q.push(now + x % 20, i),
                _ => {
                    if let Some((t, ev)) = q.pop() {
                        assert!(t >= now);
                        now = t;
                        popped.push((t, ev));
                    }
                }
            }
        }
        assert!(q.slow.run.len() > 10 && q.slow.heap.len() > 0); // both parts were used
        while let Some(p) = q.pop() {
            popped.push(p);
        }
        assert_eq!(popped.len(), pushed);
        assert!(popped.windows(2).all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
    }

    #[test]
    fn seeded_ties_are_a_permutation_that_depends_on_the_key() {
        let order = |key| {
            let mut q = EventQueue::with_tie_key(key);
            for i in 0..8 {
                q.push(5, i);
                q.push(3, 100 + i);
            }
            std::iter::from_fn(|| q.pop()).collect::<Vec<_>>()
        };
        let (a, b) = (order(1), order(2));
        assert_eq!(a, order(1)); // deterministic
        assert_ne!(a, b); // the key decides the order
        for o in [&a, &b] {
            assert!(o[..8].iter().all(|e| e.0 == 3) && o[8..].iter().all(|e| e.0 == 5)); // time first
            let mut ids: Vec<_> = o.iter().map(|e| e.1).collect();
            ids.sort();
            assert_eq!(ids, [(0..8).collect::<Vec<_>>(), (100..108).collect()].concat()); // all, once
        }
        // Not FIFO: some pair of equal-time events runs in the other order.
        assert_ne!(a.iter().filter(|e| e.0 == 5).map(|e| e.1).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn entries_stay_compact() {
        // Hot-path budget: a 12-byte event makes a 32-byte heap entry, two to a cache line, laid
        // out end to end.
        assert!(std::mem::size_of::<Entry<[u32; 3]>>() <= 32);
        assert_eq!((std::mem::size_of::<Pair<[u32; 3]>>(), std::mem::align_of::<Pair<[u32; 3]>>()), (64, 64));
        assert!(Heap::<[u32; 3]>::FLAT && !Heap::<char>::FLAT);
    }

    #[test]
    fn heap_pops_in_key_order_with_padded_pairs_too() {
        // A 24-byte entry (`char`) leaves padding in its pair: entries are found by pair and slot.
        let mut h = Heap::default();
        let mut x = 7u64;
        let mut keys = vec![];
        for i in 0..5_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            h.push(Entry { time: x % 100, seq: i, ev: 'x' });
            keys.push(((x % 100) as u128) << 64 | i as u128);
            if i % 3 == 0 {
                let e = h.pop().unwrap();
                keys.sort();
                assert_eq!(e.key(), keys.remove(0));
            }
        }
        keys.sort();
        assert_eq!(h.iter().count(), keys.len());
        let rest: Vec<_> = std::iter::from_fn(|| h.pop()).map(|e| e.key()).collect();
        assert_eq!(rest, keys);
    }
}
