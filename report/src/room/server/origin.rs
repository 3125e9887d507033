//! Which requests may POST: those addressed to the room as it printed itself. A web page
//! elsewhere that a participant opens could otherwise post from the participant's browser
//! (spending that address's minute), and a name that resolves to this machine (DNS
//! rebinding) could reach a room on loopback. So a POST's `Host` must name one of the
//! addresses the room printed (for a room on loopback, `localhost` too), and its `Origin`,
//! which browsers send with every cross-site POST, must be such an address's page. The
//! room sets no cookies and its page posts without any, so no request carries a credential
//! the browser adds by itself. Checked before the code and the rate limit: a refused POST
//! costs its client nothing.

use std::net::SocketAddr;

use axum::http::{header, HeaderMap};

/// The hosts and origins the room answers POSTs for.
#[derive(Debug, Clone, Default)]
pub struct Addressed {
    hosts: Vec<String>,
    origins: Vec<String>,
    /// The printed addresses, as a refusal names them.
    printed: String,
}

impl Addressed {
    /// The room's `printed` addresses (each `IP:PORT`).
    pub fn new(printed: &[SocketAddr]) -> Self {
        let printed_urls: Vec<String> = printed.iter().map(|address| format!("http://{address}")).collect();
        let mut allowed = Self { printed: printed_urls.join(", "), ..Self::default() };
        for address in printed {
            let ip = match address.ip() {
                std::net::IpAddr::V6(v6) => format!("[{v6}]"),
                v4 => v4.to_string(),
            };
            let mut hosts = vec![ip];
            if address.ip().is_loopback() {
                hosts.push("localhost".into());
            }
            for host in hosts {
                allowed.origins.push(format!("http://{host}:{}", address.port()));
                if address.port() == 80 {
                    allowed.origins.push(format!("http://{host}"));
                }
                allowed.hosts.push(host);
            }
        }
        allowed
    }

    /// `Err` says why a POST with `headers` is not taken.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        let host = headers.get(header::HOST).and_then(|value| value.to_str().ok()).unwrap_or("");
        if !self.hosts.iter().any(|allowed| host_part(host).eq_ignore_ascii_case(allowed)) {
            return Err(format!(
                "this room takes runs sent to the addresses it printed ({}), not to Host {host:?}",
                self.printed
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !self.origins.iter().any(|allowed| origin.eq_ignore_ascii_case(allowed)) {
                return Err(format!(
                    "a page from {origin:?} may not send runs here: send from the room's own page ({})",
                    self.printed
                ));
            }
        }
        Ok(())
    }
}

/// `HOST` of `HOST:PORT` or `[V6]:PORT`.
fn host_part(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn only_the_printed_addresses_may_post() {
        let printed: Vec<SocketAddr> = vec!["192.168.1.20:8765".parse().unwrap(), "127.0.0.1:8765".parse().unwrap()];
        let allowed = Addressed::new(&printed);
        for (host, origin) in [
            ("192.168.1.20:8765", None),
            ("192.168.1.20", None),
            ("127.0.0.1:8765", Some("http://127.0.0.1:8765")),
            ("localhost:8765", Some("http://localhost:8765")),
        ] {
            assert_eq!(allowed.check(&headers(host, origin)), Ok(()), "{host} {origin:?}");
        }
        let error = allowed.check(&headers("evil.example:8765", None)).unwrap_err();
        assert!(error.starts_with("this room takes runs sent to the addresses it printed"), "{error}");
        assert!(error.contains("http://192.168.1.20:8765, http://127.0.0.1:8765"), "{error}");
        for origin in ["http://evil.example", "http://192.168.1.20:8888", "null"] {
            let error = allowed.check(&headers("192.168.1.20:8765", Some(origin))).unwrap_err();
            assert!(error.starts_with(&format!("a page from {origin:?} may not send runs here")), "{error}");
        }
        assert!(allowed.check(&HeaderMap::new()).is_err(), "a POST without Host is refused");
        let v6 = Addressed::new(&["[::1]:80".parse().unwrap()]);
        assert!(v6.check(&headers("[::1]", Some("http://[::1]"))).is_ok());
    }
}
