//! JSON read with every object member kept, in the order written: serde_json's own map keeps
//! only the last of a member name written twice, which silently dropped shots of a counts file
//! that repeats a bit string (issue 30 item 3).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt;

/// A JSON value whose objects keep every member, repeated names included. Nesting is bounded
/// by serde_json's recursion limit (128).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Json {
    /// An object's members in the order written.
    Object(Vec<(String, Json)>),
    /// Any other value (arrays are not looked into).
    Other(Value),
}

impl Json {
    /// The value as a whole non-negative number, if it is one.
    pub(super) fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Other(value) => value.as_u64(),
            Json::Object(_) => None,
        }
    }
}

impl fmt::Display for Json {
    /// The value as JSON (an object's members as written).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Other(value) => write!(f, "{value}"),
            Json::Object(members) => {
                f.write_str("{")?;
                for (k, (name, value)) in members.iter().enumerate() {
                    let separator = if k == 0 { "" } else { "," };
                    write!(f, "{separator}{}:{value}", Value::from(name.as_str()))?;
                }
                f.write_str("}")
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] from serde's events.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Other(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Other(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Other(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        // JSON has no non-finite numbers, so from_f64 always succeeds on parsed input.
        Ok(Json::Other(Value::from(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Other(Value::from(v)))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Other(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Other(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Json::Other(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some(member) = map.next_entry::<String, Json>()? {
            members.push(member);
        }
        Ok(Json::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::Json;
    use serde_json::Value;

    #[test]
    fn repeated_members_are_all_kept_in_order() {
        let json: Json =
            serde_json::from_str(r#"{"a": 1, "b": {"c": [2]}, "a": 3}"#).expect("json");
        let Json::Object(members) = &json else {
            panic!("{json:?}")
        };
        let names: Vec<&str> = members.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b", "a"]);
        assert_eq!(members[2].1, Json::Other(Value::from(3)));
        assert_eq!(json.to_string(), r#"{"a":1,"b":{"c":[2]},"a":3}"#);
    }
}
