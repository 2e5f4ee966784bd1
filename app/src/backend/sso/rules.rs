//! The decisions of a provider sign-in, without I/O: which account an
//! identity signs into, and what role the provider's groups give it.

use crate::domain::role::Role;

/// What the provider says about the person, from the ID token completed by
/// the userinfo endpoint.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: bool,
    pub name: Option<String>,
    pub groups: Vec<String>,
}

/// What Tally already knows that bears on the decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The account this (issuer, subject) is linked to.
    pub linked: Option<i64>,
    /// The account whose email is the claimed email.
    pub same_email: Option<i64>,
}

/// Which account the sign-in goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The identity is linked: that account.
    Linked(i64),
    /// Link the identity to this account (verified email, linking on).
    Link(i64),
    /// Create an account (with `OIDC_AUTO_PROVISION`).
    Provision { email: String },
    /// No way in; why.
    Refused(Refusal),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown identity, and accounts are not created through the provider.
    NoAccount,
    /// An account has the claimed email, but the provider has not verified
    /// it: never linked, and never a second account.
    UnverifiedEmail,
    /// An account has the (verified) email and linking by email is off:
    /// the person signs in with the password and links from Profile.
    EmailTaken,
    /// A new account needs an email and the provider gave none.
    NoEmail,
}

/// Decides which account a provider sign-in goes to. Identities are keyed
/// on (issuer, subject); the email only ever links when the provider
/// verified it and linking by email is on.
pub fn entry(claims: &Claims, known: Known, link_by_email: bool, auto_provision: bool) -> Entry {
    if let Some(user_id) = known.linked {
        return Entry::Linked(user_id);
    }
    if let Some(user_id) = known.same_email {
        return if !claims.email_verified {
            Entry::Refused(Refusal::UnverifiedEmail)
        } else if link_by_email {
            Entry::Link(user_id)
        } else {
            Entry::Refused(Refusal::EmailTaken)
        };
    }
    if !auto_provision {
        return Entry::Refused(Refusal::NoAccount);
    }
    match claims
        .email
        .as_deref()
        .map(str::trim)
        .filter(|email| !email.is_empty())
    {
        Some(email) => Entry::Provision {
            email: email.to_owned(),
        },
        None => Entry::Refused(Refusal::NoEmail),
    }
}

/// The role of an account after a provider sign-in. The groups decide it
/// for accounts created through the provider: a member of `admin_group` is
/// an administrator, anyone else (or everyone, with no group set) a user.
/// An account that existed before it was linked keeps its own role, so a
/// provider's misconfiguration cannot lock its administrator out.
pub fn role(
    provisioned: bool,
    current: Role,
    groups: &[String],
    admin_group: Option<&str>,
) -> Role {
    if !provisioned {
        return current;
    }
    match admin_group {
        Some(group) if groups.iter().any(|member_of| member_of == group) => Role::Admin,
        _ => Role::User,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(email: Option<&str>, verified: bool) -> Claims {
        Claims {
            subject: "sub-1".into(),
            email: email.map(str::to_owned),
            email_verified: verified,
            ..Claims::default()
        }
    }

    const NOBODY: Known = Known {
        linked: None,
        same_email: None,
    };

    #[test]
    fn a_linked_identity_signs_into_its_account_whatever_the_email_says() {
        let known = Known {
            linked: Some(7),
            same_email: Some(9),
        };
        assert_eq!(
            entry(&claims(Some("x@example.com"), false), known, false, false),
            Entry::Linked(7)
        );
    }

    #[test]
    fn an_unknown_identity_is_refused_unless_accounts_are_created() {
        let who = claims(Some("new@example.com"), true);
        assert_eq!(
            entry(&who, NOBODY, true, false),
            Entry::Refused(Refusal::NoAccount)
        );
        assert_eq!(
            entry(&who, NOBODY, false, true),
            Entry::Provision {
                email: "new@example.com".into()
            }
        );
        assert_eq!(
            entry(&claims(None, true), NOBODY, false, true),
            Entry::Refused(Refusal::NoEmail)
        );
        assert_eq!(
            entry(&claims(Some("  "), true), NOBODY, false, true),
            Entry::Refused(Refusal::NoEmail)
        );
    }

    #[test]
    fn an_email_links_only_when_verified_and_linking_is_on() {
        let known = Known {
            linked: None,
            same_email: Some(3),
        };
        let verified = claims(Some("ann@example.com"), true);
        let unverified = claims(Some("ann@example.com"), false);
        assert_eq!(entry(&verified, known, true, false), Entry::Link(3));
        assert_eq!(
            entry(&verified, known, false, true),
            Entry::Refused(Refusal::EmailTaken)
        );
        // Never linked, and never a second account, whatever the settings.
        for (link, provision) in [(true, true), (true, false), (false, true), (false, false)] {
            assert_eq!(
                entry(&unverified, known, link, provision),
                Entry::Refused(Refusal::UnverifiedEmail)
            );
        }
    }

    #[test]
    fn the_admin_group_decides_for_provisioned_accounts_only() {
        let admins = vec!["family".to_owned(), "tally-admins".to_owned()];
        let others = vec!["family".to_owned()];
        let group = Some("tally-admins");
        assert_eq!(role(true, Role::User, &admins, group), Role::Admin);
        assert_eq!(role(true, Role::Admin, &others, group), Role::User);
        // No group set: nobody becomes an administrator through the provider.
        assert_eq!(role(true, Role::Admin, &admins, None), Role::User);
        // An account that existed before linking keeps its role.
        assert_eq!(role(false, Role::Admin, &others, group), Role::Admin);
        assert_eq!(role(false, Role::User, &admins, group), Role::User);
    }
}
