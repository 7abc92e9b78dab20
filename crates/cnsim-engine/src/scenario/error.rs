//! One-line scenario errors: `FILE:LINE:COL: message (at: <source line>)`.

use std::fmt;
use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ScenarioError {}

/// Where errors point: the file name, the TOML text that was parsed, and the file's own text when
/// `--set` overrides changed it (so that line numbers are the file's).
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub orig: &'a str,
}

impl Source<'_> {
    /// An error at a byte span of the parsed text, or at the file when there is no span.
    pub fn err(&self, span: Option<Range<usize>>, msg: impl fmt::Display) -> ScenarioError {
        let msg = short_numbers(&user_words(&msg.to_string().replace('\n', " ")));
        let Some(span) = span else {
            return ScenarioError(format!("{}: {}", self.path, msg));
        };
        let start = span.start.min(self.text.len());
        let line_no = self.text[..start].matches('\n').count() + 1;
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let col = self.text[line_start..start].chars().count() + 1;
        let line = self.text[line_start..].lines().next().unwrap_or("");
        let line = &*super::unseen::visible(line);
        if self.orig == self.text {
            return ScenarioError(format!("{}:{}:{}: {} (at: {})", self.path, line_no, col, msg, line.trim()));
        }
        // Overrides may have moved lines: find the same line in the file, nearest the parsed
        // position; failing that, the line of the same key (its value was overridden).
        let nearest = |pred: &dyn Fn(&str) -> bool| {
            self.orig.lines().enumerate().filter(|(_, l)| pred(l)).min_by_key(|(i, _)| (*i as i64 + 1 - line_no as i64).abs()).map(|(i, _)| i + 1)
        };
        let key = |l: &str| l.split_once('=').map(|(k, _)| k.trim().to_string());
        let found = nearest(&|l| l == line).map(|n| (n, "")).or_else(|| {
            let k = key(line)?;
            nearest(&|l| key(l).as_deref() == Some(k.as_str())).map(|n| (n, "with --set: "))
        });
        match found {
            Some((n, note)) => ScenarioError(format!("{}:{}:{}: {}{} (at: {})", self.path, n, col, note, msg, line.trim())),
            None => ScenarioError(format!("{}: with --set: {} (at: {})", self.path, msg, line.trim())),
        }
    }

    /// An error about `[table]` whose message begins with the key it is about (`table.key …`, as
    /// the protocols' range checks word them): points at that key's line when the file has it.
    pub fn table_err(&self, table: &str, msg: impl fmt::Display) -> ScenarioError {
        let msg = msg.to_string();
        let rest = msg.strip_prefix(table).and_then(|r| r.strip_prefix('.')).unwrap_or("");
        let key = &rest[..rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len())];
        self.key_err(table, key, &msg)
    }

    /// An error about `key` of `[table]`: points at the key's line when the file has it.
    pub fn key_err(&self, table: &str, key: &str, msg: impl fmt::Display) -> ScenarioError {
        self.err(self.key_span(table, key), msg)
    }

    /// An error about the dotted key `path` (e.g. `cp.qcn.qeq`): at the key's line in its
    /// `[table]`, else at the line of the nearest enclosing table or key the file has (a table
    /// given inline, `cp = { qcn = { … } }`, is found by its outermost key), else at the file.
    pub fn path_err(&self, path: &str, msg: impl fmt::Display) -> ScenarioError {
        self.err(self.path_span(path), msg)
    }

    /// Where [`Source::path_err`] points.
    pub fn path_span(&self, path: &str) -> Option<Range<usize>> {
        let mut p = path;
        loop {
            let (table, key) = p.rsplit_once('.').unwrap_or(("", p));
            if let Some(span) = self.key_span(table, key).or_else(|| self.header_span(p)) {
                return Some(span);
            }
            if table.is_empty() {
                return None;
            }
            p = table;
        }
    }

    /// The span of `key` in `[table]` (`table` empty: the top level, before any header).
    fn key_span(&self, table: &str, key: &str) -> Option<Range<usize>> {
        let mut in_table = table.is_empty();
        let mut offset = 0;
        for line in self.text.split_inclusive('\n') {
            let t = line.trim_start();
            if t.starts_with('[') {
                // A `[table]` header (not `[[array]]`), allowing spaces inside the brackets.
                in_table = !table.is_empty()
                    && t.strip_prefix('[')
                        .filter(|r| !r.starts_with('['))
                        .and_then(|r| r.trim_start().strip_prefix(table))
                        .is_some_and(|r| r.trim_start().starts_with(']'));
            } else if in_table && t.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with('=')) {
                let col = line.len() - t.len();
                return Some(offset + col..offset + col + key.len());
            }
            offset += line.len();
        }
        None
    }

    /// The span of the header `[table]`.
    pub(super) fn header_span(&self, table: &str) -> Option<Range<usize>> {
        let mut offset = 0;
        for line in self.text.split_inclusive('\n') {
            let t = line.trim_start();
            let inner = t.strip_prefix('[').filter(|r| !r.starts_with('[')).and_then(|r| r.trim_start().strip_prefix(table));
            if inner.is_some_and(|r| r.trim_start().starts_with(']')) {
                let col = line.len() - t.len();
                return Some(offset + col..offset + col + 1);
            }
            offset += line.len();
        }
        None
    }
}

