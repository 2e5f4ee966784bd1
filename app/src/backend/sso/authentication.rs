//! Admin → Authentication: the settings of single sign-on and local
//! sign-in where the environment is silent, changed partially and only
//! past the safeguards that keep one way in open; and the provider's
//! discovery, tested on demand.

use std::sync::Arc;

use openidconnect::IssuerUrl;
use secrecy::ExposeSecret;

use super::settings::{self, SsoLayer, SsoSettings};
use super::{admin_layer, provider, store, Sso, SsoError};
use crate::backend::auth::admin::ConfirmedAdmin;
use crate::backend::notifications::Notifier;
use crate::backend::secrets::OIDC_CLIENT_SECRET;
use crate::backend::settings_changes::{self, Area};
use crate::contract::authentication::{
    AuthenticationChange, AuthenticationSettings, Discovery, DiscoveryRequest,
};

/// What can go wrong with Admin → Authentication and Profile's identities.
#[derive(Debug, thiserror::Error)]
pub enum AuthenticationError {
    /// A field is not valid; `field` is its name in the API.
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    /// A safeguard refused the change; says which condition is missing.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    NotFound(String),
    #[error("the client secret cannot be sealed: {0}")]
    Sealing(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<SsoError> for AuthenticationError {
    fn from(error: SsoError) -> Self {
        match error {
            SsoError::Database(error) => Self::Database(error),
            other => Self::Refused(other.to_string()),
        }
    }
}

/// `GET /api/admin/authentication`.
pub async fn read(sso: &Sso) -> Result<AuthenticationSettings, AuthenticationError> {
    let current = sso.current(&sso.pool, &sso.keyring).await?;
    let settings = &current.settings;
    let admin_signed_in_through_provider = match &settings.issuer {
        Some(issuer) => store::admin_signed_in_through(&sso.pool, issuer).await?,
        None => false,
    };
    Ok(AuthenticationSettings {
        oidc_enabled: settings.is_on(),
        issuer_url: settings.issuer.clone(),
        client_id: settings.client_id.clone(),
        client_secret_set: settings.client_secret.is_some(),
        scopes: settings.scopes.join(" "),
        groups_claim: settings.groups_claim.clone(),
        admin_group: settings.admin_group.clone(),
        auto_provision: settings.auto_provision,
        link_by_email: settings.link_by_email,
        button_label: settings.button_label.clone(),
        local_login_enabled: settings.local_login_enabled,
        local_login_break_glass: current.stored.local_login_break_glass,
        admin_signed_in_through_provider,
        fixed_by_environment: sso.environment.layer.set_fields(),
        redirect_uri: sso.redirect_uri(),
        post_logout_redirect_uri: sso.post_logout_redirect_uri(),
    })
}

/// `PUT /api/admin/authentication`: changes what the body names, past the
/// safeguards: single sign-on is switched on only with issuer, client id
/// and secret, and only when the provider's discovery works; local
/// sign-in is switched off only while single sign-on is on and after an
/// administrator has signed in through it; never both off. Changing local
/// sign-in ends a break-glass.
///
/// Only `admin`, an administrator who has just typed their password
/// again, changes them (no token: pointed at a provider of one's own with
/// linking by email, single sign-on hands over every account). A new
/// issuer drops the identities linked at the previous one, in the same
/// transaction; the change is listed for Admin → Status (fields, never
/// values) and mailed to every administrator.
pub async fn change(
    sso: &Sso,
    notifier: &Arc<Notifier>,
    admin: &ConfirmedAdmin,
    change: AuthenticationChange,
) -> Result<AuthenticationSettings, AuthenticationError> {
    let change = checked(change, sso.environment.allow_http)?;
    let environment = &sso.environment.layer;
    refuse_fixed(&change, environment)?;

    let current = sso.current(&sso.pool, &sso.keyring).await?;
    let mut stored = current.stored.clone();
    apply(&mut stored, &change, sso)?;
    let touched_local = change.local_login_enabled.is_some();
    if touched_local {
        stored.local_login_break_glass = false;
    }
    let layer = environment.over(&admin_layer(&stored, &sso.keyring));
    let after = SsoSettings::resolve(
        &layer,
        sso.environment.allow_http,
        stored.local_login_break_glass,
    );

    let touched_oidc =
        change.issuer_url.is_some() || change.client_id.is_some() || change.client_secret.is_some();
    if touched_oidc {
        let missing = after.missing_for_on();
        if !missing.is_empty() && missing.len() < 3 {
            return Err(AuthenticationError::Refused(format!(
                "single sign-on needs the issuer URL, the client id and the client secret together; missing: {}",
                missing.join(", ")
            )));
        }
        if let Some(issuer) = after.issuer.as_deref().filter(|_| after.is_on()) {
            let found = discover_at(sso, issuer).await;
            if let Some(error) = found.error {
                return Err(AuthenticationError::Refused(format!(
                    "the provider's discovery failed, so nothing was changed: {error}"
                )));
            }
        }
    }
    let wants_local = stored.local_login_break_glass || layer.local_login_enabled.unwrap_or(true);
    if (touched_local || touched_oidc) && !wants_local {
        match after.issuer.as_deref().filter(|_| after.is_on()) {
            None if current.settings.local_login_enabled => {
                return Err(AuthenticationError::Refused(
                    "local sign-in can be switched off only while single sign-on is on: set it up first".into(),
                ))
            }
            None => {
                return Err(AuthenticationError::Refused(
                    "local sign-in and single sign-on cannot both be off: switch local sign-in on before switching single sign-on off".into(),
                ))
            }
            Some(issuer) => {
                if !store::admin_signed_in_through(&sso.pool, issuer).await? {
                    return Err(AuthenticationError::Refused(
                        "local sign-in can be switched off only after an administrator has signed in through the identity provider".into(),
                    ));
                }
            }
        }
    }

    let fields = changed_fields(&current.stored, &stored, &change);
    let mut tx = crate::backend::db::write(&sso.pool).await?;
    store::save(&mut tx, &stored).await?;
    // An identity is (issuer, subject): at another issuer the same subject
    // may be anyone, so the links made at the previous one go.
    let dropped = if current.settings.issuer != after.issuer {
        store::drop_identities_not_at(&mut tx, after.issuer.as_deref()).await?
    } else {
        0
    };
    let recorded =
        settings_changes::record(&mut tx, admin.user(), Area::SignIn, &fields, dropped).await?;
    tx.commit().await?;
    tracing::info!(
        changed = ?change.names(),
        oidc = after.is_on(),
        local_login = after.local_login_enabled,
        identities_dropped = dropped,
        by = admin.user().id,
        "authentication settings changed"
    );
    if let Some(recorded) = recorded {
        settings_changes::announce(notifier, &sso.pool, None, recorded).await;
    }
    read(sso).await
}

/// The fields whose stored value the change alters, by their API names
/// (for the list of changes; never a value). A client secret typed again
/// counts as changed: it is sealed anew and cannot be compared. Ending a
/// break-glass counts as a change of local sign-in.
fn changed_fields(
    before: &store::Stored,
    after: &store::Stored,
    change: &AuthenticationChange,
) -> Vec<&'static str> {
    let secret = match &change.client_secret {
        Some(Some(_)) => true,
        Some(None) => before.client_secret.is_some(),
        None => false,
    };
    let local = before.local_login_enabled != after.local_login_enabled
        || (before.local_login_break_glass && !after.local_login_break_glass);
    [
        ("issuerUrl", before.issuer_url != after.issuer_url),
        ("clientId", before.client_id != after.client_id),
        ("clientSecret", secret),
        ("scopes", before.scopes != after.scopes),
        ("groupsClaim", before.groups_claim != after.groups_claim),
        ("adminGroup", before.admin_group != after.admin_group),
        (
            "autoProvision",
            before.auto_provision != after.auto_provision,
        ),
        ("linkByEmail", before.link_by_email != after.link_by_email),
        ("buttonLabel", before.button_label != after.button_label),
        ("localLoginEnabled", local),
    ]
    .into_iter()
    .filter(|(_, changed)| *changed)
    .map(|(field, _)| field)
    .collect()
}

/// `tally auth local-login on`: email and password sign in again, whatever
/// the settings say, until an administrator changes local sign-in.
pub async fn break_glass(pool: &sqlx::SqlitePool) -> Result<(), sqlx::Error> {
    store::break_glass(pool).await
}

/// `POST /api/admin/authentication/discovery`: the provider's discovery
/// document, for the issuer given or the one in force.
pub async fn test_discovery(
    sso: &Sso,
    request: DiscoveryRequest,
) -> Result<Discovery, AuthenticationError> {
    let issuer = match request
        .issuer_url
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
    {
        Some(raw) => {
            settings::check_issuer(raw, sso.environment.allow_http).map_err(|description| {
                AuthenticationError::Invalid {
                    field: "issuerUrl",
                    description,
                }
            })?
        }
        None => sso
            .current(&sso.pool, &sso.keyring)
            .await?
            .settings
            .issuer
            .ok_or(AuthenticationError::Invalid {
                field: "issuerUrl",
                description: "no issuer is set; enter the provider's issuer URL".into(),
            })?,
    };
    Ok(discover_at(sso, &issuer).await)
}

/// Discovery from scratch at `issuer`, through the outbound guard.
async fn discover_at(sso: &Sso, issuer: &str) -> Discovery {
    let failed = |error: String| Discovery {
        ok: false,
        issuer_url: issuer.to_owned(),
        error: Some(error),
        ..Discovery::default()
    };
    let Ok(url) = IssuerUrl::new(issuer.to_owned()) else {
        return failed("not a URL".into());
    };
    let provider = provider::Provider::new(url, sso.http());
    match provider.discover().await {
        Ok(metadata) => Discovery {
            ok: true,
            issuer_url: issuer.to_owned(),
            authorization_endpoint: Some(metadata.authorization_endpoint().to_string()),
            token_endpoint: metadata.token_endpoint().map(ToString::to_string),
            userinfo_endpoint: metadata.userinfo_endpoint().map(ToString::to_string),
            end_session_endpoint: metadata
                .additional_metadata()
                .end_session_endpoint
                .as_ref()
                .map(ToString::to_string),
            error: None,
        },
        Err(error) => {
            tracing::warn!(%error, "discovery test failed");
            failed(match error {
                SsoError::Unavailable(reason) => reason,
                other => other.to_string(),
            })
        }
    }
}

/// The change with its texts trimmed (an empty one clears) and checked.
fn checked(
    mut change: AuthenticationChange,
    allow_http: bool,
) -> Result<AuthenticationChange, AuthenticationError> {
    fn text(
        value: &mut Option<Option<String>>,
        field: &'static str,
        check: impl Fn(&str) -> Result<String, String>,
    ) -> Result<(), AuthenticationError> {
        if let Some(set) = value.as_mut() {
            *set = match set
                .as_deref()
                .map(str::trim)
                .filter(|text| !text.is_empty())
            {
                Some(raw) => Some(
                    check(raw).map_err(|description| AuthenticationError::Invalid {
                        field,
                        description,
                    })?,
                ),
                None => None,
            };
        }
        Ok(())
    }
    text(&mut change.issuer_url, "issuerUrl", |raw| {
        settings::check_issuer(raw, allow_http)
    })?;
    text(&mut change.client_id, "clientId", |raw| {
        settings::check_line(raw, 255)
    })?;
    text(&mut change.client_secret, "clientSecret", |raw| {
        settings::check_line(raw, 1024)
    })?;
    text(&mut change.scopes, "scopes", |raw| {
        let line = settings::check_line(raw, 500)?;
        if line.split_whitespace().all(|scope| {
            scope
                .chars()
                .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\')
        }) {
            Ok(settings::scopes(&line).join(" "))
        } else {
            Err("scopes are words separated by spaces, e.g. openid email profile groups".into())
        }
    })?;
    text(&mut change.groups_claim, "groupsClaim", |raw| {
        settings::check_line(raw, 200)
    })?;
    text(&mut change.admin_group, "adminGroup", |raw| {
        settings::check_line(raw, 200)
    })?;
    text(&mut change.button_label, "buttonLabel", |raw| {
        settings::check_line(raw, 100)
    })?;
    Ok(change)
}

/// Refuses a change to a field the environment sets (it would not take
/// effect), unless it asks for the value the environment already gives.
fn refuse_fixed(
    change: &AuthenticationChange,
    environment: &SsoLayer,
) -> Result<(), AuthenticationError> {
    let text = |asked: &Option<Option<String>>, fixed: &Option<String>| {
        asked.as_ref().is_some_and(|asked| asked != fixed)
    };
    let flag = |asked: &Option<Option<bool>>, fixed: Option<bool>| {
        asked.is_some_and(|asked| asked != fixed)
    };
    let secret_differs = change.client_secret.as_ref().is_some_and(|asked| {
        asked.as_deref()
            != environment
                .client_secret
                .as_ref()
                .map(|secret| secret.expose_secret())
    });
    let scopes = environment.scopes.as_ref().map(|scopes| scopes.join(" "));
    let differs = [
        (
            "issuerUrl",
            environment.issuer.is_some() && text(&change.issuer_url, &environment.issuer),
        ),
        (
            "clientId",
            environment.client_id.is_some() && text(&change.client_id, &environment.client_id),
        ),
        (
            "clientSecret",
            environment.client_secret.is_some() && secret_differs,
        ),
        ("scopes", scopes.is_some() && text(&change.scopes, &scopes)),
        (
            "groupsClaim",
            environment.groups_claim.is_some()
                && text(&change.groups_claim, &environment.groups_claim),
        ),
        (
            "adminGroup",
            environment.admin_group.is_some()
                && text(&change.admin_group, &environment.admin_group),
        ),
        (
            "autoProvision",
            environment.auto_provision.is_some()
                && flag(&change.auto_provision, environment.auto_provision),
        ),
        (
            "linkByEmail",
            environment.link_by_email.is_some()
                && flag(&change.link_by_email, environment.link_by_email),
        ),
        (
            "buttonLabel",
            environment.button_label.is_some()
                && text(&change.button_label, &environment.button_label),
        ),
        (
            "localLoginEnabled",
            environment.local_login_enabled.is_some()
                && flag(&change.local_login_enabled, environment.local_login_enabled),
        ),
    ];
    match differs.iter().find(|(_, differs)| *differs) {
        Some((field, _)) => {
            let variable =
                crate::contract::authentication::environment_variable(field).unwrap_or_default();
            Err(AuthenticationError::Refused(format!(
                "{field} is set by {variable} in the server's environment, which wins; change it there"
            )))
        }
        None => Ok(()),
    }
}

/// The change applied to the stored settings; a new client secret sealed.
fn apply(
    stored: &mut store::Stored,
    change: &AuthenticationChange,
    sso: &Sso,
) -> Result<(), AuthenticationError> {
    fn set<T: Clone>(field: &mut Option<T>, asked: &Option<Option<T>>) {
        if let Some(asked) = asked {
            *field = asked.clone();
        }
    }
    set(&mut stored.issuer_url, &change.issuer_url);
    set(&mut stored.client_id, &change.client_id);
    set(&mut stored.scopes, &change.scopes);
    set(&mut stored.groups_claim, &change.groups_claim);
    set(&mut stored.admin_group, &change.admin_group);
    set(&mut stored.auto_provision, &change.auto_provision);
    set(&mut stored.link_by_email, &change.link_by_email);
    set(&mut stored.button_label, &change.button_label);
    set(&mut stored.local_login_enabled, &change.local_login_enabled);
    if let Some(secret) = &change.client_secret {
        stored.client_secret = match secret {
            Some(secret) => Some(
                sso.keyring
                    .seal(OIDC_CLIENT_SECRET, secret)
                    .map_err(|error| AuthenticationError::Sealing(error.to_string()))?,
            ),
            None => None,
        };
    }
    Ok(())
}

impl AuthenticationChange {
    /// The names of the fields it changes, for the log (never a value).
    fn names(&self) -> Vec<&'static str> {
        settings::FIELDS
            .iter()
            .copied()
            .filter(|field| match *field {
                "issuerUrl" => self.issuer_url.is_some(),
                "clientId" => self.client_id.is_some(),
                "clientSecret" => self.client_secret.is_some(),
                "scopes" => self.scopes.is_some(),
                "groupsClaim" => self.groups_claim.is_some(),
                "adminGroup" => self.admin_group.is_some(),
                "autoProvision" => self.auto_provision.is_some(),
                "linkByEmail" => self.link_by_email.is_some(),
                "buttonLabel" => self.button_label.is_some(),
                "localLoginEnabled" => self.local_login_enabled.is_some(),
                _ => false,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_empty_clears() {
        let change = checked(
            AuthenticationChange {
                issuer_url: Some(Some("  https://id.example.com/  ".into())),
                admin_group: Some(Some("   ".into())),
                scopes: Some(Some("email openid".into())),
                ..AuthenticationChange::default()
            },
            false,
        )
        .unwrap();
        assert_eq!(
            change.issuer_url,
            Some(Some("https://id.example.com/".into()))
        );
        assert_eq!(change.admin_group, Some(None));
        assert_eq!(change.scopes, Some(Some("openid email".into())));
    }

    #[test]
    fn a_bad_field_is_named() {
        let refused = checked(
            AuthenticationChange {
                issuer_url: Some(Some("http://id.example.com".into())),
                ..AuthenticationChange::default()
            },
            false,
        );
        assert!(matches!(
            refused,
            Err(AuthenticationError::Invalid {
                field: "issuerUrl",
                ..
            })
        ));
        let refused = checked(
            AuthenticationChange {
                scopes: Some(Some("openid \"x\"".into())),
                ..AuthenticationChange::default()
            },
            false,
        );
        assert!(matches!(
            refused,
            Err(AuthenticationError::Invalid {
                field: "scopes",
                ..
            })
        ));
    }

    #[test]
    fn only_the_fields_whose_value_changes_are_listed() {
        let before = store::Stored {
            issuer_url: Some("https://id.example.com".into()),
            client_secret: Some("e1:sealed".into()),
            link_by_email: Some(false),
            ..store::Stored::default()
        };
        let after = store::Stored {
            link_by_email: Some(true),
            ..before.clone()
        };
        let change = AuthenticationChange {
            issuer_url: Some(Some("https://id.example.com".into())),
            link_by_email: Some(Some(true)),
            client_secret: Some(Some("typed again".into())),
            ..AuthenticationChange::default()
        };
        assert_eq!(
            changed_fields(&before, &after, &change),
            ["clientSecret", "linkByEmail"]
        );
        let glass = store::Stored {
            local_login_break_glass: true,
            ..before.clone()
        };
        assert_eq!(
            changed_fields(&glass, &before, &AuthenticationChange::default()),
            ["localLoginEnabled"]
        );
        assert!(changed_fields(&before, &before, &AuthenticationChange::default()).is_empty());
    }

    #[test]
    fn the_environment_wins_and_says_so() {
        let environment = SsoLayer {
            local_login_enabled: Some(false),
            button_label: Some("Authentik".into()),
            ..SsoLayer::default()
        };
        let same = AuthenticationChange {
            local_login_enabled: Some(Some(false)),
            button_label: Some(Some("Authentik".into())),
            ..AuthenticationChange::default()
        };
        assert!(refuse_fixed(&same, &environment).is_ok());
        let other = AuthenticationChange {
            button_label: Some(Some("Mine".into())),
            ..AuthenticationChange::default()
        };
        let Err(AuthenticationError::Refused(message)) = refuse_fixed(&other, &environment) else {
            panic!("refused")
        };
        assert!(message.contains("OIDC_BUTTON_LABEL"), "{message}");
        let unset_elsewhere = AuthenticationChange {
            issuer_url: Some(Some("https://id.example.com".into())),
            ..AuthenticationChange::default()
        };
        assert!(refuse_fixed(&unset_elsewhere, &environment).is_ok());
    }
}
