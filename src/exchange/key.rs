//! `shardGroupKeyFor`: a valid `shardGroupKey` equal on every shard of one CI run.

use serde::Deserialize;

use crate::error::Error;

/// Inputs of [`shard_group_key_for`]. Every shard of a run must pass the same values.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShardGroupKeyInput {
    pub commit_id: String,
    /// The CI run (e.g. `GITHUB_RUN_ID`-`GITHUB_RUN_ATTEMPT`). Nothing is read from the
    /// environment here: when absent, the key depends on the other inputs only, so two runs of
    /// one commit share a key (the JS glue fills it from well-known CI variables).
    pub run_id: Option<String>,
    pub test_runner: Option<String>,
    /// Any JSON (e.g. the runner's project or config name); hashed in canonical form.
    pub config: Option<serde_json::Value>,
}

/// `sw-` followed by 40 lowercase hex characters: the SHA-1 of the length-prefixed inputs, so
/// distinct inputs never collide by concatenation. Matches `^[a-zA-Z0-9_-]+$`, 43 characters.
pub fn shard_group_key_for(input: &ShardGroupKeyInput) -> Result<String, Error> {
    if input.commit_id.trim().is_empty() {
        return Err(Error::invalid_input("shardGroupKeyFor: commitId is required"));
    }
    // serde_json's map is ordered by key, so equal configs serialise equally.
    let config = input.config.as_ref().map(|c| c.to_string());
    let mut h = sha1_smol::Sha1::new();
    h.update(b"shardwise-shard-group-key-v1");
    for field in [Some(&input.commit_id), input.run_id.as_ref(), input.test_runner.as_ref(), config.as_ref()] {
        match field {
            None => h.update(b"-"),
            Some(s) => {
                h.update(format!("+{}:", s.len()).as_bytes());
                h.update(s.as_bytes());
            }
        }
    }
    Ok(format!("sw-{}", h.digest()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::is_valid_shard_group_key;

    fn key(commit: &str, run: Option<&str>, runner: Option<&str>, config: Option<serde_json::Value>) -> String {
        shard_group_key_for(&ShardGroupKeyInput {
            commit_id: commit.into(),
            run_id: run.map(Into::into),
            test_runner: runner.map(Into::into),
            config,
        })
        .unwrap()
    }

    #[test]
    fn keys_are_valid_stable_and_distinct() {
        let k = key("abc", Some("42"), Some("playwright"), Some(serde_json::json!({"b": 1, "a": 2})));
        assert!(is_valid_shard_group_key(&k));
        assert_eq!(k.len(), 43);
        let same: serde_json::Value = serde_json::from_str(r#"{"a":2,"b":1}"#).unwrap();
        assert_eq!(k, key("abc", Some("42"), Some("playwright"), Some(same)));
        let others = [
            key("abc", Some("43"), Some("playwright"), None),
            key("abc", None, Some("playwright"), None),
            key("abc", Some("42"), None, None),
            key("abc4", Some("2"), None, None),
            key("abc", Some(""), None, None),
            key("abc", None, None, None),
        ];
        let all: std::collections::HashSet<_> = others.iter().chain([&k]).collect();
        assert_eq!(all.len(), others.len() + 1);
    }

    #[test]
    fn commit_is_required() {
        assert!(shard_group_key_for(&ShardGroupKeyInput::default()).is_err());
    }
}
