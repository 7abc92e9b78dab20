//! Simulated time: an integer count of picoseconds (docs/architecture.md §2). No floating point in the event loop.

/// Simulated time or duration in picoseconds. `u64` covers ~213 days.
pub type Time = u64;

pub const PS_PER_S: u64 = 1_000_000_000_000;

/// The largest time or duration a scenario may give: 2^62 ps (about 53 days). Any sum of two such
/// values still fits in a `Time`, so the event loop adds delays without overflow checks.
pub const MAX_TIME: Time = 1 << 62;

/// Seconds as f64 — for outputs only, never for scheduling.
#[inline]
pub fn to_secs(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

/// Wire time of `bytes` at `rate_bps`, rounded up to a whole picosecond; saturates at `Time::MAX`
/// (frame sizes ≤ 64 KiB and rates ≥ 1 b/s keep any wire time near 12 days, far below `MAX_TIME`).
#[inline]
pub fn tx_time(bytes: u64, rate_bps: u64) -> Time {
    let bits = bytes as u128 * 8 * PS_PER_S as u128;
    Time::try_from(bits.div_ceil(rate_bps.max(1) as u128)).unwrap_or(Time::MAX)
}

/// Time to send `bytes` at a fractional rate (rate limiters), rounded up; `rate_bps` > 0. The
/// float-to-integer cast saturates, so an absurd rate cannot wrap.
#[inline]
pub fn pace_time(bytes: u64, rate_bps: f64) -> Time {
    let x = (bytes as f64 * 8.0 * PS_PER_S as f64) / rate_bps;
    if x.is_nan() || x >= MAX_TIME as f64 {
        return MAX_TIME; // a zero (or NaN) rate: never, but still addable to any time
    }
    // ceil() without the libm call it compiles to on baseline x86-64 (it is on the hot path), and
    // through i64: below 2^62 the signed conversions are exact and one instruction each, where
    // u64 <-> f64 takes a compare-and-adjust sequence on x86-64 (perf: ~1/3 of `release`'s time
    // was this function). x <= 0 gives 0, as the saturating `x as u64` did.
    let t = if x > 0.0 { x as i64 } else { 0 };
    if (t as f64) < x { t as Time + 1 } else { t as Time }
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
        // The i64 path rounds up exactly like a u64 ceil, also just below MAX_TIME and for x <= 0.
        for &(b, r) in &[(1500, 3e6), (1, 7.0), (64, 0.3), (9000, 1.234_567e9), (1500, 3.0e-3)] {
            let x = (b as f64 * 8.0 * PS_PER_S as f64) / r;
            assert_eq!(pace_time(b, r), x.ceil() as Time, "{b} {r}");
        }
        assert_eq!(pace_time(1500, -1e9), 0);
        assert_eq!(tx_time(u32::MAX as u64, 1), Time::MAX);
        assert_eq!((pace_time(1500, 0.0), pace_time(1500, f64::NAN), pace_time(1500, 1e-300)), (MAX_TIME, MAX_TIME, MAX_TIME));
    }
}
