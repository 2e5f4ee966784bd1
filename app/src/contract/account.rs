//! Who is signed in.

use serde::{Deserialize, Serialize};

use crate::domain::role::Role;

/// A signed-in or stored user, without anything secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
}

impl User {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// Which navigation the header shows: the public site's, the app's, or
/// the app's with Admin. What the server renders the header with, sent
/// with the page as one word (`Nav::as_str`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    Visitor,
    Member,
    Admin,
}

impl Nav {
    /// The navigation for `user`, or nobody's.
    pub fn of(user: Option<&User>) -> Self {
        match user {
            None => Nav::Visitor,
            Some(user) if user.is_admin() => Nav::Admin,
            Some(_) => Nav::Member,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Nav::Visitor => "visitor",
            Nav::Member => "member",
            Nav::Admin => "admin",
        }
    }

    pub fn parse(word: &str) -> Option<Self> {
        [Nav::Visitor, Nav::Member, Nav::Admin]
            .into_iter()
            .find(|nav| nav.as_str() == word)
    }
}

/// `GET /api/auth/session`: the user, or `null` when nobody is signed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Session {
    pub user: Option<User>,
}

/// `GET /api/auth/me` and the answer of a completed sign-in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Me {
    pub user: User,
}

/// `GET /api/auth/csrf-token`: the token every state-changing call sends in
/// `x-csrf-token` (also set as a cookie).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CsrfToken {
    pub csrf_token: String,
}

/// `POST /api/auth/login`. Its `Debug` never shows the password.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SignIn {
    pub email: String,
    pub password: String,
}

/// A way to answer the second step of a sign-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum SecondFactorMethod {
    /// A TOTP code (or a recovery code).
    Totp,
    /// A hardware security key.
    SecurityKey,
}

impl SecondFactorMethod {
    /// The name on the wire (and in `pending_sign_ins.methods`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Totp => "totp",
            Self::SecurityKey => "securityKey",
        }
    }
}

/// The answer to a sign-in step: signed in (with the session cookie), or a
/// challenge for the second step, answerable with one of `methods`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum SignInAnswer {
    SignedIn(Me),
    SecondFactor(SecondFactorChallenge),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SecondFactorChallenge {
    /// The first of `methods` (kept for clients of the first version).
    pub second_factor: Option<SecondFactorMethod>,
    pub methods: Vec<SecondFactorMethod>,
    pub challenge: String,
}

/// `POST /api/auth/login/totp`: a TOTP or recovery code for the challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SecondFactorCode {
    pub challenge: String,
    pub code: String,
}

/// `GET /api/auth/registration[?invitation=…]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegistrationStatus {
    pub open_registration: bool,
    /// What the link's invitation opens; `null` when the link is not valid
    /// (or none was given).
    pub invitation: Option<InvitationPreview>,
}

/// An invitation as the person holding its link sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InvitationPreview {
    pub email: Option<String>,
    pub role: Role,
    pub expires_at: String,
}

/// `POST /api/auth/register`; answered with [`Me`]. Its `Debug` never
/// shows the password.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Register {
    /// The invitation link's token; none while open registration is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitation: Option<String>,
    pub email: String,
    /// May be left empty.
    #[serde(default)]
    pub name: String,
    pub password: String,
    /// The browser's IANA time zone (like `Europe/Berlin`), the new
    /// account's default; an unknown one leaves it at UTC.
    #[serde(default, rename = "timeZone", skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
}

/// `PUT /api/profile`: name and email; answered with [`Me`]. A new email
/// needs the current password.
#[derive(Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct UpdateProfile {
    pub name: String,
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_password: Option<String>,
}

/// `GET`/`PUT /api/profile/privacy`: whether sign-ins are located from
/// their IP address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrivacySettings {
    pub geolocation_enabled: bool,
}

/// One sign-in attempt on the account, as its owner sees it
/// (`GET /api/profile/sign-ins`, newest first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SignInRecord {
    pub at: String,
    pub success: bool,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub location: Option<String>,
    /// How: a password, the identity provider, or a security key's
    /// answer to the second step.
    pub method: SignInMethod,
}

/// How an attempt in the sign-in history was made. Stored as the same
/// word (`login_history.method`); `security_key` is snake case like the
/// column, unlike the second step's `securityKey` (`SecondFactorMethod`),
/// which names an answer a challenge accepts, not a history row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "ssr", derive(sqlx::Type))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ssr", sqlx(rename_all = "snake_case"))]
pub enum SignInMethod {
    /// Email and password (a correct one is recorded even when the second
    /// step is still to come). Rows from before single sign-on say this
    /// too: it was the only way in.
    Password,
    /// The identity provider (OpenID Connect); recorded once signed in.
    Oidc,
    /// A security key's answer to the second step, accepted or refused.
    SecurityKey,
}

impl SignInMethod {
    /// The word on the wire and in the column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::Oidc => "oidc",
            Self::SecurityKey => "security_key",
        }
    }

    /// How Profile names it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Password => "Password",
            Self::Oidc => "Single sign-on",
            Self::SecurityKey => "Security key",
        }
    }

    /// What the attempt came to, in Profile's words.
    pub fn outcome(self, success: bool) -> &'static str {
        match (self, success) {
            (Self::Password, true) => "Correct password",
            (Self::Password, false) => "Wrong password",
            (Self::Oidc, true) => "Signed in",
            (Self::Oidc, false) => "Refused",
            (Self::SecurityKey, true) => "Key accepted",
            (Self::SecurityKey, false) => "Key refused",
        }
    }
}

