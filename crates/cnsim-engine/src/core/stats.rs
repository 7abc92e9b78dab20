//! Time-weighted statistics of piecewise-constant signals (queue length, CR) over the window.

use super::time::Time;

#[derive(Clone, Copy, Debug, Default)]
pub struct TimeAvg {
    t0: Time,
    last_t: Time,
    last_v: f64,
    sum: f64,
    sum2: f64,
    pub min: f64,
    pub max: f64,
}

impl TimeAvg {
    pub fn new(v: f64) -> Self {
        TimeAvg { last_v: v, min: v, max: v, ..Default::default() }
    }
    /// The signal takes value `v` from `now` on.
    #[inline]
    pub fn set(&mut self, now: Time, v: f64) {
        let dt = (now - self.last_t) as f64;
        self.sum += self.last_v * dt;
        self.sum2 += self.last_v * self.last_v * dt;
        self.last_t = now;
        self.last_v = v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }
    /// Forget the past: averages start at `now` (window start).
    pub fn reset(&mut self, now: Time) {
        let v = self.last_v;
        *self = TimeAvg::new(v);
        self.t0 = now;
        self.last_t = now;
    }
    pub fn value(&self) -> f64 {
        self.last_v
    }
    /// (mean, std-dev) over [window start, now].
    pub fn mean_std(&self, now: Time) -> (f64, f64) {
        let dt = (now - self.last_t) as f64;
        let span = (now - self.t0) as f64;
        if span <= 0.0 {
            return (self.last_v, 0.0);
        }
        let mean = (self.sum + self.last_v * dt) / span;
        let m2 = (self.sum2 + self.last_v * self.last_v * dt) / span;
        (mean, (m2 - mean * mean).max(0.0).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn square_wave() {
        let mut a = TimeAvg::new(0.0);
        a.set(10, 4.0);
        a.set(20, 0.0);
        a.set(30, 4.0);
        let (m, s) = a.mean_std(40);
        assert_eq!((m, s), (2.0, 2.0));
        a.reset(40);
        assert_eq!(a.mean_std(50), (4.0, 0.0));
    }
}
