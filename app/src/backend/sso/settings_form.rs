//! Admin → Authentication's form as it posts, and the change it asks for
//! against the settings in force: only the fields that changed, and none
//! the environment fixed (the page shows those read-only). A text left
//! empty clears its field; an empty client secret keeps the stored one,
//! and "forget the client secret" clears it. Checkboxes are present when
//! ticked.

use crate::contract::authentication::{AuthenticationChange, AuthenticationSettings};
use crate::domain::form_field::{given, ticked};

/// The form's fields as posted. Not `Debug`: it may hold the client
/// secret.
#[derive(Default)]
pub struct AuthenticationForm {
    pub issuer_url: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    pub forget_client_secret: Option<String>,
    pub scopes: Option<String>,
    pub groups_claim: Option<String>,
    pub admin_group: Option<String>,
    pub auto_provision: Option<String>,
    pub link_by_email: Option<String>,
    pub button_label: Option<String>,
    pub local_login_enabled: Option<String>,
}

impl AuthenticationForm {
    /// What the form changes of `now`.
    pub fn change(self, now: &AuthenticationSettings) -> AuthenticationChange {
        let free = |field: &str| !now.fixed_by_environment.iter().any(|fixed| fixed == field);
        let text = |field: &str, typed: Option<String>, current: Option<&str>| {
            let typed = typed.map(|text| text.trim().to_owned()).unwrap_or_default();
            (free(field) && typed != current.unwrap_or_default())
                .then(|| (!typed.is_empty()).then_some(typed))
        };
        let flag = |field: &str, tick: Option<String>, current: bool| {
            let on = ticked(&tick);
            (free(field) && on != current).then_some(Some(on))
        };
        let secret = match (
            given(self.client_secret),
            ticked(&self.forget_client_secret),
        ) {
            (Some(secret), _) => Some(Some(secret)),
            (None, true) if now.client_secret_set => Some(None),
            (None, _) => None,
        };
        AuthenticationChange {
            issuer_url: text("issuerUrl", self.issuer_url, now.issuer_url.as_deref()),
            client_id: text("clientId", self.client_id, now.client_id.as_deref()),
            client_secret: secret.filter(|_| free("clientSecret")),
            scopes: text("scopes", self.scopes, Some(&now.scopes)),
            groups_claim: text("groupsClaim", self.groups_claim, Some(&now.groups_claim)),
            admin_group: text("adminGroup", self.admin_group, now.admin_group.as_deref()),
            auto_provision: flag("autoProvision", self.auto_provision, now.auto_provision),
            link_by_email: flag("linkByEmail", self.link_by_email, now.link_by_email),
            button_label: text("buttonLabel", self.button_label, Some(&now.button_label)),
            local_login_enabled: flag(
                "localLoginEnabled",
                self.local_login_enabled,
                now.local_login_enabled,
            ),
            // The password is asked by the door, before the change is read.
            current_password: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> AuthenticationSettings {
        AuthenticationSettings {
            issuer_url: Some("https://id.example".into()),
            client_id: Some("tally".into()),
            client_secret_set: true,
            scopes: "openid email".into(),
            groups_claim: "groups".into(),
            button_label: "Sign in with Example".into(),
            local_login_enabled: true,
            ..AuthenticationSettings::default()
        }
    }

    /// The form as the page sends it for `now`, unchanged.
    fn as_shown() -> AuthenticationForm {
        AuthenticationForm {
            issuer_url: Some("https://id.example".into()),
            client_id: Some("tally".into()),
            client_secret: Some(String::new()),
            scopes: Some("openid email".into()),
            groups_claim: Some("groups".into()),
            admin_group: Some(String::new()),
            button_label: Some("Sign in with Example".into()),
            local_login_enabled: Some("on".into()),
            ..AuthenticationForm::default()
        }
    }

    #[test]
    fn a_form_sent_as_shown_changes_nothing() {
        assert!(as_shown().change(&now()) == AuthenticationChange::default());
    }

    #[test]
    fn only_the_changed_fields_are_sent_and_an_empty_text_clears() {
        let form = AuthenticationForm {
            client_id: Some(" other ".into()),
            admin_group: Some("admins".into()),
            issuer_url: Some(String::new()),
            local_login_enabled: None,
            ..as_shown()
        };
        let change = form.change(&now());
        assert!(change.client_id == Some(Some("other".into())));
        assert!(change.admin_group == Some(Some("admins".into())));
        assert!(change.issuer_url == Some(None));
        assert!(change.local_login_enabled == Some(Some(false)));
        assert!(change.scopes.is_none() && change.client_secret.is_none());
    }

    #[test]
    fn the_secret_is_kept_when_empty_forgotten_when_asked_and_replaced_when_typed() {
        let forget = AuthenticationForm {
            forget_client_secret: Some("on".into()),
            ..as_shown()
        };
        assert!(forget.change(&now()).client_secret == Some(None));
        let typed = AuthenticationForm {
            client_secret: Some("s3cret".into()),
            ..as_shown()
        };
        assert!(typed.change(&now()).client_secret == Some(Some("s3cret".into())));
        let nothing_stored = AuthenticationSettings {
            client_secret_set: false,
            ..now()
        };
        let forget = AuthenticationForm {
            forget_client_secret: Some("on".into()),
            ..as_shown()
        };
        assert!(forget.change(&nothing_stored).client_secret.is_none());
    }

    #[test]
    fn a_field_the_environment_fixed_is_never_changed() {
        let fixed = AuthenticationSettings {
            fixed_by_environment: vec!["clientId".into(), "clientSecret".into()],
            ..now()
        };
        let form = AuthenticationForm {
            client_id: Some("other".into()),
            client_secret: Some("s3cret".into()),
            ..as_shown()
        };
        let change = form.change(&fixed);
        assert!(change.client_id.is_none() && change.client_secret.is_none());
    }
}
