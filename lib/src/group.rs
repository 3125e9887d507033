//! Rows grouped by a key in one sort, not one pass over every row per group: a saved run
//! may hold up to [`crate::limits::MAX_ROWS`] rows in [`crate::limits::saved::MAX_CASES`]
//! cases, and a pass per case would take minutes.

/// `items` grouped by `key`: the groups in ascending key order, each holding its items in
/// their original order. O(n log n).
pub fn by_key<T, K: Ord + Clone>(items: &[T], key: impl Fn(&T) -> K) -> Vec<(K, Vec<&T>)> {
    let mut keyed: Vec<(K, usize)> = items.iter().enumerate().map(|(index, item)| (key(item), index)).collect();
    keyed.sort();
    let mut groups: Vec<(K, Vec<&T>)> = Vec::new();
    for (key, index) in keyed {
        match groups.last_mut() {
            Some((last, group)) if *last == key => group.push(&items[index]),
            _ => groups.push((key, vec![&items[index]])),
        }
    }
    groups
}

/// [`by_key`], the groups in the order their first item appears.
pub fn by_key_first_seen<T, K: Ord + Clone>(items: &[T], key: impl Fn(&T) -> K) -> Vec<(K, Vec<&T>)> {
    let first_index = |group: &Vec<&T>| group.first().map_or(0, |first| std::ptr::from_ref(*first) as usize);
    let mut groups = by_key(items, key);
    groups.sort_by_key(|(_, group)| first_index(group));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_their_items_in_order() {
        let items = [(2, 'a'), (1, 'b'), (2, 'c'), (3, 'd'), (1, 'e')];
        let groups = by_key(&items, |item| item.0);
        let shown: Vec<(i32, String)> =
            groups.iter().map(|(key, group)| (*key, group.iter().map(|item| item.1).collect())).collect();
        assert_eq!(shown, [(1, "be".to_string()), (2, "ac".into()), (3, "d".into())]);
        let first_seen: Vec<i32> = by_key_first_seen(&items, |item| item.0).iter().map(|(key, _)| *key).collect();
        assert_eq!(first_seen, [2, 1, 3]);
    }
}
