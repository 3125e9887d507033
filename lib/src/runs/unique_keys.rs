//! A manifest names each key once: JSON allows a key twice in one object, and a reader
//! would silently keep the last value (a label given twice, the second a prankster's).

use std::collections::HashSet;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

/// `Err` names a key that an object of the JSON `text` holds twice (and where), or says
/// why `text` is not JSON.
pub fn check_unique_keys(text: &str) -> Result<(), serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(text);
    UniqueKeys::deserialize(&mut reader).map(|_| ())
}

/// A JSON value walked only to check its objects' keys.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Walk)
    }
}

struct Walk;

impl<'de> Visitor<'de> for Walk {
    type Value = UniqueKeys;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(A::Error::custom(format!("the key {key:?} is given twice in one object; each key once")));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_named() {
        assert!(check_unique_keys(r#"{"a": [1, {"b": null}], "c": {"a": true}}"#).is_ok());
        let twice = check_unique_keys(r#"{"label": "seat-01", "x": 1, "label": "seat-02"}"#).unwrap_err();
        assert!(twice.to_string().starts_with("the key \"label\" is given twice in one object"), "{twice}");
        assert!(check_unique_keys(r#"{"m": {"k": 1, "k": 2}}"#).is_err(), "in a nested object too");
    }
}
