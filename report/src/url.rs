//! The one piece of URL text both the room's pages and `--send` write: a query or path
//! value percent-encoded. A leaf: the room and its client both use it, neither each other.

/// `text` with every byte but `A-Z a-z 0-9 - . _ ~` written `%XX` (RFC 3986's unreserved).
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_percent_encoded() {
        assert_eq!(percent_encode("ab-C_9"), "ab-C_9");
        assert_eq!(percent_encode("a b&c=é"), "a%20b%26c%3D%C3%A9");
    }
}
