//! Simulated time: an integer count of picoseconds (DESIGN.md §2). No floating point in the event loop.

/// Simulated time or duration in picoseconds. `u64` covers ~213 days.
pub type Time = u64;

pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Seconds as f64 — for outputs only, never for scheduling.
#[inline]
pub fn to_secs(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

/// Wire time of `bytes` at `rate_bps`, rounded up to a whole picosecond.
#[inline]
pub fn tx_time(bytes: u64, rate_bps: u64) -> Time {
    let bits = bytes as u128 * 8 * PS_PER_S as u128;
    bits.div_ceil(rate_bps as u128) as Time
}

/// Time to send `bytes` at a fractional rate (rate limiters), rounded up; `rate_bps` > 0.
#[inline]
pub fn pace_time(bytes: u64, rate_bps: f64) -> Time {
    ((bytes as f64 * 8.0 * PS_PER_S as f64) / rate_bps).ceil() as Time
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn wire_times() {
        assert_eq!(tx_time(1500, 1_000_000_000), 12_000_000); // 12 us
        assert_eq!(tx_time(1520, 10_000_000_000), 1_216_000);
        assert_eq!(tx_time(1, 3), 2_666_666_666_667); // 8 bit at 3 b/s, rounded up
        assert_eq!(pace_time(1500, 200e6), 60_000_000);
    }
}
