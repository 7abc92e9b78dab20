//! Exports `CNSIM_ENGINE_HASH`: a hash of the engine's and the binding's sources (and Cargo.lock),
//! so results computed by different code are never mistaken for one another (`_core.build_id()`).
//! FNV-1a (64-bit) over the sorted relative paths and contents: stable, and needs no extra crate.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = crate_dir.join("../..");
    let mut paths = Vec::new();
    for dir in ["crates/cnsim-engine/src", "crates/cnsim-py/src"] {
        files(&root.join(dir), &mut paths);
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    for file in ["crates/cnsim-engine/Cargo.toml", "Cargo.lock"] {
        paths.push(root.join(file));
        println!("cargo:rerun-if-changed={}", root.join(file).display());
    }
    let mut named: Vec<(String, PathBuf)> = paths
        .into_iter()
        .map(|p| (p.strip_prefix(&root).unwrap_or(&p).to_string_lossy().replace('\\', "/"), p))
        .collect();
    named.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for (name, path) in named {
        let Ok(bytes) = fs::read(&path) else { continue }; // e.g. no Cargo.lock in an unpacked sdist
        fnv1a(&mut hash, name.as_bytes());
        fnv1a(&mut hash, &[0]);
        fnv1a(&mut hash, &(bytes.len() as u64).to_le_bytes());
        fnv1a(&mut hash, &bytes);
    }
    println!("cargo:rustc-env=CNSIM_ENGINE_HASH={hash:016x}");
    println!("cargo:rustc-env=CNSIM_GIT_REV={}", git_revision(&root));
}

/// The checkout's commit (12 hex digits, "-dirty" with uncommitted changes), or "unknown".
fn git_revision(root: &Path) -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            format!("{rev}{}", if dirty { "-dirty" } else { "" })
        }
        _ => "unknown".to_string(),
    }
}
