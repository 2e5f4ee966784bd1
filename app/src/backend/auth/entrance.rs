//! Signing in and joining, as both doors call them: the REST routes
//! (`/api/auth/login…`, `/api/auth/register…`) and the pages' server
//! functions. A visitor (address and browser) and a contract request go
//! in; the contract answer and, when a session started, its token come out
//! for the caller to set as the cookie.

use super::Auth;
use super::AuthError;
use std::net::IpAddr;

use secrecy::SecretString;

use super::invitations::{self, Registration};
use super::sign_in::{self, Attempt, SignInError, SignedIn};
use super::throttle::Standing;
use super::{device, sessions, users};
use crate::contract::account::{
    InvitationPreview, Me, Register, RegistrationStatus, SecondFactorChallenge, SecondFactorCode,
    SignIn, SignInAnswer,
};
use crate::contract::security_keys::{KeySignIn, KeySignInOptions, WebAuthnJson};

/// Who is knocking: the client's address (for the throttle and the sign-in
/// history), its `User-Agent` (recorded with the session) and its device
/// cookie (`device`), if it sent one.
pub struct Visitor {
    pub ip: IpAddr,
    pub user_agent: Option<String>,
    pub device: Option<String>,
}

/// A sign-in step's answer; when it started a session, the session's token
/// and a new device cookie for the browser (both for the caller to set).
pub struct Answered {
    pub answer: SignInAnswer,
    pub session: Option<String>,
    pub device: Option<String>,
}

/// The first step: email and password. The same answer for an unknown
/// email and a wrong password; throttled per address and per account.
pub async fn password(
    auth: &Auth,
    visitor: Visitor,
    request: SignIn,
) -> Result<Answered, AuthError> {
    password_allowed(auth).await?;
    let attempt = Attempt {
        email: request.email,
        password: SecretString::from(request.password),
        ip: visitor.ip,
        user_agent: visitor.user_agent,
        device: visitor.device,
    };
    answered(
        auth,
        sign_in::sign_in(
            &auth.pool,
            &auth.keyring,
            &auth.login_history,
            &auth.sign_in_throttle,
            attempt,
        )
        .await,
    )
}

/// What `POST /api/auth/login` (and registering with a password) answers
/// while local sign-in is off.
pub const LOCAL_LOGIN_OFF: &str =
    "signing in with email and password is switched off here; sign in with single sign-on";

/// Refuses (403) while email and password do not sign in here
/// (Admin → Authentication, `LOCAL_LOGIN_ENABLED`).
async fn password_allowed(auth: &Auth) -> Result<(), AuthError> {
    let current = auth.sso.current(&auth.pool, &auth.keyring).await?;
    if current.settings.local_login_enabled {
        Ok(())
    } else {
        Err(AuthError::Forbidden(LOCAL_LOGIN_OFF.into()))
    }
}

/// The second step with a TOTP or recovery code.
pub async fn code(
    auth: &Auth,
    visitor: Visitor,
    request: SecondFactorCode,
) -> Result<Answered, AuthError> {
    answered(
        auth,
        sign_in::second_factor(
            &auth.pool,
            &auth.keyring,
            &auth.sign_in_throttle,
            visitor.knock(),
            &request.challenge,
            &request.code,
        )
        .await,
    )
}

/// The options for `navigator.credentials.get`, for a live challenge.
pub async fn key_options(auth: &Auth, challenge: &str) -> Result<KeySignInOptions, AuthError> {
    match auth
        .security_keys
        .begin_sign_in(&auth.pool, challenge)
        .await?
    {
        Some(options) => Ok(KeySignInOptions {
            options: WebAuthnJson(options),
        }),
        None => Err(AuthError::field(
            "challenge",
            "this sign-in expired or has no security key; sign in again",
        )),
    }
}

