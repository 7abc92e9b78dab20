//! docs/scenario-ranges.md against the code: every row's range is checked where the row says
//! (its `file:line` holds the key's check), a scenario that sets the key just outside the range is
//! refused (error) or warned about (warning) with a message naming the key at a line inside the
//! key's table, and the same scenario with the value at the range's edge is accepted without that
//! message. A range changed in the code, a check moved, or a message that lost its line fails here.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One row of the table.
struct Row {
    key: String,
    level: String,
    at: String,
    case: String,
    edge: String,
}

fn cell(s: &str) -> String {
    s.trim().trim_matches('`').replace("\\|", "|").to_string()
}

/// The doc's base scenario (its first ```toml block) and its rows.
fn doc() -> (String, Vec<Row>) {
    let text = std::fs::read_to_string(root().join("docs/scenario-ranges.md")).expect("docs/scenario-ranges.md");
    let base = text.split("```toml\n").nth(1).and_then(|t| t.split("```").next()).expect("a ```toml base scenario").to_string();
    let mut rows = vec![];
    let ranged = text.split(NO_RANGE).next().unwrap_or("");
    for line in ranged.lines().filter(|l| l.starts_with("| `")) {
        // Cells split on " | " (a `|` inside a cell is written `\|`).
        let cells: Vec<String> = line.trim().trim_matches('|').split(" | ").map(cell).collect();
        assert_eq!(cells.len(), 7, "a row needs 7 cells: {line}");
        rows.push(Row { key: cells[0].clone(), level: cells[3].clone(), at: cells[4].clone(), case: cells[5].clone(), edge: cells[6].clone() });
    }
    assert!(rows.len() >= 20, "the doc lists {} ranges", rows.len());
    (base, rows)
}

/// The heading of the doc's second table: keys with no range, and why.
const NO_RANGE: &str = "## Keys without a range";

/// The keys of the second table.
fn unranged() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/scenario-ranges.md")).expect("docs/scenario-ranges.md");
    let table = text.split(NO_RANGE).nth(1).unwrap_or_else(|| panic!("docs/scenario-ranges.md has no section {NO_RANGE:?}"));
    table.lines().filter(|l| l.starts_with("| `")).map(|l| cell(l.trim().trim_matches('|').split(" | ").next().unwrap_or(""))).collect()
}

/// Numeric types a scenario key may have (behind `Option`, `Spanned`, `OneOrMany`): the keys that
/// can have a range. Booleans, names and enumerations are refused by serde outside their values.
const NUMERIC: &[&str] = &["Bytes", "Rate", "Duration", "Amount", "f64", "u8", "u16", "u32", "u64", "usize", "i64", "Vec<u8>"];

/// The numeric fields (`pub name: Type,`) of the scenario's tables: every protocol's `spec.rs` and
/// the scenario model, with the file each is declared in.
fn numeric_keys() -> Vec<(String, String)> {
    let src = root().join("crates/cnsim-engine/src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(src.join("protocols"))
        .expect("protocols/")
        .filter_map(|e| e.ok().map(|e| e.path().join("spec.rs")))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    files.push(src.join("scenario/model.rs"));
    let mut out = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).expect("a spec file");
        for line in text.lines() {
            let Some((name, ty)) = line.trim().strip_prefix("pub ").and_then(|r| r.split_once(": ")) else { continue };
            if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                continue;
            }
            let mut ty = ty.trim_end_matches(',');
            while let Some(inner) = ["Option<", "Spanned<", "OneOrMany<"].iter().find_map(|w| ty.strip_prefix(w)) {
                ty = inner.strip_suffix('>').unwrap_or(inner);
            }
            if NUMERIC.contains(&ty) {
                out.push((f.strip_prefix(root()).unwrap_or(&f).display().to_string(), name.to_string()));
            }
        }
    }
    out
}

/// The base scenario with `[table] key = value` set: the line replaces the key in the table's first
/// occurrence, or is added under its header, or the table is appended. Returns the text and the
/// table's first and last line numbers.
fn with_case(base: &str, case: &str) -> (String, usize, usize) {
    let (header, kv) = case.split_once("] ").map(|(h, kv)| (format!("{h}]"), kv.trim())).expect("case: [table] key = value");
    let key = kv.split('=').next().unwrap().trim();
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    let start = match lines.iter().position(|l| l.trim() == header) {
        Some(h) => h,
        None => {
            lines.push(header.clone());
            lines.len() - 1
        }
    };
    let end = lines[start + 1..].iter().position(|l| l.starts_with('[')).map_or(lines.len(), |i| start + 1 + i);
    match lines[start + 1..end].iter().position(|l| l.split('=').next().map(str::trim) == Some(key)) {
        Some(i) => lines[start + 1 + i] = kv.to_string(),
        None => lines.insert(start + 1, kv.to_string()),
    }
    let end = lines[start + 1..].iter().position(|l| l.starts_with('[')).map_or(lines.len(), |i| start + 1 + i);
    (lines.join("\n") + "\n", start + 1, end)
}

