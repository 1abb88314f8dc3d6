//! Links between the documents hold: a markdown link to a file of the repository finds the
//! file (and its heading, after `#`), and a mention of a document with a section in quotes
//! (`docs/strength/engine.md, "Bench signature"`) finds that text in the document. Moving a
//! section (docs/strength.md's history went to docs/strength/) must take its links along.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files whose text may mention documents: the documents themselves, sources and scripts.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if p.is_dir() {
            if !["target", "corpus", "regressions", "__pycache__", "out"].contains(&name) {
                files(&p, out);
            }
        } else if [".md", ".rs", ".py", ".sh", ".js"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            out.push(p);
        }
    }
}

fn all_files() -> Vec<PathBuf> {
    let mut out = vec![
        root().join("README.md"),
        root().join("protocol.md"),
        root().join("CHANGELOG.md"),
    ];
    for dir in ["docs", "src", "scripts", "tests", "examples"] {
        files(&root().join(dir), &mut out);
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.push(slug(line.trim_start_matches('#')));
        }
    }
    out
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn relative(f: &Path) -> String {
    f.strip_prefix(root()).unwrap_or(f).display().to_string()
}

#[test]
fn markdown_links_find_their_files_and_headings() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in all_files()
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(f).expect("readable");
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() {
                f.clone()
            } else {
                f.parent().expect("in a directory").join(path)
            };
            checked += 1;
            if !file.exists() {
                broken.push(format!("{}: {target}: no such file", relative(f)));
            } else if !anchor.is_empty() {
                let page = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&page).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {target}: no such heading", relative(f)));
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn quoted_sections_of_documents_exist() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in all_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        // Comment markers and line breaks between a path and its quote do not count.
        let text = squash(
            &text
                .replace("//!", " ")
                .replace("///", " ")
                .replace("//", " "),
        );
        for (i, _) in text.match_indices("docs/") {
            let rest = &text[i..];
            let Some(end) = rest.find(".md") else {
                continue;
            };
            let path = &rest[..end + 3];
            if path.contains(|c: char| c.is_whitespace() || "<{*`,()".contains(c)) {
                continue;
            }
            let after = &rest[end + 3..];
            let Some(quoted) = after
                .strip_prefix(", \"")
                .or_else(|| after.strip_prefix(" (\""))
                .or_else(|| after.strip_prefix(", section \""))
            else {
                continue;
            };
            let Some(close) = quoted.find('"') else {
                continue;
            };
            let section = &quoted[..close];
            checked += 1;
            match std::fs::read_to_string(root().join(path)) {
                Err(_) => broken.push(format!("{}: {path}: no such file", relative(&f))),
                Ok(page) if !squash(&page).contains(section) => broken.push(format!(
                    "{}: {path}, \"{section}\": not in it",
                    relative(&f)
                )),
                Ok(_) => {}
            }
        }
    }
    assert!(checked > 10, "only {checked} quoted sections found");
    assert!(
        broken.is_empty(),
        "sections not found:\n{}",
        broken.join("\n")
    );
}
