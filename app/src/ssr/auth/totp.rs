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
use super::token::{constant_time_eq, random_token, sha256_hex};
use super::users::User;
use super::AuthError;
use crate::ssr::secrets::{Keyring, TOTP_SECRET};

const STEP_SECONDS: u64 = 30;
const DIGITS: usize = 6;
const RECOVERY_CODES: usize = 10;

use crate::contract::two_factor::{TotpEnrolment, TotpStatus};

fn sealing(error: crate::ssr::secrets::KeyringError) -> AuthError {
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
    .map_err(|error| AuthError::Invalid(format!("totp: {error}")))
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
    let enabled: bool = sqlx::query_scalar!(
        r#"SELECT totp_enabled AS "on: bool" FROM users WHERE id = ?"#,
        user.id
    )
    .fetch_one(pool)
    .await?;
    if enabled {
        return Err(AuthError::Invalid(
            "totp: two-factor sign-in is already on".into(),
        ));
    }
    let mut secret = vec![0_u8; 20];
    rand::rng().fill_bytes(&mut secret);
    let totp = totp(secret, &user.email)?;
    let encoded = totp.get_secret_base32();
    let sealed = keyring.seal(TOTP_SECRET, &encoded).map_err(sealing)?;
    sqlx::query!(
        "UPDATE users SET totp_secret = ?, totp_enabled = 0, totp_last_step = NULL WHERE id = ?",
        sealed,
        user.id,
    )
    .execute(pool)
    .await?;
    let otpauth_url = totp.get_url();
    let qr_svg = QrCode::new(otpauth_url.as_bytes())
        .map_err(|error| AuthError::Invalid(format!("totp: {error}")))?
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
    let row = sqlx::query!(
        "SELECT totp_secret, email, totp_last_step FROM users WHERE id = ?",
        user_id,
    )
    .fetch_optional(pool)
    .await?
    .map(|row| (row.totp_secret, row.email, row.totp_last_step));
    let Some((Some(sealed), email, last_step)) = row else {
        return Ok(false);
    };
    let encoded = keyring.open(TOTP_SECRET, &sealed).map_err(sealing)?;
    let secret = totp_rs::Secret::Encoded(encoded.expose_secret().to_owned())
        .to_bytes()
        .map_err(|error| AuthError::Invalid(format!("totp: {error:?}")))?;
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
    // The guard holds even for two requests racing with the same code.
    let claimed = sqlx::query!(
        "UPDATE users SET totp_last_step = ?1 WHERE id = ?2 AND (totp_last_step IS NULL OR totp_last_step < ?1)",
        step,
        user_id,
    )
        .execute(pool)
        .await?;
    Ok(claimed.rows_affected() == 1)
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
        return Err(AuthError::Invalid(
            "code: that code is not right; try the current one".into(),
        ));
    }
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| {
            let token = random_token().to_lowercase().replace(['-', '_'], "");
            format!("{}-{}", &token[..5], &token[5..10])
        })
        .collect();
    let mut tx = crate::ssr::db::write(pool).await?;
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user.id)
        .execute(&mut *tx)
        .await?;
    for code in &codes {
        let code_hash = sha256_hex(code);
        sqlx::query!(
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)",
            user.id,
            code_hash,
        )
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query!("UPDATE users SET totp_enabled = 1 WHERE id = ?", user.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(codes)
}

pub async fn status(pool: &SqlitePool, user_id: i64) -> Result<TotpStatus, AuthError> {
    let row = sqlx::query!(
        r#"SELECT totp_enabled = 1 AS "enabled!: bool",
                (SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL)
                    AS "left!: i64"
         FROM users WHERE id = ?1"#,
        user_id,
    )
    .fetch_one(pool)
    .await?;
    Ok(TotpStatus {
        enabled: row.enabled,
        recovery_codes_left: row.left,
    })
}

/// Turns TOTP off: forgets the secret and the recovery codes.
pub async fn turn_off(pool: &SqlitePool, user_id: i64) -> Result<(), AuthError> {
    let mut tx = crate::ssr::db::write(pool).await?;
    sqlx::query!(
        "UPDATE users SET totp_secret = NULL, totp_enabled = 0, totp_last_step = NULL WHERE id = ?",
        user_id,
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the user must give a second factor.
pub async fn is_enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    Ok(sqlx::query_scalar!(
        r#"SELECT totp_enabled AS "on: bool" FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(pool)
    .await?)
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
        let used = sqlx::query!(
            "UPDATE recovery_codes SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
            user_id,
            code_hash,
        )
        .execute(pool)
        .await?;
        used.rows_affected() == 1
    } else {
        accept_code(pool, keyring, user_id, code).await?
    };
    if !accepted {
        return Ok(None);
    }
    pending_sign_in::spend(pool, challenge).await?;
    Ok(Some(user_id))
}
