//! DCQCN's notification point, one per flow at the receiver NIC (Zhu et al. 2015 §3.2): when a
//! CE-marked data frame arrives and no CNP was sent for the flow in the last N µs, a CNP goes to
//! the flow's source at once; so at most one CNP per flow every N (50 µs).
//!
//! "In the last N" is read as: a CNP is sent when `now − last CNP ≥ N` (a mark exactly N after the
//! previous CNP is answered). The first author's ns-3 model differs [ns3-rdma]: it checks each
//! flow every N from the flow's first frame and sends a CNP at the end of a window in which a
//! marked frame arrived, so its first CNP can lag the first mark by up to N. The fluid model (§5)
//! counts CNPs the same way: one per interval N that holds a mark, with probability
//! 1 − (1 − p)^(N·RC). `CnpPacing::Window` follows that counting without a timer: time is cut into
//! windows of N (from 0) and the first mark of a window is answered at once. With marks far apart
//! (p·RC·N ≪ 1) the two readings send about as often; closer marks make the windowed NP send more
//! (up to one CNP per N, against one per N plus the wait for the next mark).

use super::{CnpPacing, NpParams};
use crate::core::time::Time;

#[derive(Clone, Debug)]
pub struct NotificationPoint {
    pub p: NpParams,
    last_cnp: Option<Time>,
    /// Data frames seen, of them CE-marked, and CNPs sent.
    pub data_frames: u64,
    pub ce_frames: u64,
    pub cnps_sent: u64,
}

impl NotificationPoint {
    pub fn new(p: NpParams) -> Self {
        NotificationPoint { p, last_cnp: None, data_frames: 0, ce_frames: 0, cnps_sent: 0 }
    }

    /// A data frame of the flow arrives at `now`, CE-marked or not. Returns true when a CNP must be
    /// sent now.
    #[inline]
    pub fn on_data(&mut self, ce: bool, now: Time) -> bool {
        self.data_frames += 1;
        if !ce {
            return false;
        }
        self.ce_frames += 1;
        // saturating_sub: a `now` before the last CNP (never in the engine) pauses, never panics.
        let n = self.p.cnp_interval;
        let due = match (self.last_cnp, self.p.pacing) {
            (None, _) => true,
            (Some(_), _) if n == 0 => true,
            (Some(t), CnpPacing::SinceLast) => now.saturating_sub(t) >= n,
            (Some(t), CnpPacing::Window) => now / n > t / n,
        };
        if due {
            self.last_cnp = Some(now);
            self.cnps_sent += 1;
        }
        due
    }

    /// When the last CNP was sent.
    pub fn last_cnp(&self) -> Option<Time> {
        self.last_cnp
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocols::dcqcn::PS_PER_US;

    const US: Time = PS_PER_US;

    fn np() -> NotificationPoint {
        NotificationPoint::new(NpParams::standard()) // N = 50 µs
    }

    #[test]
    fn two_marks_10_us_apart_make_one_cnp() {
        let mut n = np();
        assert!(n.on_data(true, 100 * US));
        assert!(!n.on_data(true, 110 * US)); // 10 µs < 50 µs after the CNP
        assert_eq!((n.ce_frames, n.cnps_sent), (2, 1));
    }

    #[test]
    fn two_marks_50_us_apart_make_two_cnps() {
        let mut n = np();
        assert!(n.on_data(true, 100 * US));
        assert!(!n.on_data(true, 150 * US - 1)); // 1 ps short of N
        assert!(n.on_data(true, 150 * US)); // exactly N after the CNP
        assert_eq!(n.cnps_sent, 2);
        assert_eq!(n.last_cnp(), Some(150 * US));
    }

    #[test]
    fn the_interval_runs_from_the_last_cnp_not_the_last_mark() {
        // Marks every 20 µs from t = 0: CNPs at 0, 60 (≥ 50 after 0), 120 µs; none at 20, 40, 80, 100.
        let mut n = np();
        let sent: Vec<Time> = (0..7).map(|i| i * 20 * US).filter(|&t| n.on_data(true, t)).collect();
        assert_eq!(sent, vec![0, 60 * US, 120 * US]);
    }

    #[test]
    fn unmarked_frames_send_nothing() {
        let mut n = np();
        assert!(!n.on_data(false, 0));
        assert!(!n.on_data(false, 1_000 * US));
        assert_eq!((n.data_frames, n.ce_frames, n.cnps_sent), (2, 0, 0));
        // A first mark after a long clean stretch is answered at once.
        assert!(n.on_data(true, 1_001 * US));
    }

    #[test]
    fn zero_interval_answers_every_mark() {
        for pacing in [CnpPacing::SinceLast, CnpPacing::Window] {
            let mut n = NotificationPoint::new(NpParams { cnp_interval: 0, pacing });
            assert!(n.on_data(true, 5) && n.on_data(true, 5));
        }
    }

    #[test]
    fn windowed_pacing_answers_the_first_mark_of_each_window() {
        // Windows [0, 50), [50, 100), [100, 150) µs. Marks at 10, 40, 60, 90, 140 µs: CNPs at 10
        // (first of [0, 50)), 60 (first of [50, 100)) and 140 (first of [100, 150)); 40 and 90 are
        // second marks of their windows. Since-last pacing would answer 10, 60 (50 after 10) and
        // 140 (80 after 60) too, but not 99 → 101 below.
        let mut n = NotificationPoint::new(NpParams { pacing: CnpPacing::Window, ..NpParams::standard() });
        let sent: Vec<Time> = [10, 40, 60, 90, 140].into_iter().map(|t| t * US).filter(|&t| n.on_data(true, t)).collect();
        assert_eq!(sent, vec![10 * US, 60 * US, 140 * US]);
        // 2 µs apart across a window boundary: both answered (windowed), only the first (since last).
        let mut w = NotificationPoint::new(NpParams { pacing: CnpPacing::Window, ..NpParams::standard() });
        let mut s = np();
        assert_eq!((w.on_data(true, 199 * US), w.on_data(true, 201 * US)), (true, true));
        assert_eq!((s.on_data(true, 199 * US), s.on_data(true, 201 * US)), (true, false));
    }
}
