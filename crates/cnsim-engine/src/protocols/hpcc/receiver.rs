//! HPCC's receiver: a RoCE responder that acknowledges every data frame (the artifact's
//! `L2_ACK_INTERVAL 1`: HPCC reacts per ACK, §3.2) with its cumulative acknowledgement, so that
//! each ACK carries the telemetry of the frame it answers. It accepts frames in order only
//! (go-back-N): a frame beyond the next expected byte is dropped and answered with one NACK per
//! gap; the frames after it are dropped silently until the gap fills.

/// What an arriving data frame is answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ack {
    /// Every byte below it has arrived.
    pub ack: u64,
    /// The frame beyond `ack` was dropped: send from `ack` again.
    pub nack: bool,
}

#[derive(Clone, Debug, Default)]
pub struct HpccReceiver {
    /// The next byte expected.
    pub expected: u64,
    /// The gap (its `expected`) a NACK was sent for.
    nacked: Option<u64>,
    pub out_of_order: u64,
}

impl HpccReceiver {
    /// The 64-bit offset a 32-bit wire sequence number stands for, nearest the next expected byte.
    pub fn unwrap(&self, seq: u32) -> u64 {
        let base = self.expected;
        let d = seq.wrapping_sub(base as u32) as i32 as i64;
        base.saturating_add_signed(d)
    }

    /// A data frame of `len` bytes from `seq` (its wire number) arrived; what it is answered with
    /// (None: dropped silently behind a gap already NACKed).
    pub fn on_data(&mut self, seq: u32, len: u32) -> Option<Ack> {
        let seq = self.unwrap(seq);
        let end = seq + len as u64;
        if seq <= self.expected {
            // In order, or a duplicate: acknowledge the bytes held so far.
            self.expected = self.expected.max(end);
            self.nacked = None;
            return Some(Ack { ack: self.expected, nack: false });
        }
        self.out_of_order += 1;
        if self.nacked == Some(self.expected) {
            return None;
        }
        self.nacked = Some(self.expected);
        Some(Ack { ack: self.expected, nack: true })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_frame_in_order_is_acknowledged_and_a_gap_is_nacked_once() {
        let mut r = HpccReceiver::default();
        assert_eq!(r.on_data(0, 1000), Some(Ack { ack: 1000, nack: false }));
        assert_eq!(r.on_data(2000, 1000), Some(Ack { ack: 1000, nack: true }));
        assert_eq!(r.on_data(3000, 1000), None);
        assert_eq!(r.on_data(1000, 1000), Some(Ack { ack: 2000, nack: false }));
        assert_eq!(r.on_data(0, 1000), Some(Ack { ack: 2000, nack: false }));
        assert_eq!(r.out_of_order, 2);
    }

    #[test]
    fn wire_numbers_wrap_at_32_bits() {
        let mut r = HpccReceiver { expected: u32::MAX as u64 - 499, ..Default::default() };
        assert_eq!(r.on_data(u32::MAX - 499, 1000).map(|a| a.ack), Some((1u64 << 32) + 500));
        assert_eq!(r.unwrap(500), (1u64 << 32) + 500);
    }
}
