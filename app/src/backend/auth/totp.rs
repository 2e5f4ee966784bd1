//! TOTP (RFC 6238) as a second factor: enrolment with a QR code (SVG),
//! confirmation with a first code, ten recovery codes (shown once, stored as
//! SHA-256), and a replay guard: a code's 30-second step is accepted once.

use qrcode::render::svg;
use qrcode::QrCode;
use rand::RngCore;
use secrecy::ExposeSecret;
use sqlx::SqlitePool;
use totp_rs::{Algorithm, TOTP};

use super::pending_sign_in;
use super::store::totp as store;
use super::token::{constant_time_eq, random_token, sha256_hex};
use super::users::User;
use super::AuthError;
use crate::backend::secrets::{Keyring, TOTP_SECRET};

const STEP_SECONDS: u64 = 30;
const DIGITS: usize = 6;
const RECOVERY_CODES: usize = 10;

use crate::contract::two_factor::{TotpEnrolment, TotpStatus};

fn sealing(error: crate::backend::secrets::KeyringError) -> AuthError {
    AuthError::Sealing(error.to_string())
}

fn totp(secret: Vec<u8>, email: &str) -> Result<TOTP, AuthError> {
    TOTP::new(
        Algorithm::SHA1,
        DIGITS,
        1,
        STEP_SECONDS,
        secret,
        Some("Tally".into()),
        email.to_owned(),
    )
    .map_err(|error| AuthError::field("totp", error))
}

fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or_default()
}

/// Starts (or restarts) enrolment: a fresh secret, sealed, not yet active.
pub async fn begin_enrolment(
    pool: &SqlitePool,
    keyring: &Keyring,
    user: &User,
) -> Result<TotpEnrolment, AuthError> {
    if store::is_enabled(pool, user.id).await? {
        return Err(AuthError::field("totp", "two-factor sign-in is already on"));
    }
    let mut secret = vec![0_u8; 20];
    rand::rng().fill_bytes(&mut secret);
    let totp = totp(secret, &user.email)?;
    let encoded = totp.get_secret_base32();
    let sealed = keyring.seal(TOTP_SECRET, &encoded).map_err(sealing)?;
    store::set_pending_secret(pool, user.id, &sealed).await?;
    let otpauth_url = totp.get_url();
    let qr_svg = QrCode::new(otpauth_url.as_bytes())
        .map_err(|error| AuthError::field("totp", error))?
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .build();
    Ok(TotpEnrolment {
        secret: encoded,
        otpauth_url,
        qr_svg,
    })
}

/// Checks `code` against the user's secret, accepting each time step once.
async fn accept_code(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
    code: &str,
) -> Result<bool, AuthError> {
    let Some(store::SecretRow {
        sealed: Some(sealed),
        email,
        last_step,
    }) = store::secret(pool, user_id).await?
    else {
        return Ok(false);
    };
    let encoded = keyring.open(TOTP_SECRET, &sealed).map_err(sealing)?;
    let secret = totp_rs::Secret::Encoded(encoded.expose_secret().to_owned())
        .to_bytes()
        .map_err(|error| AuthError::field("totp", format!("{error:?}")))?;
    let totp = totp(secret, &email)?;
    let code = code.trim().replace(' ', "");
    let current = now_seconds() / STEP_SECONDS;
    let matched = (current.saturating_sub(1)..=current + 1)
        .find(|step| constant_time_eq(&totp.generate(step * STEP_SECONDS), &code));
    let Some(step) = matched else {
        return Ok(false);
    };
    let step = i64::try_from(step).unwrap_or(i64::MAX);
    if last_step.is_some_and(|last| step <= last) {
        return Ok(false);
    }
    Ok(store::claim_step(pool, user_id, step).await?)
}

/// Confirms enrolment with a first code; returns the recovery codes, shown
/// this once.
pub async fn confirm_enrolment(
    pool: &SqlitePool,
    keyring: &Keyring,
    user: &User,
    code: &str,
) -> Result<Vec<String>, AuthError> {
    if !accept_code(pool, keyring, user.id, code).await? {
        return Err(AuthError::field(
            "code",
            "that code is not right; try the current one",
        ));
    }
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| {
            let token = random_token().to_lowercase().replace(['-', '_'], "");
            format!("{}-{}", &token[..5], &token[5..10])
        })
        .collect();
    let hashes: Vec<String> = codes.iter().map(|code| sha256_hex(code)).collect();
    store::enable(pool, user.id, &hashes).await?;
    Ok(codes)
}

pub async fn status(pool: &SqlitePool, user_id: i64) -> Result<TotpStatus, AuthError> {
    let (enabled, recovery_codes_left) = store::status(pool, user_id).await?;
    Ok(TotpStatus {
        enabled,
        recovery_codes_left,
    })
}

/// Turns TOTP off: forgets the secret and the recovery codes.
pub async fn turn_off(pool: &SqlitePool, user_id: i64) -> Result<(), AuthError> {
    Ok(store::disable(pool, user_id).await?)
}

/// Whether the user must give a second factor.
pub async fn is_enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    Ok(store::is_enabled(pool, user_id).await?)
}

/// Completes the second step with a TOTP code or an unused recovery code;
/// the challenge is spent on success. Only a challenge that offered TOTP,
/// of a user whose TOTP is (still) on, takes a code: a secret from a setup
/// that was never confirmed is no second factor.
pub async fn finish_sign_in(
    pool: &SqlitePool,
    keyring: &Keyring,
    challenge: &str,
    code: &str,
) -> Result<Option<i64>, AuthError> {
    let offered =
        pending_sign_in::user_offered(pool, challenge, pending_sign_in::SecondFactorMethod::Totp)
            .await?;
    let Some(user_id) = offered else {
        return Ok(None);
    };
    if !is_enabled(pool, user_id).await? {
        return Ok(None);
    }
    let accepted = if code.contains('-') {
        let code_hash = sha256_hex(code.trim().to_lowercase().as_str());
        store::spend_recovery_code(pool, user_id, &code_hash).await?
    } else {
        accept_code(pool, keyring, user_id, code).await?
    };
    if !accepted {
        return Ok(None);
    }
    pending_sign_in::spend(pool, challenge).await?;
    Ok(Some(user_id))
}
