//! The room's secrets: the class code every upload must carry, so that only the room (the
//! people the instructor told it to) can add runs; the teacher key, the teacher's own, that
//! alone removes runs, frees seats, reveals, opens parts and downloads the class; and the
//! seat tokens a seat's first send or guess receives ([`super::seats`]).
//!
//! A generated class code is 6 characters from 31 that are hard to misread (no 0/o, 1/l/i):
//! 31^6, about 8.9e8 codes; a teacher key 10 (8e14), a seat token 16. It is drawn from the standard library's randomly keyed hasher
//! (keys from the operating system's randomness): not a cryptographic secret, but with the
//! per-address rate limit (60 a minute by default) guessing it would take centuries.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use contention::ConfigError;

const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const GENERATED_CHARS: usize = 6;
const TEACHER_KEY_CHARS: usize = 10;
const TOKEN_CHARS: usize = 16;
pub const MIN_CHARS: usize = 4;
pub const MAX_CHARS: usize = 32;

/// A fresh random class code.
pub fn generate() -> String {
    random_word(GENERATED_CHARS)
}

/// A fresh random teacher key.
pub fn teacher_key() -> String {
    random_word(TEACHER_KEY_CHARS)
}

/// A fresh random seat token.
pub fn seat_token() -> String {
    random_word(TOKEN_CHARS)
}

/// `chars` characters of [`ALPHABET`], each from a freshly keyed hasher (at most 12 per
/// hash: 31^12 < 2^64).
fn random_word(chars: usize) -> String {
    let alphabet = ALPHABET.len() as u64;
    let mut word = String::with_capacity(chars);
    while word.len() < chars {
        let mut hasher = RandomState::new().build_hasher();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        hasher.write_u128(now);
        hasher.write_usize(word.len());
        let mut bits = hasher.finish();
        for _ in 0..(chars - word.len()).min(12) {
            word.push(char::from(ALPHABET[(bits % alphabet) as usize]));
            bits /= alphabet;
        }
    }
    word
}

/// A code given with `--code`: [`MIN_CHARS`] to [`MAX_CHARS`] letters, digits, `-` or `_`
/// (it travels in a URL's query and is typed on laptops).
pub fn check(code: &str) -> Result<(), ConfigError> {
    let plain = code.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    if !plain || !(MIN_CHARS..=MAX_CHARS).contains(&code.len()) {
        let allowed = format!("{MIN_CHARS} to {MAX_CHARS} letters, digits, - or _");
        return Err(ConfigError::new("code", format!("{code:?}"), allowed));
    }
    Ok(())
}

/// Whether `given` is `expected`, comparing every byte whatever the first difference, so
/// the time taken does not tell how much of a guess was right.
pub fn matches(expected: &str, given: &str) -> bool {
    let (expected, given) = (expected.as_bytes(), given.as_bytes());
    let differences = expected.iter().zip(given).fold(0u8, |acc, (a, b)| acc | (a ^ b));
    expected.len() == given.len() && differences == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_codes_are_valid_and_differ() {
        let codes: Vec<String> = (0..16).map(|_| generate()).collect();
        assert!(codes.iter().all(|code| code.len() == GENERATED_CHARS && check(code).is_ok()), "{codes:?}");
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert!(unique.len() >= 15, "{codes:?}");
        let (key, token) = (teacher_key(), seat_token());
        assert!(key.len() == TEACHER_KEY_CHARS && check(&key).is_ok() && token.len() == TOKEN_CHARS, "{key} {token}");
        assert_ne!(seat_token(), token);
    }

    #[test]
    fn given_codes_are_checked_by_name() {
        assert!(check("room-12").is_ok());
        let error = check("a b").unwrap_err().to_string();
        assert_eq!(error, "invalid code = \"a b\": 4 to 32 letters, digits, - or _");
        assert!(check("abc").is_err() && check(&"x".repeat(33)).is_err());
    }

    #[test]
    fn only_the_same_code_matches() {
        assert!(matches("k7m3qx", "k7m3qx"));
        for other in ["", "k7m3q", "k7m3qx1", "K7M3QX", "a7m3qx"] {
            assert!(!matches("k7m3qx", other), "{other}");
        }
    }
}
