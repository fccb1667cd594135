//! The service base URL: checked once, then joined with endpoint paths (keeping any path
//! prefix) and used to resolve the upload's relative `webUrl`.

use crate::error::{redact_url, Error};

/// A checked `baseUrl`, always ending in `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(String);

impl BaseUrl {
    /// Checks `url`: absolute `http(s)`, a host, no query, fragment, credentials or whitespace.
    pub fn parse(url: &str) -> Result<Self, Error> {
        let bad = |why: &str| Error::invalid_input(format!("baseUrl {} {why}", quote(url)));
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or_else(|| bad("must start with http:// or https://"))?;
        let host = rest.split('/').next().unwrap_or("");
        if host.is_empty() {
            return Err(bad("has no host"));
        }
        if host.contains('@') {
            return Err(bad("must not carry credentials: pass accessToken"));
        }
        if url.contains(['?', '#']) {
            return Err(bad("must not have a query string or fragment"));
        }
        if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("must not contain whitespace"));
        }
        let mut s = url.to_string();
        if !s.ends_with('/') {
            s.push('/');
        }
        Ok(BaseUrl(s))
    }

    /// `path` (relative, e.g. `api/upload/start`) under the base, path prefix kept.
    pub fn join(&self, path: &str) -> String {
        format!("{}{}", self.0, path.trim_start_matches('/'))
    }

    /// `web_url` resolved against the base: absolute URLs unchanged, `/x` against the origin,
    /// `x` against the base (as a directory).
    pub fn resolve(&self, web_url: &str) -> String {
        if web_url.starts_with("http://") || web_url.starts_with("https://") {
            return web_url.to_string();
        }
        if web_url.starts_with('/') {
            let scheme_end = self.0.find("://").map_or(0, |i| i + 3);
            let origin_end = self.0[scheme_end..].find('/').map_or(self.0.len(), |i| scheme_end + i);
            return format!("{}{}", &self.0[..origin_end], web_url);
        }
        self.join(web_url)
    }
}

/// A user-given URL for a message: redacted, and shortened when long.
fn quote(url: &str) -> String {
    let r = redact_url(url);
    if r.chars().count() > 200 {
        format!("{:?}…", r.chars().take(200).collect::<String>())
    } else {
        format!("{r:?}")
    }
}

/// True for an absolute `http(s)` URL, as the service returns for presigned addresses.
pub fn is_http_url(url: &str) -> bool {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    matches!(rest, Some(r) if !r.is_empty() && !r.starts_with('/'))
        && !url.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_keep_the_path_prefix() {
        for base in ["http://h/prefix", "http://h/prefix/"] {
            let b = BaseUrl::parse(base).unwrap();
            assert_eq!(b.join("api/upload/start"), "http://h/prefix/api/upload/start");
            assert_eq!(b.resolve("runs/1"), "http://h/prefix/runs/1");
            assert_eq!(b.resolve("/runs/1"), "http://h/runs/1");
        }
        assert_eq!(BaseUrl::parse("https://h:8080").unwrap().join("api/x"), "https://h:8080/api/x");
        assert_eq!(BaseUrl::parse("https://h").unwrap().resolve("https://o/x"), "https://o/x");
    }

    #[test]
    fn rejects_bad_base_urls() {
        for bad in ["", "h/x", "ftp://h", "http://", "http:///x", "http://h/?a=1", "http://h x", "https://u:p@h/"] {
            let e = BaseUrl::parse(bad).unwrap_err();
            assert_eq!(e.code, crate::ErrorCode::InvalidInput, "{bad}");
            assert!(!e.message.contains("u:p"));
        }
    }
}
