//! The room code: a short word every upload must carry, so that only the room (the people
//! the instructor told it to) can add runs.
//!
//! A generated code is 6 characters from 31 that are hard to misread (no 0/o, 1/l/i):
//! 31^6, about 8.9e8 codes. It is drawn from the standard library's randomly keyed hasher
//! (keys from the operating system's randomness): not a cryptographic secret, but with the
//! per-address rate limit (60 a minute by default) guessing it would take centuries.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use contention::ConfigError;

const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
const GENERATED_CHARS: usize = 6;
pub const MIN_CHARS: usize = 4;
pub const MAX_CHARS: usize = 32;

/// A fresh random code.
pub fn generate() -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    let mut bits = hasher.finish();
    let alphabet = ALPHABET.len() as u64;
    (0..GENERATED_CHARS)
        .map(|_| {
            let index = (bits % alphabet) as usize;
            bits /= alphabet;
            char::from(ALPHABET[index])
        })
        .collect()
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
