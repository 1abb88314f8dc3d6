//! The lexer the rules read the source with, and the walk over the repository's files.

use std::path::{Path, PathBuf};

/// The languages the rules read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    Js,
}

impl Lang {
    pub fn of(path: &Path) -> Option<Lang> {
        match path.extension()?.to_str()? {
            "rs" => Some(Lang::Rust),
            "py" => Some(Lang::Python),
            "js" => Some(Lang::Js),
            _ => None,
        }
    }
}

/// `text` with its comments blanked out and, unless `keep_strings`, its string (and Rust char)
/// literals replaced by empty ones, so that neither a `//` nor a brace inside a literal is
/// taken for code. Line breaks stay where they were.
pub fn strip(text: &str, lang: Lang, keep_strings: bool) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    let c_comments = lang != Lang::Python;
    // A literal from `i` to `end` (exclusive): kept, or replaced by `empty`.
    let literal = |out: &mut String, from: usize, end: usize, empty: &str| {
        let end = end.min(b.len());
        if keep_strings {
            out.extend(&b[from..end]);
        } else {
            out.push_str(empty);
            out.extend(b[from..end].iter().filter(|&&c| c == '\n'));
        }
        end
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if (c_comments && c == '/' && next == Some('/')) || (lang == Lang::Python && c == '#') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c_comments && c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if lang == Lang::Rust && c == 'r' && (next == Some('"') || next == Some('#')) && {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == '#').count();
            b.get(i + 1 + hashes) == Some(&'"')
        } {
            let hashes = b[i + 1..].iter().take_while(|&&h| h == '#').count();
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let mut j = i + hashes + 2;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += 1;
            }
            i = literal(&mut out, i, j + close.len(), "\"\"");
        } else if lang == Lang::Python
            && (c == '"' || c == '\'')
            && next == Some(c)
            && b.get(i + 2) == Some(&c)
        {
            let close = [c, c, c];
            let mut j = i + 3;
            while j < b.len() && !b[j..].starts_with(&close) {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            i = literal(&mut out, i, j + 3, "\"\"");
        } else if c == '"' || (lang != Lang::Rust && (c == '\'' || c == '`')) {
            let mut j = i + 1;
            while j < b.len() && b[j] != c && (c == '`' || b[j] != '\n') {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            i = literal(&mut out, i, j + 1, "\"\"");
        } else if lang == Lang::Rust
            && c == '\''
            && (b.get(i + 2) == Some(&'\'') || next == Some('\\'))
        {
            // A char literal ('x' or an escape); a lifetime has no closing quote.
            let mut j = i + 1;
            while j < b.len() && b[j] != '\'' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            i = literal(&mut out, i, j + 1, "' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Rust `code` without `#[cfg(test)]` items (a block up to its closing brace, or one statement).
pub fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let end = match (item.find('{'), item.find(';')) {
            (Some(open), semi) if semi.is_none_or(|s| open < s) => {
                let mut depth = 0;
                let mut end = item.len();
                for (i, c) in item.char_indices().skip(open) {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                end
            }
            (_, Some(semi)) => semi + 1,
            _ => item.len(),
        };
        // Keep the line count, so that a finding's line number is the file's.
        out.extend(item[..end].chars().filter(|&c| c == '\n'));
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// Whether a file under `src/` is test code (a `tests/` folder or a `tests.rs` file).
pub fn is_test_file(rel: &Path) -> bool {
    rel.iter().any(|c| c == "tests") || rel.file_name().is_some_and(|n| n == "tests.rs")
}

/// Every file under `dir` (recursively), sorted, skipping build output and hidden folders.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("dir entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "__pycache__" {
                    walk(&path, out);
                }
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// `path` relative to `root`, with `/` separators.
pub fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("under the root")
        .to_string_lossy()
        .replace('\\', "/")
}