/// Debug never shows the password (see `two_factor::CurrentPassword`).
impl std::fmt::Debug for UpdateProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpdateProfile")
            .field("name", &self.name)
            .field("email", &self.email)
            .field(
                "current_password",
                &self.current_password.as_ref().map(|_| "[redacted]"),
            )
            .finish()
    }
}

impl std::fmt::Debug for SignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignIn")
            .field("email", &self.email)
            .field("password", &"[redacted]")
            .finish()
    }
}

impl std::fmt::Debug for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Register")
            .field(
                "invitation",
                &self.invitation.as_ref().map(|_| "[redacted]"),
            )
            .field("email", &self.email)
            .field("name", &self.name)
            .field("password", &"[redacted]")
            .field("time_zone", &self.time_zone)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_navigation_is_one_word_each_way_and_the_session_names_the_role_the_browser_reads() {
        for nav in [Nav::Visitor, Nav::Member, Nav::Admin] {
            assert_eq!(Nav::parse(nav.as_str()), Some(nav));
        }
        assert_eq!(Nav::parse("root"), None);
        let user = |role| User {
            id: 1,
            email: "a@example.com".into(),
            name: "A".into(),
            role,
        };
        assert_eq!(Nav::of(None), Nav::Visitor);
        assert_eq!(Nav::of(Some(&user(Role::User))), Nav::Member);
        assert_eq!(Nav::of(Some(&user(Role::Admin))), Nav::Admin);
        // The browser reads `user.role` of this answer as text
        // (`api::signed_in_as`), comparing it with `Role::as_str`.
        let session = serde_json::to_value(Session {
            user: Some(user(Role::Admin)),
        })
        .unwrap();
        assert_eq!(session["user"]["role"], Role::Admin.as_str());
        let nobody = serde_json::to_value(Session { user: None }).unwrap();
        assert!(nobody["user"].is_null());
    }

    #[test]
    fn sign_in_answers_keep_their_documented_shapes() {
        let signed_in = r#"{"user":{"id":1,"email":"a@example.com","name":"A","role":"admin"}}"#;
        let answer: SignInAnswer = serde_json::from_str(signed_in).unwrap();
        assert!(matches!(&answer, SignInAnswer::SignedIn(me) if me.user.is_admin()));
        assert_eq!(serde_json::to_string(&answer).unwrap(), signed_in);

        let challenge =
            r#"{"secondFactor":"totp","methods":["totp","securityKey"],"challenge":"c"}"#;
        let answer: SignInAnswer = serde_json::from_str(challenge).unwrap();
        assert_eq!(
            answer,
            SignInAnswer::SecondFactor(SecondFactorChallenge {
                second_factor: Some(SecondFactorMethod::Totp),
                methods: vec![SecondFactorMethod::Totp, SecondFactorMethod::SecurityKey],
                challenge: "c".into(),
            })
        );
        assert_eq!(serde_json::to_string(&answer).unwrap(), challenge);
    }

    #[test]
    fn sign_in_methods_travel_as_the_words_the_column_holds() {
        for (method, word) in [
            (SignInMethod::Password, "password"),
            (SignInMethod::Oidc, "oidc"),
            (SignInMethod::SecurityKey, "security_key"),
        ] {
            assert_eq!(method.as_str(), word);
            assert_eq!(serde_json::to_value(method).unwrap(), word);
        }
        let row: SignInRecord = serde_json::from_str(
            r#"{"at":"2026-11-20T07:08:09.123Z","success":true,"ip":null,"userAgent":null,
                "location":null,"method":"security_key"}"#,
        )
        .unwrap();
        assert_eq!(row.method, SignInMethod::SecurityKey);
        assert_eq!(row.method.outcome(row.success), "Key accepted");
    }

    #[test]
    fn requests_with_a_password_never_show_it_in_debug_output() {
        let sign_in = SignIn {
            email: "a@example.com".into(),
            password: "hunter2-secret".into(),
        };
        let register = Register {
            invitation: Some("link-token".into()),
            email: "a@example.com".into(),
            name: "A".into(),
            password: "hunter2-secret".into(),
            time_zone: None,
        };
        for shown in [format!("{sign_in:?}"), format!("{register:?}")] {
            assert!(shown.contains("a@example.com"), "{shown}");
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(!shown.contains("link-token"), "{shown}");
        }
    }
}

/// `GET /api/auth/methods`: how people can sign in, for the sign-in page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AuthMethods {
    /// Email and password (`LOCAL_LOGIN_ENABLED`).
    pub password: bool,
    /// The identity provider's button, when single sign-on is set up.
    pub oidc: Option<SingleSignOnMethod>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SingleSignOnMethod {
    /// The button's words (`OIDC_BUTTON_LABEL`).
    pub label: String,
}

/// `POST /api/auth/logout` of a session that came from the identity
/// provider: where the browser goes next to sign out there too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SignedOut {
    /// The provider's end-session address, or none for a password session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
}