/// The deserializer's words for the scenario's tables, in a user's: "expected struct QcnCpSpec"
/// names a Rust type the user never sees; the scenario calls it a table.
fn user_words(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("expected ") {
        let (head, tail) = rest.split_at(at + "expected ".len());
        out.push_str(head);
        let word_end = |s: &str| s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
        if let Some(t) = tail.strip_prefix("struct ") {
            out.push_str("a table (e.g. `{}` or a [section] of its own)");
            rest = &t[word_end(t)..];
        } else if let Some(t) = tail.strip_prefix("enum ") {
            out.push_str("one of the forms docs/scenarios.md lists for this key");
            rest = &t[word_end(t)..];
        } else if let Some(t) = tail.strip_prefix("a map") {
            out.push_str("a table");
            rest = t;
        } else if let Some(t) = tail.strip_prefix("a sequence") {
            out.push_str("a list");
            rest = t;
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// A number of more than `LONG_NUMBER` digits, as `{}` writes a huge or tiny `f64` (1e308: 309
/// digits, from serde's messages and the range checks alike), rewritten in exponent form (`1e308`).
/// Only a number that starts a word: digits inside a name (`H000…1`) stay as they are.
fn short_numbers(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let starts_word = !rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
        let len = rest[at..].find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len() - at);
        let number = &rest[at..at + len];
        out.push_str(&rest[..at]);
        match number.parse::<f64>() {
            Ok(x) if starts_word && number.len() > LONG_NUMBER => out.push_str(&format!("{x:e}")),
            _ => out.push_str(number),
        }
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// Digits an error message shows a number with, at most, before it is written `1e308` (a u64 has 20).
const LONG_NUMBER: usize = 24;

#[cfg(test)]
mod tests {
    use super::{short_numbers, user_words};

    #[test]
    fn huge_and_tiny_numbers_are_written_with_an_exponent() {
        let huge = format!("{}", 1e308_f64);
        assert_eq!(huge.len(), 309);
        assert_eq!(short_numbers(&format!("cp.qcn.w must be a number in [0, 1e6], got {huge}")), "cp.qcn.w must be a number in [0, 1e6], got 1e308");
        assert_eq!(short_numbers(&format!("got -{huge}, or `{huge}`")), "got -1e308, or `1e308`");
        assert_eq!(short_numbers(&format!("x = {}", 1.5e-30_f64)), "x = 1.5e-30");
        // Ordinary numbers, a u64's 20 digits and digits inside a name stay as written.
        let kept = format!("got 18446744073709551615 frames, 2.5 s, H{}", "0".repeat(30));
        assert_eq!(short_numbers(&kept), kept);
    }

    #[test]
    fn type_names_become_the_scenario_s_words() {
        assert_eq!(
            user_words("invalid type: boolean `true`, expected struct QcnCpSpec"),
            "invalid type: boolean `true`, expected a table (e.g. `{}` or a [section] of its own)"
        );
        assert_eq!(user_words("invalid type: string \"x\", expected a sequence"), "invalid type: string \"x\", expected a list");
        assert_eq!(user_words("expected enum RpSlot here"), "expected one of the forms docs/scenarios.md lists for this key here");
        assert_eq!(user_words("unknown field `qqeq`, expected one of `qeq`, `w`"), "unknown field `qqeq`, expected one of `qeq`, `w`");
    }
}
