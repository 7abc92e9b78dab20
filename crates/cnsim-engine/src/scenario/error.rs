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

/// Where errors point: the file name and the TOML text that was parsed.
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    /// An error at a byte span of the text, or at the file when there is no span.
    pub fn err(&self, span: Option<Range<usize>>, msg: impl fmt::Display) -> ScenarioError {
        let msg = msg.to_string().replace('\n', " ");
        let Some(span) = span else {
            return ScenarioError(format!("{}: {}", self.path, msg));
        };
        let start = span.start.min(self.text.len());
        let line_no = self.text[..start].matches('\n').count() + 1;
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let col = self.text[line_start..start].chars().count() + 1;
        let line = self.text[line_start..].lines().next().unwrap_or("").trim();
        ScenarioError(format!("{}:{}:{}: {} (at: {})", self.path, line_no, col, msg, line))
    }
}
