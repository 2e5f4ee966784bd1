//! A transaction's stable identity (`transactions.provider_transaction_id`
//! from v0.93 on): what survives a disconnect and reconnect of the same
//! bank. Some providers hand out new transaction ids on a reconnect, so the
//! provider's id is not part of it: the account's provider id, the posted
//! day, the signed amount and the description are, plus an ordinal that
//! keeps genuinely identical twins (same day, amount and description in one
//! fetch) apart instead of merging them.
//!
//! Pending transactions are not fingerprinted: they are replaced wholesale
//! by each sync (`pending_id`), because the provider lists them again under
//! a new id, and often a new amount, once they post.

use std::collections::HashMap;

/// What identifies a posted transaction, before its ordinal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    /// The account's id at the provider (stable across reconnects).
    pub account: String,
    /// The posted day, `YYYY-MM-DD` (UTC).
    pub day: String,
    pub amount_minor: i64,
    /// The provider's description, compared without case or spacing.
    pub description: String,
}

impl Identity {
    fn digest(&self) -> u64 {
        let normalized: String = self
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase();
        fnv1a(&format!(
            "{}|{}|{}",
            self.day, self.amount_minor, normalized
        ))
    }
}

/// FNV-1a, 64 bits: stable across builds and platforms (unlike std's
/// hasher), and plenty for telling one account's transactions apart.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The stable ids of one fetch's posted transactions, in input order: the
/// n-th twin of an identity gets ordinal n, so a later fetch of the same
/// days gives every transaction the id it had.
pub fn stable_ids(identities: &[Identity]) -> Vec<String> {
    let mut seen: HashMap<&Identity, u32> = HashMap::new();
    identities
        .iter()
        .map(|identity| {
            let ordinal = seen.entry(identity).or_insert(0);
            let id = format!(
                "{}:{:016x}:{}",
                identity.account,
                identity.digest(),
                ordinal
            );
            *ordinal += 1;
            id
        })
        .collect()
}

/// The id a pending transaction is stored under until it posts.
pub fn pending_id(account: &str, provider_id: &str) -> String {
    format!("{account}:pending:{provider_id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(day: &str, amount_minor: i64, description: &str) -> Identity {
        Identity {
            account: "ACT-1".into(),
            day: day.into(),
            amount_minor,
            description: description.into(),
        }
    }

    #[test]
    fn the_same_transaction_gets_the_same_id_whatever_the_provider_calls_it() {
        let first = stable_ids(&[identity("2026-11-02", -1599, "NETFLIX.COM  ")]);
        let again = stable_ids(&[identity("2026-11-02", -1599, "netflix.com")]);
        assert_eq!(first, again);
        assert!(first[0].starts_with("ACT-1:"));
    }

    #[test]
    fn identical_twins_in_one_fetch_are_both_kept_and_stay_stable() {
        let coffee = identity("2026-11-03", -450, "CAFE");
        let ids = stable_ids(&[
            coffee.clone(),
            identity("2026-11-03", -990, "BOOKS"),
            coffee.clone(),
        ]);
        assert_ne!(ids[0], ids[2]);
        assert!(ids[0].ends_with(":0") && ids[2].ends_with(":1"));
        let refetched = stable_ids(&[coffee.clone(), coffee]);
        assert_eq!(
            (refetched[0].as_str(), refetched[1].as_str()),
            (ids[0].as_str(), ids[2].as_str())
        );
    }

    #[test]
    fn a_different_day_amount_or_account_is_a_different_transaction() {
        let base = identity("2026-11-03", -450, "CAFE");
        let mut other_account = base.clone();
        other_account.account = "ACT-2".into();
        let ids = stable_ids(&[
            base.clone(),
            identity("2026-11-04", -450, "CAFE"),
            identity("2026-11-03", -451, "CAFE"),
            other_account,
        ]);
        let unique: std::collections::HashSet<_> = ids.iter().collect();
        assert_eq!(unique.len(), 4);
        assert_eq!(pending_id("ACT-1", "tx9"), "ACT-1:pending:tx9");
    }
}
