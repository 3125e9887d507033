//! Run packs: one plain-text file holding a run (its manifest and CSVs), to mail or upload
//! from a workshop's laptops. [`super::Run::load`] reads a pack as it reads a folder.
//!
//! # Format (version 1)
//!
//! ```text
//! contention-pack 1
//! file manifest.json 1234
//! <exactly 1234 bytes of the file>
//! file stride.csv 5678
//! <exactly 5678 bytes>
//! end
//! ```
//!
//! Each file is a header line `file NAME BYTES`, its bytes, then a newline. Names are plain
//! file names (`a-z`, `0-9`, `_`, `-`, `.`; not starting with a dot; at most 64 characters;
//! ending in `.json` or `.csv`), each at most once; the pack holds `manifest.json`. Reading
//! refuses a pack over [`MAX_PACK_BYTES`], a file over [`MAX_FILE_BYTES`], more than
//! [`MAX_FILES`] files, bytes that are not UTF-8 text, and anything after `end`.

use std::collections::BTreeMap;
use std::path::Path;

use super::{listed_files, NoteKind, Run, RunFiles, RunsError, MANIFEST};

/// The extension `contention pack` gives its files; [`super::find_runs`] picks them up.
pub const PACK_EXTENSION: &str = "contention-pack";
pub const MAX_PACK_BYTES: u64 = 256 << 20;
pub const MAX_FILE_BYTES: usize = 64 << 20;
pub const MAX_FILES: usize = 32;
const MAGIC: &str = "contention-pack 1";

/// True when `name` may name a file of a run (in a pack, or listed by a manifest): a plain
/// name that cannot reach outside the run.
pub fn is_run_file_name(name: &str) -> bool {
    let plain = name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-' | '.'));
    plain && !name.starts_with('.') && name.len() <= 64 && (name.ends_with(".json") || name.ends_with(".csv"))
}

/// The pack of the run at `path` (a folder, or a pack to copy): the run is read and checked
/// first, so a pack never carries a run that would not load nor a file that cannot be read.
/// An interrupted experiment has no file to pack; a recovered one's file is packed.
pub fn pack_run(path: &Path) -> Result<String, RunsError> {
    let run = Run::load(path)?;
    if let Some(note) = run.notes.iter().find(|note| note.kind == NoteKind::Unreadable) {
        return Err(RunsError::NotPacked { path: super::shown(path), message: note.text.clone() });
    }
    let files = RunFiles::open(path)?;
    let mut contents = vec![(MANIFEST.to_string(), files.text(path, MANIFEST)?)];
    for file in listed_files(&run.manifest, &path.join(MANIFEST))? {
        if files.has(path, &file) {
            let text = files.text(path, &file)?;
            contents.push((file, text));
        }
    }
    encode(&contents)
}

/// The pack of `files` (name, text), in the order given, held to the limits reading checks.
pub fn encode(files: &[(String, String)]) -> Result<String, RunsError> {
    let mut pack = format!("{MAGIC}\n");
    for (name, text) in files {
        let refuse = |message: &str| RunsError::Pack { path: name.clone(), message: message.into() };
        if !is_run_file_name(name) {
            return Err(refuse("not a plain run file name"));
        }
        if text.len() > MAX_FILE_BYTES {
            return Err(refuse("larger than a pack's file may be"));
        }
        pack.push_str(&format!("file {name} {}\n{text}\n", text.len()));
    }
    pack.push_str("end\n");
    Ok(pack)
}

/// Reads the pack at `path` into its files by name, checking every limit of the format.
pub fn read(path: &Path) -> Result<BTreeMap<String, String>, RunsError> {
    let shown = super::shown(path);
    let fail = |message: String| RunsError::Pack { path: shown.clone(), message };
    let size = std::fs::metadata(path).map_err(|source| RunsError::Read { path: shown.clone(), source })?.len();
    if size > MAX_PACK_BYTES {
        return Err(fail(format!("{size} bytes, more than the {MAX_PACK_BYTES} a pack may hold")));
    }
    let bytes = std::fs::read(path).map_err(|source| RunsError::Read { path: shown.clone(), source })?;
    let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text: not a pack".into()))?;
    decode(&text).map_err(fail)
}

