//! Text that came from outside (a pack's label, a host name, a failure text, a file name):
//! what it may hold, and how to show what it should not have held. A control character
//! sent to a terminal can move the cursor, clear the screen or retitle the window; a
//! bidirectional override (U+202E) reverses every label after it on a page; a line
//! separator breaks a table. Such text is refused where it is read ([`check_text`]) and,
//! where it is shown anyway (an error naming a file), shown escaped ([`visible`]).

/// Unicode's explicit bidirectional formatting characters (UAX #9, section 2): embeddings,
/// overrides, isolates and the implicit marks.
const BIDI_CONTROLS: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}',
    '\u{2067}', '\u{2068}', '\u{2069}',
];

/// Whether `c` changes how the text around it is laid out or shown rather than being
/// shown itself: a control character (C0, DEL, C1), a bidirectional control, a line or
/// paragraph separator, a byte-order mark.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || BIDI_CONTROLS.contains(&c) || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// Unicode's format characters (general category Cf, Unicode 15.1): drawn as nothing, or
/// not as themselves, so "seat\u{200B}12" (a zero-width space) reads as "seat12" beside it.
const FORMAT_RANGES: [(char, char); 21] = [
    ('\u{00AD}', '\u{00AD}'),
    ('\u{0600}', '\u{0605}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{06DD}', '\u{06DD}'),
    ('\u{070F}', '\u{070F}'),
    ('\u{0890}', '\u{0891}'),
    ('\u{08E2}', '\u{08E2}'),
    ('\u{180E}', '\u{180E}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFF9}', '\u{FFFB}'),
    ('\u{110BD}', '\u{110BD}'),
    ('\u{110CD}', '\u{110CD}'),
    ('\u{13430}', '\u{1343F}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0001}', '\u{E0001}'),
    ('\u{E0020}', '\u{E007F}'),
];

/// Whether `c` is a format character (zero-width space, joiner, soft hyphen, tag ...).
pub fn is_format(c: char) -> bool {
    FORMAT_RANGES.iter().any(|&(first, last)| (first..=last).contains(&c))
}

/// Why `text` cannot be shown as it is, if it cannot: a hidden character (line breaks and
/// tabs allowed only in `prose`) or more than `max_chars` characters.
pub fn check_text(text: &str, max_chars: usize, prose: bool) -> Result<(), String> {
    let allowed = |c: char| prose && matches!(c, '\n' | '\t');
    if let Some(c) = text.chars().find(|&c| is_hidden(c) && !allowed(c)) {
        let what = if BIDI_CONTROLS.contains(&c) { "bidirectional control" } else { "control character" };
        return Err(format!("holds the {what} U+{:04X}", u32::from(c)));
    }
    // Bytes bound characters from above: only long texts are counted.
    if text.len() > max_chars && text.chars().count() > max_chars {
        return Err(format!("longer than {max_chars} characters"));
    }
    Ok(())
}

/// `text` with every hidden character written out (`\n`, `\u{1b}`, `\u{202e}`), so it can
/// go to a terminal, a log or a page on one line and show what it holds.
pub fn visible(text: &str) -> String {
    escape(text, |_| false)
}

/// [`visible`], keeping line breaks and tabs: for text of several lines.
pub fn visible_lines(text: &str) -> String {
    escape(text, |c| matches!(c, '\n' | '\t'))
}

/// `text` cut to at most `max_bytes` bytes (at a character boundary), saying how much was
/// cut: for text written into a run that must stay within what reading accepts
/// ([`crate::limits::saved::MAX_TEXT_BYTES`]), such as a long command line.
pub fn clipped(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_string();
    }
    let note = format!(" ... ({} bytes cut)", text.len());
    let mut end = max_bytes.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}", &text[..end])
}

/// A path as messages name it: [`visible`], so a file name cannot end a line or send an
/// escape sequence.
pub fn shown(path: &std::path::Path) -> String {
    visible(&path.display().to_string())
}

/// Hidden characters and format characters are written out, so a message shows them.
fn escape(text: &str, keep: impl Fn(char) -> bool) -> String {
    let written_out = |c: char| is_hidden(c) || is_format(c);
    if !text.chars().any(written_out) {
        return text.to_string();
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !written_out(c) || keep(c) => shown.push(c),
            '\n' | '\r' | '\t' => shown.extend(c.escape_debug()),
            c => shown.extend(c.escape_unicode()),
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_named() {
        assert_eq!(check_text("seat 12", 64, false), Ok(()));
        assert_eq!(check_text("a\u{1b}[2J", 64, false).unwrap_err(), "holds the control character U+001B");
        assert_eq!(check_text("a\u{202E}b", 64, true).unwrap_err(), "holds the bidirectional control U+202E");
        assert!(check_text("a\nb", 64, false).is_err() && check_text("a\nb", 64, true).is_ok());
        assert_eq!(check_text(&"x".repeat(65), 64, false).unwrap_err(), "longer than 64 characters");
        assert!(check_text(&"é".repeat(64), 64, false).is_ok(), "characters, not bytes");
    }

    #[test]
    fn format_characters_are_known() {
        for c in ['\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{AD}', '\u{E0041}'] {
            assert!(is_format(c), "U+{:04X}", u32::from(c));
        }
        for c in ['a', ' ', 'é', '\u{0301}', '\u{3000}', '😀'] {
            assert!(!is_format(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn visible_text_shows_what_it_holds_on_one_line() {
        assert_eq!(visible("plain"), "plain");
        assert_eq!(visible("a\u{1b}[31mb\u{7}\n"), "a\\u{1b}[31mb\\u{7}\\n");
        assert_eq!(visible("\u{202E}abc"), "\\u{202e}abc");
        assert_eq!(visible("seat\u{200B}12\u{AD}"), "seat\\u{200b}12\\u{ad}");
        assert_eq!(visible_lines("a\nb\u{1b}"), "a\nb\\u{1b}");
        assert_eq!(clipped("short", 64), "short");
        let long = clipped(&"é".repeat(100), 64);
        assert!(long.len() <= 64 && long.ends_with(" ... (200 bytes cut)"), "{long}");
    }
}
