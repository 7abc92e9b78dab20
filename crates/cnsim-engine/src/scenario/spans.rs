//! Where a key sits inside the table that holds a value: a range check's message names the key
//! (`rp.dcqcn.min_rate`, `tcp.rto_min`, `queue.red.min_th`, `cp.qcn.qeq`), and the error points
//! at that key's own line even when the table is written inline
//! (`rp = { dcqcn = { min_rate = … } }`), not at the first line of the `[[flow]]` or `[[port]]`.

use super::error::Source;
use std::ops::Range;
use toml_edit::{Document, InlineTable, Item, Table, Value};

impl Source<'_> {
    /// The span of the dotted key `path` in the table whose body holds byte `anchor` of the parsed
    /// text (a `[[flow]]`'s `from`, a `[[port]]`'s `at`): the key itself when the table writes it,
    /// else the deepest enclosing key it writes (`rp` of `rp = "dcqcn"`); a path that starts below
    /// the table (`tcp.…` under `transport = { tcp = … }`) is looked for in its nested tables.
    /// None when the table writes none of it. Reads only that table's lines.
    pub fn key_near(&self, anchor: usize, path: &str) -> Option<Range<usize>> {
        let body = self.body_around(anchor);
        let doc = Document::parse(&self.text[body.clone()]).ok()?;
        let keys: Vec<&str> = path.split('.').filter(|k| !k.is_empty()).collect();
        let root = Node::Table(doc.as_table());
        let found = walk(root, &keys).or_else(|| below(root, &keys))?;
        Some(found.start + body.start..found.end + body.start)
    }

    /// The span of `path` under the header `[table]`, as [`Source::key_near`].
    pub fn key_under(&self, table: &str, path: &str) -> Option<Range<usize>> {
        let header = self.header_span(table)?;
        let body = header.start + self.text[header.start..].find('\n')? + 1;
        self.key_near(body, path)
    }

    /// The lines of the table around `anchor`: after the last header line (`[…]`) above it, up to
    /// the next header line.
    fn body_around(&self, anchor: usize) -> Range<usize> {
        let text = self.text;
        let mut at = anchor.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let header = |line: &str| line.trim_start().starts_with('[');
        let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        while start > 0 {
            let prev = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
            if header(&text[prev..start]) {
                break;
            }
            start = prev;
        }
        let mut end = start;
        for line in text[start..].split_inclusive('\n') {
            if end > start && header(line) {
                break;
            }
            end += line.len();
        }
        start..end
    }
}

/// A table as the file writes it: a section (or dotted keys) or an inline `{ … }`.
#[derive(Clone, Copy)]
enum Node<'a> {
    Table(&'a Table),
    Inline(&'a InlineTable),
}

impl<'a> Node<'a> {
    fn of(item: &'a Item) -> Option<Node<'a>> {
        match item {
            Item::Table(t) => Some(Node::Table(t)),
            Item::Value(Value::InlineTable(t)) => Some(Node::Inline(t)),
            _ => None,
        }
    }

    /// The span of `key` (None: the parser kept none) and the table under it, if any.
    fn get(self, key: &str) -> Option<(Option<Range<usize>>, Option<Node<'a>>)> {
        let (k, v) = match self {
            Node::Table(t) => t.get_key_value(key)?,
            Node::Inline(t) => t.get_key_value(key)?,
        };
        Some((k.span(), Node::of(v)))
    }

    fn children(self) -> Vec<Node<'a>> {
        match self {
            Node::Table(t) => t.iter().filter_map(|(_, v)| Node::of(v)).collect(),
            Node::Inline(t) => t.iter().filter_map(|(_, v)| v.as_inline_table().map(Node::Inline)).collect(),
        }
    }
}

/// The deepest key of `keys` written from `node` down (None: not even the first).
fn walk(mut node: Node, keys: &[&str]) -> Option<Range<usize>> {
    let mut best = None;
    for key in keys {
        let Some((span, next)) = node.get(key) else { break };
        best = span.or(best);
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    best
}

/// [`walk`] from the first nested table (depth first) that writes the first of `keys`.
fn below(node: Node, keys: &[&str]) -> Option<Range<usize>> {
    node.children().into_iter().find_map(|c| walk(c, keys).or_else(|| below(c, keys)))
}

#[cfg(test)]
mod tests {
    use super::Source;

    fn line_of(text: &str, anchor: &str, path: &str) -> Option<usize> {
        let src = Source { path: "s.toml", text, orig: text };
        let span = src.key_near(text.find(anchor)?, path)?;
        Some(text[..span.start].matches('\n').count() + 1)
    }

    const FLOWS: &str = "[[flow]]\nfrom = \"A\"\nto = \"B\"\n\n[[flow]]\nfrom = \"C\"\nto = \"D\"\nrp = { dcqcn = {\n  g = 0.5,\n  min_rate = \"1Gbps\" } }\ntransport = { tcp = { mss = 1 } }\n[[port]]\nat = \"S>D\"\nqueue = { red = { min_th = 3 } }\nrp.dcqcn.min_rate = 1\n";

    #[test]
    fn an_inline_key_is_found_in_its_own_table() {
        assert_eq!(line_of(FLOWS, "\"C\"", "rp.dcqcn.min_rate"), Some(10));
        assert_eq!(line_of(FLOWS, "\"C\"", "rp.dcqcn.g"), Some(9));
        assert_eq!(line_of(FLOWS, "\"C\"", "tcp.mss"), Some(11)); // below `transport`
        assert_eq!(line_of(FLOWS, "\"C\"", "rp.dcqcn.kmax"), Some(8)); // the deepest written: `dcqcn`
        assert_eq!(line_of(FLOWS, "\"A\"", "rp.dcqcn.min_rate"), None); // the first flow writes no rp
        assert_eq!(line_of(FLOWS, "\"S>D\"", "queue.red.min_th"), Some(14));
        assert_eq!(line_of(FLOWS, "\"S>D\"", "rp.dcqcn.min_rate"), Some(15)); // dotted keys
        assert_eq!(line_of(FLOWS, "\"S>D\"", "a"), None);
    }
}
