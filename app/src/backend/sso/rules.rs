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
    pub same_email: Option<EmailOwner>,
}

/// The account that has the claimed email, and what of it weighs on
/// linking it by that email.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmailOwner {
    pub user_id: i64,
    /// An instance administrator.
    pub admin: bool,
    /// TOTP or a security key is on.
    pub second_factor: bool,
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
    /// The account with the (verified) email is an administrator's or has
    /// a second factor, which linking by email never hands over: the person
    /// signs in with the password and links from Profile.
    Protected,
}

/// Decides which account a provider sign-in goes to. Identities are keyed
/// on (issuer, subject); the email only ever links when the provider
/// verified it, linking by email is on and the account may be linked that
/// way ([`linkable_by_email`]).
pub fn entry(claims: &Claims, known: Known, link_by_email: bool, auto_provision: bool) -> Entry {
    if let Some(user_id) = known.linked {
        return Entry::Linked(user_id);
    }
    if let Some(owner) = known.same_email {
        return if !claims.email_verified {
            Entry::Refused(Refusal::UnverifiedEmail)
        } else if !link_by_email {
            Entry::Refused(Refusal::EmailTaken)
        } else if !linkable_by_email(owner) {
            Entry::Refused(Refusal::Protected)
        } else {
            Entry::Link(owner.user_id)
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

/// Whether a verified email may link a provider identity to `owner`.
/// Linking by email trusts one flag of the provider's, and some providers
/// have set it for every address (Authentik before 2025.10): on that flag
/// alone, whoever can make an account at the provider with an
/// administrator's email would become that administrator, and a second
/// factor its owner chose would be stepped around. Those accounts link
/// only from Profile, signed in with the password (and its second factor),
/// which proves the person holds the account.
pub fn linkable_by_email(owner: EmailOwner) -> bool {
    !owner.admin && !owner.second_factor
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
        // An administrator with a second factor too: linked from Profile
        // before, the identity decides, not the email.
        let known = Known {
            linked: Some(7),
            same_email: Some(EmailOwner {
                user_id: 9,
                admin: true,
                second_factor: true,
            }),
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

    /// The account (id 3) with the claimed email.
    fn owner(admin: bool, second_factor: bool) -> Option<EmailOwner> {
        Some(EmailOwner {
            user_id: 3,
            admin,
            second_factor,
        })
    }

    #[test]
    fn an_email_links_only_when_verified_and_linking_is_on() {
        let known = Known {
            linked: None,
            same_email: owner(false, false),
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
    fn an_administrator_or_an_account_with_a_second_factor_is_never_linked_by_email() {
        let verified = claims(Some("ann@example.com"), true);
        for (admin, second_factor) in [(true, false), (false, true), (true, true)] {
            let known = Known {
                linked: None,
                same_email: owner(admin, second_factor),
            };
            // Whatever the settings: never linked, and never a second
            // account with the same email.
            for provision in [true, false] {
                assert_eq!(
                    entry(&verified, known, true, provision),
                    Entry::Refused(Refusal::Protected),
                    "admin {admin}, second factor {second_factor}"
                );
            }
            // With linking off the answer stays the one it was.
            assert_eq!(
                entry(&verified, known, false, false),
                Entry::Refused(Refusal::EmailTaken)
            );
        }
        let plain = EmailOwner {
            user_id: 3,
            admin: false,
            second_factor: false,
        };
        assert!(linkable_by_email(plain));
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
