//! A seat's name as typed on a laptop, matched to the roster's: `seat-3`, `seat-03`,
//! ` Seat 3` and the full-width `ｓｅａｔ-03` are one seat; a name that only looks like a
//! roster seat (`seat-O1` with a letter O, a Cyrillic `ѕеаt-01`) is refused, naming the seat
//! it looks like, rather than shown beside it as another seat.

use unicode_normalization::UnicodeNormalization as _;

/// `name` in Unicode's compatibility form (NFKC: full-width letters become plain ones),
/// without the spaces around it.
pub fn normalised(name: &str) -> String {
    name.nfkc().collect::<String>().trim().to_string()
}

/// The key two names of one seat share: [`normalised`], lowercase, each run of spaces, `_`
/// or `-` one `-`, and each number without its leading zeros.
pub fn seat_key(name: &str) -> String {
    let lower = normalised(name).to_lowercase();
    let mut key = String::with_capacity(lower.len());
    let mut chars = lower.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() || c == '_' || c == '-' {
            while chars.peek().is_some_and(|next| next.is_whitespace() || *next == '_' || *next == '-') {
                chars.next();
            }
            key.push('-');
        } else if c == '0' && !key.ends_with(|last: char| last.is_ascii_digit()) {
            // A leading zero, unless the number is 0 itself.
            if !chars.peek().is_some_and(char::is_ascii_digit) {
                key.push('0');
            }
        } else {
            key.push(c);
        }
    }
    key
}

/// The key of what `name` looks like: [`seat_key`] with each character that reads as
/// another (a digit 0 and a letter o, 1 and l, Cyrillic and Greek letters shaped like Latin
/// ones) replaced by one of its look-alikes.
pub fn skeleton(name: &str) -> String {
    seat_key(&normalised(name).chars().map(look_alike).collect::<String>())
}

/// One character of each group that reads alike (a small table of Unicode's confusables:
/// the Latin look-alikes a prankster's keyboard offers).
fn look_alike(c: char) -> char {
    match c {
        '0' | 'O' | 'o' | 'О' | 'о' | 'Ο' | 'ο' | 'Օ' | 'օ' => 'o',
        '1' | 'l' | 'I' | 'i' | '|' | 'І' | 'і' | 'Ι' | 'ι' | 'ӏ' | 'Ӏ' => 'l',
        'А' | 'а' | 'Α' | 'α' => 'a',
        'В' | 'в' | 'Β' | 'β' => 'b',
        'С' | 'с' | 'Ϲ' | 'ϲ' => 'c',
        'Ԁ' | 'ԁ' => 'd',
        'Е' | 'е' | 'Ε' | 'ε' => 'e',
        'Н' | 'н' | 'Η' => 'h',
        'Ј' | 'ј' => 'j',
        'К' | 'к' | 'Κ' | 'κ' => 'k',
        'М' | 'м' | 'Μ' => 'm',
        'Ν' | 'ν' => 'v',
        'Р' | 'р' | 'Ρ' | 'ρ' => 'p',
        'Ѕ' | 'ѕ' | '5' => 's',
        'Т' | 'т' | 'Τ' | 'τ' => 't',
        'Х' | 'х' | 'Χ' | 'χ' => 'x',
        'У' | 'у' | 'Υ' | 'γ' => 'y',
        'Ζ' | '2' => 'z',
        '8' | 'Ȣ' => 'b',
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2212}' => '-',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_seat_has_one_key_however_it_is_typed() {
        for name in ["seat-3", "seat-03", "Seat 3", " seat_003 ", "ｓｅａｔ-03", "SEAT--3"] {
            assert_eq!(seat_key(name), "seat-3", "{name:?}");
        }
        assert_eq!(seat_key("seat-10"), "seat-10");
        assert_eq!(seat_key("seat-0"), "seat-0");
        assert_eq!(seat_key("room-2-seat-01"), "room-2-seat-1");
        assert_ne!(seat_key("seat-30"), seat_key("seat-3"));
    }

    #[test]
    fn look_alikes_share_a_skeleton_and_not_a_key() {
        for name in ["seat-O1", "ѕеаt-01", "seat-0l", "sеat-01"] {
            assert_ne!(seat_key(name), seat_key("seat-01"), "{name:?}");
            assert_eq!(skeleton(name), skeleton("seat-01"), "{name:?}");
        }
        assert_ne!(skeleton("seat-02"), skeleton("seat-01"));
    }
}
