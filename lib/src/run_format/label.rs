//! Run labels: how charts, tables and legends name a run. A room of laptops all called
//! "MacBook-Pro", or three runs on one VM within a second, must still read apart, so a
//! default label carries a short random suffix and runs loaded together are disambiguated.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use unicode_normalization::UnicodeNormalization as _;

use crate::error::ConfigError;

/// The longest label accepted (it heads table columns and legends).
pub const MAX_LABEL_CHARS: usize = 64;

/// Labels the pages use for rows of their own (the room table's medians): a run may not
/// take them, or a table would show two such rows.
pub const RESERVED_LABELS: [&str; 1] = ["room median"];

/// "<hostname>-<4 hex digits>": the suffix mixes the process id, the clock's nanoseconds
/// and a per-process random key, so runs started in the same second get different labels.
/// A host name too long for a label is cut, and its hidden characters written out, so the
/// label passes [`check_label`].
pub fn default_label(hostname: &str) -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_nanos()));
    let host: String = super::visible(hostname).chars().take(MAX_LABEL_CHARS - 5).collect();
    let host = if host.trim().is_empty() { "host".to_string() } else { host };
    format!("{host}-{:04x}", hasher.finish() & 0xffff)
}

/// `label` in Unicode's composed form (NFC), as every label is kept and compared: "é" typed
/// as one character or as "e" and a combining accent is one label.
pub fn normalize_label(label: &str) -> String {
    label.nfc().collect()
}

/// A label (given with `--label`, or read from a run folder or a pack), checked as
/// [`normalize_label`] makes it: 1 to [`MAX_LABEL_CHARS`] characters, no control
/// characters, bidirectional overrides or invisible format characters (a zero-width
/// space would make two labels read alike; a zero-width joiner inside an emoji is one
/// picture, and kept), not only spaces, not one of the
/// [`RESERVED_LABELS`].
pub fn check_label(label: &str) -> Result<(), ConfigError> {
    let shown = || format!("\"{}\"", super::visible(&label.chars().take(MAX_LABEL_CHARS + 1).collect::<String>()));
    let allowed = format!(
        "1 to {MAX_LABEL_CHARS} printable characters, not only spaces, without control characters, \
         bidirectional overrides or invisible format characters (such as a zero-width space)"
    );
    let label = &normalize_label(label);
    let invisible = hides_a_format_character(label);
    if label.trim().is_empty() || invisible || super::check_text(label, MAX_LABEL_CHARS, false).is_err() {
        return Err(ConfigError::new("label", shown(), allowed));
    }
    if RESERVED_LABELS.iter().any(|reserved| label.trim().eq_ignore_ascii_case(reserved)) {
        let allowed = format!("a label other than {:?}: the room table names its own row so", RESERVED_LABELS[0]);
        return Err(ConfigError::new("label", shown(), allowed));
    }
    Ok(())
}

/// Whether `label` holds a format character other than a zero-width joiner between two
/// parts of an emoji ("👩‍💻" is one picture; a joiner anywhere else only hides itself).
fn hides_a_format_character(label: &str) -> bool {
    let chars: Vec<char> = label.chars().collect();
    chars.iter().enumerate().any(|(index, &c)| {
        let joins_emoji = c == '\u{200D}'
            && index.checked_sub(1).is_some_and(|before| is_emoji_part(chars[before]))
            && chars.get(index + 1).is_some_and(|&after| is_emoji_part(after));
        crate::checked::text::is_format(c) && !joins_emoji
    })
}

/// A character of an emoji sequence: a pictograph (U+1F000 to U+1FAFF, skin tones among
/// them; U+2600 to U+27BF) or the emoji variation selector U+FE0F.
fn is_emoji_part(c: char) -> bool {
    matches!(c, '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{FE0F}')
}

/// Makes `labels` unique in place: the second and later holders of a label get " (2)",
/// " (3)", ... appended (skipping any suffix another label already holds).
pub fn disambiguate(labels: &mut [String]) {
    for index in 1..labels.len() {
        if !labels[..index].contains(&labels[index]) {
            continue;
        }
        let base = labels[index].clone();
        let mut copy = 2;
        let unique = loop {
            let candidate = format!("{base} ({copy})");
            if !labels.contains(&candidate) {
                break candidate;
            }
            copy += 1;
        };
        labels[index] = unique;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_labels_differ_within_one_second() {
        let labels: Vec<String> = (0..8).map(|_| default_label("vm")).collect();
        assert!(labels.iter().all(|label| label.starts_with("vm-") && label.len() == "vm-".len() + 4));
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert!(unique.len() >= 7, "{labels:?}");
    }

    #[test]
    fn bad_labels_are_refused_by_name() {
        assert!(check_label("room 3, seat 12").is_ok());
        let error = check_label("  ").unwrap_err().to_string();
        assert!(error.starts_with("invalid label = \"  \": 1 to 64 printable characters, not only spaces"), "{error}");
        assert!(check_label("a\nb").is_err());
        assert!(check_label(&"x".repeat(65)).is_err());
        let error = check_label("seat \u{202E}21").unwrap_err().to_string();
        assert!(error.starts_with("invalid label = \"seat \\u{202e}21\": "), "{error}");
        let error = check_label("Room Median").unwrap_err().to_string();
        assert!(error.ends_with("a label other than \"room median\": the room table names its own row so"), "{error}");
        let error = check_label("seat\u{200B}12").unwrap_err().to_string();
        assert!(error.starts_with("invalid label = \"seat\\u{200b}12\": "), "{error}");
        assert!(error.ends_with("or invisible format characters (such as a zero-width space)"), "{error}");
        assert!(check_label("\u{2060}seat").is_err() && check_label("seat\u{AD}1").is_err());
        // A joiner is kept only inside an emoji: a technologist, a rainbow flag, a skin tone.
        assert!(check_label("seat 12 \u{1F469}\u{200D}\u{1F4BB}").is_ok());
        assert!(check_label("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308} seat").is_ok());
        assert!(check_label("\u{1F468}\u{1F3FD}\u{200D}\u{1F680}").is_ok());
        assert!(check_label("seat\u{200D}12").is_err() && check_label("seat \u{1F469}\u{200D}").is_err());
        assert!(check_label("\u{200D}\u{1F4BB}").is_err() && check_label("\u{1F469}\u{200B}\u{1F4BB}").is_err());
        assert!(check_label(&default_label("host\u{200B}name")).is_ok(), "a host name's are written out");
        assert!(check_label(&default_label(&"h".repeat(300))).is_ok());
        assert!(check_label(&default_label("evil\u{1b}[2Jhost")).is_ok());
    }

    #[test]
    fn labels_are_kept_composed() {
        let decomposed = "cafe\u{0301}";
        assert_eq!(normalize_label(decomposed), "caf\u{e9}");
        assert_eq!(normalize_label("caf\u{e9}"), "caf\u{e9}");
        let mut labels = vec![normalize_label(decomposed), normalize_label("caf\u{e9}")];
        disambiguate(&mut labels);
        assert_eq!(labels, ["caf\u{e9}", "caf\u{e9} (2)"], "alike labels are told apart");
        assert!(check_label(decomposed).is_ok());
    }

    #[test]
    fn duplicates_get_numbered_suffixes() {
        let mut labels: Vec<String> = ["vm", "vm", "mac", "vm (2)", "vm"].map(String::from).to_vec();
        disambiguate(&mut labels);
        assert_eq!(labels, ["vm", "vm (3)", "mac", "vm (2)", "vm (4)"]);
    }
}
