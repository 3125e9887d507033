//! The figures the lab's own prose quotes (the articles' inputs worked through again), each
//! computed by the function it belongs with, so a sentence and the lib cannot drift apart.
//! An experiment's `prose.md` writes `{{pool.path_wait}}` where it quotes one ([`fill`] puts the figure
//! in); the guide and the notebooks' tests compare their text with [`value`].

use crate::counters::{
    counters_memory_bytes, ARTICLE_PADDED_SHARD_BYTES, ARTICLE_SHARDS, COMPACT_SHARD_BYTES, EXTRAPOLATED_COUNTERS,
};
use crate::format;
use crate::gc::trigger::heap_minimum_bytes;
use crate::pool::formula::{article_path_threads, article_path_wait_ms, rounded};

/// Every figure by name, with its text as the prose shows it ("6.2 ms", "46", "12.8 MB").
pub fn all() -> Vec<(&'static str, String)> {
    let megabytes = |shards, shard_bytes| {
        format!("{:.1} MB", counters_memory_bytes(EXTRAPOLATED_COUNTERS, shards, shard_bytes) as f64 / 1e6)
    };
    vec![
        // W from the article's two paths (92% hits at 1-2 ms, misses at 40-80 ms), and the
        // threads Goetz's formula gives with it on the article's 8 cores at U = 0.8.
        ("pool.path_wait", format!("{:.1} ms", article_path_wait_ms())),
        ("pool.path_threads", rounded(article_path_threads()).to_string()),
        // 100 000 connections, one 8-byte counter each: padded to 128 B, and compact.
        ("counters.one_per_connection_padded", megabytes(1, ARTICLE_PADDED_SHARD_BYTES)),
        ("counters.one_per_connection_compact", megabytes(1, COMPACT_SHARD_BYTES)),
        // 100 000 connections, the article's 8-shard counter each (1 024 B padded, 64 B compact).
        ("counters.sharded_per_connection_padded", megabytes(ARTICLE_SHARDS, ARTICLE_PADDED_SHARD_BYTES)),
        ("counters.sharded_per_connection_compact", megabytes(ARTICLE_SHARDS, COMPACT_SHARD_BYTES)),
        // Go's heap minimum, 4 MiB x GOGC/100, at the default and the article's two settings.
        ("gc.heap_minimum_100", format::bytes(heap_minimum_bytes(100))),
        ("gc.heap_minimum_2400", format::bytes(heap_minimum_bytes(2400))),
        ("gc.heap_minimum_11300", format::bytes(heap_minimum_bytes(11300))),
    ]
}

/// The text of the figure called `name`, if the lab has one by that name.
pub fn value(name: &str) -> Option<String> {
    all().into_iter().find(|(known, _)| *known == name).map(|(_, text)| text)
}

/// `text` with every `{{name}}` replaced by its figure; a name the lab does not know is left
/// as written (and [`unknown`] lists it, which the prose's test fails on).
pub fn fill(text: &str) -> String {
    let figures = all();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((name, before, after)) = next_placeholder(rest) {
        out.push_str(before);
        match figures.iter().find(|(known, _)| *known == name) {
            Some((_, figure)) => out.push_str(figure),
            None => out.push_str(&rest[before.len()..rest.len() - after.len()]),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The placeholders in `text` whose name the lab has no figure for.
pub fn unknown(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some((name, _, after)) = next_placeholder(rest) {
        if value(name).is_none() {
            names.push(name.to_string());
        }
        rest = after;
    }
    names
}

/// The first `{{name}}` in `text`: its name, the text before it and the text after it.
fn next_placeholder(text: &str) -> Option<(&str, &str, &str)> {
    let start = text.find("{{")?;
    let length = text[start + 2..].find("}}")?;
    let name = &text[start + 2..start + 2 + length];
    Some((name.trim(), &text[..start], &text[start + 2 + length + 2..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_are_the_corrected_ones() {
        let expected = [
            ("pool.path_wait", "6.2 ms"),
            ("pool.path_threads", "46"),
            ("counters.one_per_connection_padded", "12.8 MB"),
            ("counters.one_per_connection_compact", "0.8 MB"),
            ("counters.sharded_per_connection_padded", "102.4 MB"),
            ("counters.sharded_per_connection_compact", "6.4 MB"),
            ("gc.heap_minimum_100", "4 MiB"),
            ("gc.heap_minimum_2400", "96 MiB"),
            ("gc.heap_minimum_11300", "452 MiB"),
        ];
        for (name, text) in expected {
            assert_eq!(value(name).as_deref(), Some(text), "{name}");
        }
        assert_eq!(all().len(), expected.len(), "a new figure gets its expected text here");
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_named() {
        assert_eq!(fill("W = {{pool.path_wait}}, N = {{ pool.path_threads }}."), "W = 6.2 ms, N = 46.");
        assert_eq!(fill("{{gc.nope}} and {{gc.heap_minimum_2400}}"), "{{gc.nope}} and 96 MiB");
        assert_eq!(fill("no placeholder, a lone {{ brace"), "no placeholder, a lone {{ brace");
        assert_eq!(unknown("{{gc.nope}} {{pool.path_wait}} {{x}}"), ["gc.nope", "x"]);
        assert!(unknown("plain text").is_empty());
    }
}