/// The key as messages name it: without the table a row names first (`[[flow]] priority` →
/// `priority`).
fn msg_key(key: &str) -> &str {
    key.rsplit_once("] ").map_or(key, |(_, k)| k)
}

/// The key's last part, as the code names it (`rp.qcn.min_rate` → `min_rate`).
fn leaf(key: &str) -> &str {
    msg_key(key).rsplit('.').next().unwrap()
}

/// A message names the key: dotted (`cp.qcn.qeq`) or in words (`link rate`).
fn names(m: &str, key: &str) -> bool {
    let k = msg_key(key);
    m.contains(k) || m.contains(&k.replace('.', " "))
}

/// The message's line in `ranges.toml`, if it names one.
fn line_of(msg: &str) -> Option<usize> {
    msg.strip_prefix("ranges.toml:")?.split(':').next()?.parse().ok()
}

/// Errors and warnings of the scenario: Err(error) or Ok(warnings).
fn outcome(text: &str) -> Result<Vec<String>, String> {
    cnsim_engine::simulation(text, "ranges.toml", &[], None).map(|s| s.lint()).map_err(|e| e.to_string())
}

#[test]
fn every_range_in_the_doc_is_the_code_s() {
    let (base, rows) = doc();
    outcome(&base).unwrap_or_else(|e| panic!("the doc's base scenario: {e}"));
    let mut wrong = vec![];
    for r in &rows {
        // Where the doc says the check is, the code checks this key.
        let (file, line) = r.at.rsplit_once(':').expect("file:line");
        let line: usize = line.parse().expect("a line number");
        let src = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        if !src.lines().nth(line - 1).is_some_and(|l| l.contains(leaf(&r.key))) {
            let found: Vec<usize> = src.lines().enumerate().filter(|(_, l)| l.contains(leaf(&r.key))).map(|(i, _)| i + 1).collect();
            wrong.push(format!("{}: {file}:{line} does not name {} (lines that do: {found:?})", r.key, leaf(&r.key)));
            continue;
        }
        // Just outside the range: refused, or warned about, at a line of the key's table.
        let (text, first, last) = with_case(&base, &r.case);
        let names = |m: &str| names(m, &r.key);
        let said = match (r.level.as_str(), outcome(&text)) {
            ("error", Err(e)) => Some(e),
            ("warning", Ok(w)) => w.into_iter().find(|m| names(m)),
            (level, o) => {
                wrong.push(format!("{}: {level} expected for `{}`, got {o:?}", r.key, r.case));
                continue;
            }
        };
        match said {
            Some(m) if names(&m) && line_of(&m).is_some_and(|n| (first..=last).contains(&n)) => {}
            m => wrong.push(format!("{}: `{}` should give a {} naming the key at lines {first}–{last}, got {m:?}", r.key, r.case, r.level)),
        }
        // At the range's edge: accepted, without a warning about the key.
        let kv = r.case.split_once("] ").unwrap().1;
        let edge_case = format!("{}] {} = {}", r.case.split_once("] ").unwrap().0, kv.split('=').next().unwrap().trim(), r.edge);
        match outcome(&with_case(&base, &edge_case).0) {
            Ok(w) if !w.iter().any(|m| names(m)) => {}
            o => wrong.push(format!("{}: the edge `{edge_case}` should be accepted quietly, got {o:?}", r.key)),
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/scenario-ranges.md disagrees with the code (lines shifted by an edit: `python scripts/scenario_ranges_lines.py`):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_numeric_key_has_a_row() {
    let keys = numeric_keys();
    assert!(keys.len() >= 150, "the tables' numeric keys: {}", keys.len());
    // A key name the tables declare n times needs n rows (a range, or none with its reason).
    let mut rows: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for k in doc().1.iter().map(|r| r.key.clone()).chain(unranged()) {
        *rows.entry(leaf(&k).to_string()).or_default() += 1;
    }
    let mut declared: std::collections::HashMap<&str, Vec<&str>> = std::collections::HashMap::new();
    for (file, name) in &keys {
        declared.entry(name.as_str()).or_default().push(file.as_str());
    }
    let mut missing: Vec<String> = declared
        .iter()
        .filter(|(name, files)| rows.get(**name).copied().unwrap_or(0) < files.len())
        .map(|(name, files)| format!("{name} (declared in {}; {} row(s))", files.join(", "), rows.get(*name).copied().unwrap_or(0)))
        .collect();
    missing.sort();
    assert!(missing.is_empty(), "numeric scenario keys without a row in docs/scenario-ranges.md (a range, or under {NO_RANGE:?} with the reason):\n{}", missing.join("\n"));
}
