//! Flow-size distributions given as an empirical CDF: lines "size_bytes cumulative_probability",
//! the convention of the datacenter simulators (DCTCP's and VL2's tabulations; docs/scenarios.md,
//! workloads). Between two points the CDF is linear in the size, so a sample is the inverse
//! transform of a uniform variate with linear interpolation; the first point's probability is a
//! point mass at its size.

use crate::core::rng::Rng;

/// The shipped distributions (files in python/cnsim/workloads, which cite their sources).
pub const BUILTIN: &[(&str, &str)] = &[
    ("web-search", include_str!("../../../../python/cnsim/workloads/web-search.cdf")),
    ("data-mining", include_str!("../../../../python/cnsim/workloads/data-mining.cdf")),
    ("fb-hadoop", include_str!("../../../../python/cnsim/workloads/fb-hadoop.cdf")),
];

/// At most this many points: a CDF is a short table, not a trace.
pub(super) const MAX_POINTS: usize = 100_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// (size in bytes, cumulative probability), both non-decreasing, the last probability 1.
    points: Vec<(f64, f64)>,
}

impl Cdf {
    /// Parse `text` (named `path` in errors, which say `path:line`). Blank lines and `#` comments
    /// are skipped.
    pub fn parse(text: &str, path: &str) -> Result<Cdf, String> {
        let mut points: Vec<(f64, f64)> = vec![];
        let mut last_line = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = format!("{path}:{}", i + 1);
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 2 {
                return Err(format!("{at}: expected \"size_bytes cumulative_probability\", got {line:?}"));
            }
            let num = |s: &str, what: &str| s.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| format!("{at}: {what} {s:?} is not a number"));
            let (size, p) = (num(f[0], "size")?, num(f[1], "probability")?);
            if !(0.0..=1e15).contains(&size) {
                return Err(format!("{at}: size {size} must be between 0 and 1e15 bytes"));
            }
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("{at}: cumulative probability {p} must be in [0, 1]"));
            }
            if let Some(&(s0, p0)) = points.last() {
                if size < s0 || p < p0 {
                    return Err(format!("{at}: not monotone: ({size}, {p}) follows ({s0}, {p0}); sizes and probabilities must not decrease"));
                }
            }
            if points.len() == MAX_POINTS {
                return Err(format!("{at}: more than {MAX_POINTS} points"));
            }
            points.push((size, p));
            last_line = i + 1;
        }
        match points.last() {
            None => Err(format!("{path}:1: no points: expected lines \"size_bytes cumulative_probability\"")),
            Some(&(_, p)) if p != 1.0 => Err(format!("{path}:{last_line}: the last cumulative probability must be 1, got {p}")),
            Some(&(s, _)) if s < 1.0 => Err(format!("{path}:{last_line}: the largest size must be at least 1 byte")),
            _ => Ok(Cdf { points }),
        }
    }

    /// Mean size in bytes: the point mass of the first point plus, per segment, its probability
    /// times its mid size (the CDF is linear within it).
    pub fn mean(&self) -> f64 {
        let (s0, p0) = self.points[0];
        s0 * p0 + self.points.windows(2).map(|w| (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0).sum::<f64>()
    }

    /// A size in whole bytes (at least 1) for a uniform variate `u` in [0, 1).
    pub fn quantile(&self, u: f64) -> u64 {
        let i = self.points.partition_point(|&(_, p)| p <= u);
        let x = match i {
            0 => self.points[0].0,
            i if i == self.points.len() => self.points[i - 1].0,
            i => {
                let ((s0, p0), (s1, p1)) = (self.points[i - 1], self.points[i]);
                s0 + (u - p0) / (p1 - p0) * (s1 - s0)
            }
        };
        (x.round() as u64).max(1)
    }

    pub fn sample(&self, rng: &mut Rng) -> u64 {
        self.quantile(rng.uniform())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_linearly() {
        let c = Cdf::parse("# t\n100 0.5\n\n300 1\n", "t").unwrap();
        // A point mass of 0.5 at 100 B, then linear up to 300 B at 1.
        assert_eq!(c.quantile(0.0), 100);
        assert_eq!(c.quantile(0.49), 100);
        assert_eq!(c.quantile(0.75), 200); // 100 + (0.75 − 0.5)/0.5 · 200
        // Mean: 0.5 · 100 + 0.5 · (100 + 300)/2 = 150.
        assert_eq!(c.mean(), 150.0);
    }

    #[test]
    fn builtin_means() {
        // Web search: Σ Δp · mid size over the DCTCP_CDF points (hand sum: 1 711 250 B).
        let ws = Cdf::parse(BUILTIN[0].1, "web-search").unwrap();
        assert!((ws.mean() - 1_711_250.0).abs() < 1e-6, "{}", ws.mean());
        let dm = Cdf::parse(BUILTIN[1].1, "data-mining").unwrap();
        assert!((dm.mean() - 12_658_198.6).abs() < 1e-3, "{}", dm.mean());
        // FB Hadoop: Σ Δp · mid size over the HPCC artifact's FbHdp points (hand sum: 120 420.75 B).
        let fb = Cdf::parse(BUILTIN[2].1, "fb-hadoop").unwrap();
        assert!((fb.mean() - 120_420.75).abs() < 1e-6, "{}", fb.mean());
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(Cdf::parse("10 0.2\n5 0.5\n", "f.cdf").unwrap_err().split(": ").next(), Some("f.cdf:2"));
        assert!(Cdf::parse("10 0.2\n20 0.9\n", "f").unwrap_err().starts_with("f:2: the last"));
        assert!(Cdf::parse("10 0.2\nx 1\n", "f").unwrap_err().starts_with("f:2: size"));
        assert!(Cdf::parse("10 1.5\n", "f").unwrap_err().starts_with("f:1:"));
        assert!(Cdf::parse("# only\n", "f").unwrap_err().starts_with("f:1: no points"));
        assert!(Cdf::parse("10 0.2 3\n", "f").unwrap_err().starts_with("f:1: expected"));
    }
}
