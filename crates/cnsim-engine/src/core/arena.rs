//! A slab with a free list: values are referred to by u32 handles and slots are reused, so the hot
//! path allocates nothing once the arena has grown to the number of values alive at once.

pub struct Arena<T> {
    slots: Vec<T>,
    free: Vec<u32>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { slots: Vec::new(), free: Vec::new() }
    }
}

impl<T> Arena<T> {
    #[inline]
    pub fn alloc(&mut self, v: T) -> u32 {
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = v;
            id
        } else {
            self.slots.push(v);
            (self.slots.len() - 1) as u32
        }
    }
    /// Give slot `id` back; its value stays readable until the slot is reused.
    #[inline]
    pub fn release(&mut self, id: u32) {
        self.free.push(id);
    }
    #[inline]
    pub fn get(&self, id: u32) -> &T {
        &self.slots[id as usize]
    }
    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut T {
        &mut self.slots[id as usize]
    }
    /// Values currently allocated.
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
    /// Slots ever allocated (live + free): the arena's footprint.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_slots_are_reused_last_in_first_out() {
        let mut a = Arena::default();
        let (x, y, z) = (a.alloc('x'), a.alloc('y'), a.alloc('z'));
        assert_eq!((x, y, z), (0, 1, 2));
        a.release(y);
        a.release(x);
        assert_eq!(a.live(), 1);
        assert_eq!(a.alloc('p'), x);
        assert_eq!(a.alloc('q'), y);
        assert_eq!(a.alloc('r'), 3);
        assert_eq!((*a.get(0), *a.get(1), *a.get(2)), ('p', 'q', 'z'));
        assert_eq!((a.live(), a.capacity()), (4, 4));
    }
}