/// The second step with a security key's answer.
pub async fn key(auth: &Auth, visitor: Visitor, request: KeySignIn) -> Result<Answered, AuthError> {
    answered(
        auth,
        sign_in::security_key(
            &auth.pool,
            &auth.keyring,
            &auth.login_history,
            &auth.security_keys,
            &auth.sign_in_throttle,
            visitor.knock(),
            &request.challenge,
            request.credential.0,
        )
        .await,
    )
}

/// Whether open registration is on and, for an invitation link's token,
/// what it opens (`None` when the link is not valid).
pub async fn registration(
    auth: &Auth,
    invitation: Option<&str>,
) -> Result<RegistrationStatus, AuthError> {
    let open_registration = invitations::open_registration(&auth.pool).await?;
    let invitation = match invitation.filter(|token| !token.is_empty()) {
        Some(token) => invitations::find(&auth.pool, token)
            .await?
            .map(|found| InvitationPreview {
                email: found.email,
                role: found.role,
                expires_at: found.expires_at,
            }),
        None => None,
    };
    Ok(RegistrationStatus {
        open_registration,
        invitation,
    })
}

/// Creates the account (from an invitation, or freely while registration
/// is open) and signs it in. Throttled like a sign-in.
pub async fn register(
    auth: &Auth,
    visitor: Visitor,
    request: Register,
) -> Result<Answered, AuthError> {
    auth.sign_in_throttle
        .attempt(visitor.ip, &request.email, Standing::Stranger)
        .map_err(|refusal| AuthError::throttled(refusal, "too many attempts; try again later"))?;
    password_allowed(auth).await?;
    // Checked before an invitation is claimed for it.
    users::check_name(&request.name)?;
    let time_zone = request.time_zone;
    let user = invitations::register(
        &auth.pool,
        Registration {
            invitation: request.invitation,
            email: request.email,
            name: request.name,
            password: SecretString::from(request.password),
        },
    )
    .await?;
    if let Some(zone) = time_zone.as_deref().filter(|zone| !zone.is_empty()) {
        users::start_in_time_zone(&auth.pool, user.id, zone).await?;
    }
    tracing::info!(
        user = user.id,
        role = user.role.as_str(),
        "account registered"
    );
    let token = sessions::create(&auth.pool, user.id, visitor.user_agent.as_deref()).await?;
    Ok(Answered {
        device: device::issue(&auth.keyring, &user.email),
        answer: SignInAnswer::SignedIn(Me { user }),
        session: Some(token),
    })
}

impl Visitor {
    fn knock(&self) -> sign_in::Knock<'_> {
        sign_in::Knock {
            ip: self.ip,
            user_agent: self.user_agent.as_deref(),
            device: self.device.as_deref(),
        }
    }
}

/// A sign-in step's outcome in contract terms.
fn answered(auth: &Auth, outcome: Result<SignedIn, SignInError>) -> Result<Answered, AuthError> {
    match outcome {
        Ok(SignedIn::Session { user, token }) => Ok(Answered {
            device: device::issue(&auth.keyring, &user.email),
            answer: SignInAnswer::SignedIn(Me { user }),
            session: Some(token),
        }),
        Ok(SignedIn::SecondFactor { challenge, methods }) => Ok(Answered {
            answer: SignInAnswer::SecondFactor(SecondFactorChallenge {
                second_factor: methods.first().copied(),
                methods,
                challenge,
            }),
            session: None,
            device: None,
        }),
        Err(SignInError::WrongCredentials) => Err(AuthError::WrongCredentials),
        Err(SignInError::EmailTooLong) => Err(AuthError::email_too_long()),
        Err(SignInError::WrongCode) => Err(AuthError::field(
            "code",
            "that code is not right, or was already used",
        )),
        Err(error @ SignInError::WrongKey) => {
            Err(AuthError::field("credential", format!("{error}")))
        }
        Err(error @ SignInError::Throttled(wait)) => Err(AuthError::TooMany {
            message: error.to_string(),
            retry_after: wait,
        }),
        Err(SignInError::Auth(error)) => Err(error),
    }
}
