//! How every number reaches a reader: one module for the report, the notebooks, the
//! terminal and the exports, so the same value is written the same way everywhere.
//!
//! Conventions: a value that cannot be computed is [`NOT_AVAILABLE`] ("n/a"); an interval
//! is "low–high" (en dash, [`interval`]); a ratio is "3.90x"; bytes use binary units.

/// What a table cell holds when there is no number to show (not measured, or not finite).
pub const NOT_AVAILABLE: &str = "n/a";

/// `text` with its first letter upper-case: a sentence from a phrase ("The seconds ...").
pub fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A number with a sensible count of digits for a table cell: "2407", "36.4", "0.52".
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return NOT_AVAILABLE.into();
    }
    let magnitude = value.abs();
    if magnitude >= 100.0 {
        format!("{value:.0}")
    } else if magnitude >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// Up to two decimals, trailing zeros dropped: "16", "1.5", "0.25" (values mostly whole).
pub fn short_number(value: f64) -> String {
    if !value.is_finite() {
        return NOT_AVAILABLE.into();
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A ratio to two decimals: "3.90x".
pub fn ratio(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}x")
    } else {
        NOT_AVAILABLE.into()
    }
}

/// An interval of two values, each formatted by [`number`]: "10.0–11.0".
pub fn interval(low: f64, high: f64) -> String {
    format!("{}–{}", number(low), number(high))
}

/// An interval of two ratios: "1.20x–1.45x".
pub fn ratio_interval(low: f64, high: f64) -> String {
    format!("{}–{}", ratio(low), ratio(high))
}

/// A ratio with its interval: "3.87x (3.52x–4.10x)".
pub fn ratio_with_interval(ratio: &crate::stats::Ratio) -> String {
    format!("{} ({})", self::ratio(ratio.value), ratio_interval(ratio.low, ratio.high))
}

/// A share (0..1) as a percentage: "12.5%".
pub fn percent(share: f64) -> String {
    if share.is_finite() {
        format!("{}%", short_number(share * 100.0))
    } else {
        NOT_AVAILABLE.into()
    }
}

/// Seconds to one decimal: "6.3 s".
pub fn seconds(seconds: f64) -> String {
    if seconds.is_finite() {
        format!("{seconds:.1} s")
    } else {
        NOT_AVAILABLE.into()
    }
}

/// Bytes in binary units: "48 KiB", "1.5 MiB".
pub fn bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A limit in bytes, exactly, never rounded: "16 MiB" when it is whole, else "1500 bytes"
/// (a limit a flag set is shown as it was given; a measured size is [`bytes`]).
pub fn exact_bytes(bytes: u64) -> String {
    match bytes {
        bytes if bytes >= 1 << 20 && bytes % (1 << 20) == 0 => format!("{} MiB", bytes >> 20),
        bytes if bytes >= 1 << 10 && bytes % (1 << 10) == 0 => format!("{} KiB", bytes >> 10),
        bytes => format!("{bytes} bytes"),
    }
}

/// How a run is named in charts and tables: its hostname and when it started, to the
/// minute ("vm (2026-11-29 21:58 UTC)").
pub fn run_label(hostname: &str, started_utc: &str) -> String {
    let minute = started_utc.get(..16).unwrap_or(started_utc).replace('T', " ");
    format!("{hostname} ({minute} UTC)")
}

/// An experiment's saved config as `key=value` pairs ("strides_bytes=8,64 trials=3").
pub fn config_text(config: &serde_json::Value) -> String {
    let Some(fields) = config.as_object() else { return config.to_string() };
    fields.iter().map(|(key, value)| format!("{key}={}", config_value(value))).collect::<Vec<_>>().join(" ")
}

fn config_value(value: &serde_json::Value) -> String {
    let seconds = value.get("secs").and_then(serde_json::Value::as_u64);
    let nanos = value.get("nanos").and_then(serde_json::Value::as_u64);
    match (value, seconds, nanos) {
        (serde_json::Value::Object(fields), Some(secs), Some(nanos)) if fields.len() == 2 => {
            format!("{}s", secs as f64 + nanos as f64 / 1e9)
        }
        (serde_json::Value::Array(items), _, _) => items.iter().map(config_value).collect::<Vec<_>>().join(","),
        (serde_json::Value::String(text), _, _) => text.clone(),
        _ => value.to_string(),
    }
}

/// "3.87x (interval 3.52x to 4.10x)".
pub fn describe_ratio(ratio: &crate::stats::Ratio) -> String {
    format!("{:.2}x (interval {:.2}x to {:.2}x)", ratio.value, ratio.low, ratio.high)
}

/// "3.87x, interval 3.52x to 4.10x": for use inside parentheses.
pub fn ratio_and_interval(ratio: &crate::stats::Ratio) -> String {
    format!("{:.2}x, interval {:.2}x to {:.2}x", ratio.value, ratio.low, ratio.high)
}

/// "100 000": digits in groups of three, as the article writes counts.
pub fn format_count(count: u64) -> String {
    let digits = count.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            grouped.push(' ');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_about_three_significant_digits() {
        assert_eq!(number(2407.4), "2407");
        assert_eq!(number(36.44), "36.4");
        assert_eq!(number(0.523), "0.52");
        assert_eq!(number(f64::NAN), "n/a");
        assert_eq!(short_number(16.0), "16");
        assert_eq!(short_number(1.5), "1.5");
        assert_eq!(short_number(0.254), "0.25");
    }

    #[test]
    fn intervals_ratios_and_shares_have_one_style() {
        assert_eq!(interval(10.0, 11.0), "10.0–11.0");
        assert_eq!(ratio(3.9), "3.90x");
        assert_eq!(ratio(f64::INFINITY), "n/a");
        assert_eq!(ratio_interval(1.2, 1.45), "1.20x–1.45x");
        let measured = crate::stats::Ratio { value: 3.87, low: 3.52, high: 4.1 };
        assert_eq!(ratio_with_interval(&measured), "3.87x (3.52x–4.10x)");
        assert_eq!(percent(0.125), "12.5%");
    }

    #[test]
    fn bytes_use_binary_units() {
        assert_eq!(bytes(48 * 1024), "48 KiB");
        assert_eq!(bytes(1536 * 1024), "1.5 MiB");
        assert_eq!(bytes(64), "64 B");
        assert_eq!(exact_bytes(16 << 20), "16 MiB");
        assert_eq!(exact_bytes(48 << 10), "48 KiB");
        assert_eq!(exact_bytes(1500), "1500 bytes");
    }

    #[test]
    fn labels_and_configs_read_plainly() {
        assert_eq!(run_label("vm", "2026-11-29T21:58:07Z"), "vm (2026-11-29 21:58 UTC)");
        let config =
            serde_json::json!({"strides_bytes": [8, 64], "warmup": {"secs": 0, "nanos": 500000000}, "mode": "x"});
        assert_eq!(config_text(&config), "mode=x strides_bytes=8,64 warmup=0.5s");
    }
}
