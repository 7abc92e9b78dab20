//! Node-name lists with ranges: "S1..S6" stands for S1, S2, …, S6.

/// Names one range may stand for (a scenario may list several ranges).
pub const MAX_RANGE: u64 = 100_000;

/// Expand one name or range. Errors say what is wrong with the range.
pub fn expand(s: &str) -> Result<Vec<String>, String> {
    let Some((a, b)) = s.split_once("..") else {
        return Ok(vec![s.to_string()]);
    };
    let split = |x: &str| {
        let i = x.rfind(|c: char| !c.is_ascii_digit()).map_or(0, |i| i + 1);
        let (p, n) = x.split_at(i);
        n.parse::<u64>().ok().map(|v| (p.to_string(), v, n.len()))
    };
    match (split(a), split(b)) {
        (Some((pa, _, _)), Some((pb, nb, _))) if pa == pb && split(a).is_some_and(|(_, na, _)| na <= nb && nb - na >= MAX_RANGE) => {
            Err(format!("name range {s:?} has more than {MAX_RANGE} names: split it into several ranges"))
        }
        (Some((pa, na, wa)), Some((pb, nb, _))) if pa == pb && na <= nb => {
            // Keep zero padding when the first number has it ("H01..H10").
            let pad = if a.ends_with(&format!("0{}", na)) || (na == 0 && wa > 1) { wa } else { 0 };
            Ok((na..=nb).map(|i| format!("{pa}{i:0pad$}")).collect())
        }
        _ => Err(format!("bad name range {s:?}: expected e.g. \"S1..S6\" (same prefix, ascending numbers)")),
    }
}

/// How many names one name or range stands for, without making them (a bad range counts as one:
/// expanding it reports the error). For the memory estimate, before anything is built.
pub fn count(s: &str) -> u64 {
    let Some((a, b)) = s.split_once("..") else { return 1 };
    fn number(x: &str) -> Option<(&str, u64)> {
        let i = x.rfind(|c: char| !c.is_ascii_digit()).map_or(0, |i| i + 1);
        x[i..].parse::<u64>().ok().map(|v| (&x[..i], v))
    }
    match (number(a), number(b)) {
        (Some((pa, na)), Some((pb, nb))) if pa == pb && na <= nb => (nb - na).min(MAX_RANGE) + 1,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_without_expanding() {
        for s in ["S1..S3", "H08..H10", "SW1", "S3..S1", "H1..H100000"] {
            assert_eq!(count(s), expand(s).map_or(1, |v| v.len() as u64), "{s}");
        }
        assert_eq!(count("H1..H1000000000"), MAX_RANGE + 1);
    }

    #[test]
    fn a_range_too_long_says_so() {
        let e = expand("H1..H1000000").unwrap_err();
        assert!(e.contains("more than 100000 names") && e.contains("split it"), "{e}");
        assert_eq!(expand("H1..H100000").unwrap().len(), 100_000);
    }
    #[test]
    fn ranges() {
        assert_eq!(expand("S1..S3").unwrap(), vec!["S1", "S2", "S3"]);
        assert_eq!(expand("H08..H10").unwrap(), vec!["H08", "H09", "H10"]);
        assert_eq!(expand("SW1").unwrap(), vec!["SW1"]);
        assert!(expand("S3..S1").is_err());
        assert!(expand("S1..R3").is_err());
    }
}