fn decode(text: &str) -> Result<BTreeMap<String, String>, String> {
    if text.starts_with(&format!("{MAGIC}\r\n")) {
        return Err("its lines end in CR LF (Windows line endings), not LF: packs are byte-exact, so one \
                    converted on the way (a mail client, a Windows editor, git's autocrlf) cannot be read; send \
                    the file unchanged, as an attachment, or pack the run again"
            .into());
    }
    let mut rest = text
        .strip_prefix(MAGIC)
        .and_then(|rest| rest.strip_prefix('\n'))
        .ok_or_else(|| format!("does not start with '{MAGIC}': not a pack (packs are written by `contention pack`)"))?;
    let mut files = BTreeMap::new();
    loop {
        let (line, after) = rest.split_once('\n').ok_or("ends before its 'end' line: the pack is truncated")?;
        if line == "end" {
            if !after.is_empty() {
                return Err("holds bytes after its 'end' line".into());
            }
            break;
        }
        let (name, length) = file_header(line)?;
        if files.len() == MAX_FILES {
            return Err(format!("holds more than {MAX_FILES} files"));
        }
        let content = after.get(..length).ok_or_else(|| format!("{name} is cut short: the pack is truncated"))?;
        rest = after[length..].strip_prefix('\n').ok_or_else(|| format!("{name} is not {length} bytes long"))?;
        if files.insert(name.to_string(), content.to_string()).is_some() {
            return Err(format!("holds {name} twice"));
        }
    }
    if !files.contains_key(MANIFEST) {
        return Err(format!("holds no {MANIFEST}"));
    }
    Ok(files)
}

/// `file NAME BYTES`, with the name confined and the size within the limit.
fn file_header(line: &str) -> Result<(&str, usize), String> {
    let shown = super::visible(&line.chars().take(80).collect::<String>());
    let mut words = line.split(' ');
    let (Some("file"), Some(name), Some(length), None) = (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(format!("expected 'file NAME BYTES', found '{shown}'"));
    };
    if !is_run_file_name(name) {
        let name = super::visible(name);
        return Err(format!("'{name}' is not a plain run file name (a-z, 0-9, _ - ., ending .json or .csv)"));
    }
    // Decimal digits only: no sign, no other base.
    let digits = !length.is_empty() && length.len() <= 20 && length.bytes().all(|byte| byte.is_ascii_digit());
    let length: usize = length
        .parse()
        .ok()
        .filter(|_| digits)
        .ok_or_else(|| format!("{name}: '{}' is not a size in bytes (decimal digits)", super::visible(length)))?;
    if length > MAX_FILE_BYTES {
        return Err(format!("{name}: {length} bytes, more than the {MAX_FILE_BYTES} a file may hold"));
    }
    Ok((name, length))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(name, text)| (name.to_string(), text.to_string())).collect()
    }

    #[test]
    fn packs_decode_to_the_files_encoded() {
        let given = files(&[("manifest.json", "{}\n"), ("stride.csv", "a,b\n1,2\n")]);
        let decoded = decode(&encode(&given).unwrap()).unwrap();
        assert_eq!(decoded.into_iter().collect::<Vec<_>>(), given);
    }

    #[test]
    fn names_outside_the_run_are_refused() {
        for name in ["../manifest.json", "/etc/passwd.csv", ".hidden.csv", "a/b.csv", "run.sh", "Stride.csv"] {
            assert!(!is_run_file_name(name), "{name}");
        }
        let text = "contention-pack 1\nfile ../x.csv 1\na\nend\n";
        assert!(decode(text).unwrap_err().contains("'../x.csv' is not a plain run file name"));
    }

    #[test]
    fn damaged_packs_say_what_is_wrong() {
        let good = encode(&files(&[("manifest.json", "{}")])).unwrap();
        let cases = [
            ("hello", "does not start with 'contention-pack 1'"),
            (&good[..good.len() - 4], "truncated"),
            (&format!("{good}more"), "after its 'end' line"),
            ("contention-pack 1\nfile manifest.json 99999999999\n", "more than the"),
            ("contention-pack 1\nfile stride.csv 0\n\nend\n", "holds no manifest.json"),
            ("contention-pack 1\nfile manifest.json 50\n{}\nend\n", "cut short"),
            ("contention-pack 1\r\nfile manifest.json 2\r\n{}\r\nend\r\n", "its lines end in CR LF"),
            ("contention-pack 1\nfile manifest.json +2\n{}\nend\n", "'+2' is not a size in bytes"),
            ("contention-pack 1\nfile manifest.json 0x2\n{}\nend\n", "'0x2' is not a size in bytes"),
        ];
        for (text, expected) in cases {
            let error = decode(text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
