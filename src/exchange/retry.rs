//! Retry and poll schedules: which outcomes are retried, how long to wait (exponential backoff
//! with seedable jitter, or the server's `Retry-After`), and the poll interval growth.

/// How failed calls are retried. Waits never pass the exchange deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries per call, first one included (>= 1).
    pub max_attempts: u32,
    /// Backoff before the second try; doubled for each later one, capped at `max_delay_ms`.
    pub base_delay_ms: u64,
    pub max_delay_ms: u64,
    /// First wait between polls of the download URL; grows by half each poll up to
    /// `max_poll_interval_ms`.
    pub poll_interval_ms: u64,
    pub max_poll_interval_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            base_delay_ms: 500,
            max_delay_ms: 15_000,
            poll_interval_ms: 500,
            max_poll_interval_ms: 5_000,
        }
    }
}

impl RetryPolicy {
    /// Backoff before try `attempt + 1` (`attempt` >= 1): `d = min(base * 2^(attempt-1), max)`,
    /// jittered uniformly into `[d/2, d]` by `rand` (any u64).
    pub fn backoff_ms(&self, attempt: u32, rand: u64) -> u64 {
        let exp = attempt.saturating_sub(1).min(30);
        let d = self.base_delay_ms.saturating_mul(1 << exp).min(self.max_delay_ms);
        let half = d / 2;
        half + rand % (d - half + 1)
    }

    /// The poll interval after `interval`.
    pub fn next_poll_interval(&self, interval: u64) -> u64 {
        (interval + interval / 2).min(self.max_poll_interval_ms).max(1)
    }
}

/// Statuses worth another try: timeouts, rate limits and server errors.
pub fn is_retryable_status(status: u16) -> bool {
    matches!(status, 408 | 425 | 429) || (500..=599).contains(&status)
}

/// Milliseconds to wait per a `Retry-After` value: delay-seconds or an HTTP date (IMF-fixdate,
/// e.g. `Sun, 06 Nov 1994 08:49:37 GMT`) relative to `now_ms`. `None` when unparseable.
pub fn retry_after_ms(value: &str, now_ms: u64) -> Option<u64> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(secs.saturating_mul(1000));
    }
    let at = parse_http_date(v)?;
    Some(at.saturating_sub(now_ms))
}

/// An IMF-fixdate as milliseconds since the Unix epoch.
fn parse_http_date(s: &str) -> Option<u64> {
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    let rest = s.split_once(", ")?.1;
    let mut parts = rest.split(' ');
    let day: u64 = parts.next()?.parse().ok()?;
    let mon = parts.next()?;
    let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .iter()
        .position(|m| *m == mon)? as u64
        + 1;
    let year: u64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':').map(|x| x.parse::<u64>().ok());
    let (h, m, sec) = (hms.next()??, hms.next()??, hms.next()??);
    if parts.next()? != "GMT" || !(1..=31).contains(&day) || h > 23 || m > 59 || sec > 60 || year < 1970 {
        return None;
    }
    // days from civil (Howard Hinnant), for years >= 1970
    let (y, mo) = if month <= 2 { (year - 1, month + 9) } else { (year, month - 3) };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(((days * 24 + h) * 60 + m) * 60_000 + sec * 1000)
}

/// A small deterministic generator (xorshift64*) for jitter: seeded from the clock in
/// production, fixed in tests.
#[derive(Debug, Clone)]
pub struct Jitter(u64);

impl Jitter {
    pub fn new(seed: u64) -> Self {
        Jitter(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_within_jitter_bounds() {
        let p = RetryPolicy::default();
        let mut j = Jitter::new(7);
        for attempt in 1..10 {
            let d = (500u64 << (attempt - 1)).min(15_000);
            let w = p.backoff_ms(attempt, j.next());
            assert!(w >= d / 2 && w <= d, "attempt {attempt}: {w} not in [{}, {d}]", d / 2);
        }
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(retry_after_ms("3", 0), Some(3000));
        assert_eq!(retry_after_ms(" 0 ", 0), Some(0));
        let t = 784_111_777_000; // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", t - 2000), Some(2000));
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", t + 5000), Some(0));
        assert_eq!(retry_after_ms("Thu, 01 Jan 1970 00:00:00 GMT", 0), Some(0));
        assert_eq!(retry_after_ms("soon", 0), None);
        assert_eq!(retry_after_ms("-1", 0), None);
    }

    #[test]
    fn retryable_statuses() {
        for s in [408, 425, 429, 500, 502, 503, 504] {
            assert!(is_retryable_status(s));
        }
        for s in [400, 401, 403, 404, 409, 413, 422] {
            assert!(!is_retryable_status(s));
        }
    }
}
