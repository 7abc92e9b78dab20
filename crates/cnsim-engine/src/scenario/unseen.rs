//! Characters a scenario may not hold: control characters and the bidirectional formatting
//! characters, written as they are or as a basic string's escape. Names reach terminals, tables,
//! figures and file names: an escape character could drive the terminal that prints a summary, and a
//! right-to-left override makes a name display as another (Trojan Source, CVE-2021-42574; rustc
//! refuses them in its source for the same reason, lint `text_direction_codepoint_in_literal`).
//! Tab, line feed and carriage return stay allowed as the text's own layout, not inside a string.

use std::ops::Range;

/// The bidirectional formatting characters (Unicode's Bidi_Control property): ALM, LRM, RLM,
/// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
const BIDI: [char; 12] = ['\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}'];

fn unseen(c: char) -> bool {
    c.is_control() || BIDI.contains(&c)
}

/// The first such character of `text`: its span (the escape's, for an escape) and a message.
/// A light lexer: comments, basic and literal strings (one-line and multi-line), so that escapes
/// count only in basic strings. Malformed TOML is left to the parser's own message.
pub fn first(text: &str) -> Option<(Range<usize>, String)> {
    let mut i = 0;
    // Where `text[i..]` is: in a comment, in a string opened by `quote` (one or three quotes), or neither.
    let (mut comment, mut quote) = (false, None::<&str>);
    while let Some(c) = text[i..].chars().next() {
        let at = i;
        i += c.len_utf8();
        if unseen(c) && !matches!(c, '\t' | '\n' | '\r') {
            return Some((at..i, say(c, "")));
        }
        if c == '\n' {
            comment = false;
            quote = quote.filter(|q| q.len() == 3); // a one-line string ends at the line: the parser says why
            continue;
        }
        match quote {
            _ if comment => {}
            None if c == '#' => comment = true,
            None if c == '"' || c == '\'' => {
                let three = if c == '"' { "\"\"\"" } else { "'''" };
                let q = if text[at..].starts_with(three) { three } else { &three[..1] };
                i = at + q.len();
                quote = Some(q);
            }
            Some(q) if text[at..].starts_with(q) => {
                i = at + q.len();
                quote = None;
            }
            Some(q) if c == '\\' && q.starts_with('"') => {
                let rest = &text[i..];
                let (len, decoded) = match rest.chars().next() {
                    Some('b') => (1, Some('\u{8}')),
                    Some('f') => (1, Some('\u{c}')),
                    Some('e') => (1, Some('\u{1b}')),
                    Some('n') => (1, Some('\n')),
                    Some('t') => (1, Some('\t')),
                    Some('r') => (1, Some('\r')),
                    Some('u') => (5, hex(rest.get(1..5))),
                    Some('U') => (9, hex(rest.get(1..9))),
                    Some('\n') | None => (0, None), // a line-ending backslash, or the text's end
                    Some(other) => (other.len_utf8(), None),
                };
                let end = (i + len).min(text.len());
                if let Some(d) = decoded.filter(|&d| unseen(d)) {
                    return Some((at..end, say(d, ", written as an escape,")));
                }
                i = end;
            }
            _ => {}
        }
    }
    None
}

/// `line` with each such character written `\u{202E}`, for an error that echoes the source line.
pub fn visible(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.chars().any(|c| unseen(c) && c != '\t') {
        return line.into();
    }
    line.chars().map(|c| if unseen(c) && c != '\t' { format!("\\u{{{:04X}}}", c as u32) } else { c.to_string() }).collect::<String>().into()
}

fn hex(digits: Option<&str>) -> Option<char> {
    digits.and_then(|d| u32::from_str_radix(d, 16).ok()).and_then(char::from_u32)
}

fn say(c: char, how: &str) -> String {
    let what = if BIDI.contains(&c) {
        "a bidirectional formatting character, which makes text display as other text"
    } else {
        "a control character, which a terminal printing the name would obey"
    };
    format!("U+{:04X}{how} is {what}: a scenario may not hold one (write names and values in visible characters)", c as u32)
}

#[cfg(test)]
mod tests {
    use super::first;

    fn at(text: &str) -> Option<(usize, usize)> {
        first(text).map(|(r, _)| (r.start, r.end))
    }

    #[test]
    fn control_and_bidi_characters_are_found_as_written_and_as_escapes() {
        let rlo = "[[host]]\nnames = \"H\u{202E}1\"\n";
        assert_eq!(at(rlo), Some((19, 22)));
        assert!(first(rlo).unwrap().1.starts_with("U+202E is a bidirectional formatting character"));
        assert_eq!(at("names = \"H\\u202e1\"\n"), Some((10, 16)));
        assert_eq!(at("names = \"H\\U0000001b1\"\n"), Some((10, 20)));
        assert_eq!(at("names = \"\"\"H\\e\"\"\"\n"), Some((12, 14)));
        assert_eq!(at("names = \"H\\n1\"\n"), Some((10, 12)));
        assert_eq!(at("names = \"H\u{7}1\"\n"), Some((10, 11)));
        assert_eq!(at("# a comment \u{202E}\n"), Some((12, 15)));
        assert_eq!(at("names = \"H\t1\"\n"), None); // a tab as written is layout
        // An unterminated string is the parser's to report: the next line is read as TOML again.
        assert_eq!(at("names = \"H\nx = \"\\u202e\"\n"), Some((16, 22)));
    }

    #[test]
    fn an_echoed_line_shows_them_escaped() {
        assert_eq!(super::visible("names = \"H\u{202E}1\u{1b}\"\t#"), "names = \"H\\u{202E}1\\u{001B}\"\t#");
    }

    #[test]
    fn the_text_s_layout_comments_and_literal_strings_are_left_alone() {
        let fine = "[simulation]\r\n\tduration = \"1ms\" # \\u202e, \\b as words\npath = 'C:\\users\\b'\nx = '''\\e\n'''\ny = \"\"\"a\nb\\\\u202e\"\"\"\nz = \"ü é 名\"\n";
        assert_eq!(first(fine), None);
    }
}
