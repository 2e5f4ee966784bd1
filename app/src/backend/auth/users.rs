//! Users and the bootstrap admin.

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::password::{self, PasswordHashString};
use super::store::users as stored;
use super::AuthError;
use crate::domain::password_policy;
use crate::domain::text::{plain_text_problem, Lines};

pub use crate::contract::account::User;
pub use crate::domain::role::Role;

/// A plausible email address (the shared rule in `domain::email`).
pub fn check_email(email: &str) -> Result<String, AuthError> {
    crate::domain::email::check_email(email).map_err(|problem| AuthError::field("email", problem))
}

pub async fn count(pool: &SqlitePool) -> Result<i64, AuthError> {
    Ok(stored::count(pool).await?)
}

pub async fn by_id(pool: &SqlitePool, id: i64) -> Result<Option<User>, AuthError> {
    let row = stored::by_id(pool, id).await?;
    Ok(row.map(User::from))
}

pub async fn by_email(pool: &SqlitePool, email: &str) -> Result<Option<User>, AuthError> {
    let email = email.trim();
    let row = stored::by_email(pool, email).await?;
    Ok(row.map(User::from))
}

/// The user signing in with `email` (if any, and not disabled) and their hash.
pub(crate) async fn for_sign_in(
    pool: &SqlitePool,
    email: &str,
) -> Result<Option<(User, Option<String>)>, AuthError> {
    let email = email.trim();
    let found = stored::for_sign_in(pool, email).await?;
    Ok(found.map(|(row, hash)| (row.into(), hash)))
}

/// A person's name: one line of plain text, at most 200 characters.
pub fn check_name(name: &str) -> Result<&str, AuthError> {
    let name = name.trim();
    if name.chars().count() > 200 {
        return Err(AuthError::field("name", "use at most 200 characters"));
    }
    if let Some(problem) = plain_text_problem(name, Lines::One) {
        return Err(AuthError::field("name", problem));
    }
    Ok(name)
}

/// Creates a user after checking the email, the name and the password policy.
pub async fn create(
    pool: &SqlitePool,
    email: &str,
    name: &str,
    password: SecretString,
    role: Role,
) -> Result<User, AuthError> {
    use secrecy::ExposeSecret;
    let email = check_email(email)?;
    let name = check_name(name)?;
    password_policy::check(password.expose_secret(), &email)
        .map_err(|problem| AuthError::field("password", problem))?;
    let PasswordHashString(hash) = password::hash(password).await?;
    let row = stored::insert(pool, &email, name, &hash, role)
        .await
        .map_err(taken_email)?;
    Ok(row.into())
}

/// Starts a new account in the time zone its browser reported, when Tally
/// knows the zone; otherwise the account keeps the default (UTC). The
/// person can change it in Profile → Preferences.
pub async fn start_in_time_zone(pool: &SqlitePool, id: i64, zone: &str) -> Result<bool, AuthError> {
    if !crate::backend::bills::known_time_zone(zone) {
        return Ok(false);
    }
    stored::set_time_zone(pool, id, zone).await?;
    Ok(true)
}

/// Whether `password` is the user's current password.
pub async fn password_matches(
    pool: &SqlitePool,
    user_id: i64,
    password: SecretString,
) -> Result<bool, AuthError> {
    let stored = stored::password_hash(pool, user_id).await?;
    password::verify(password, stored).await
}

/// Replaces a user's password after checking the policy.
pub async fn set_password(
    pool: &SqlitePool,
    user: &User,
    password: SecretString,
) -> Result<(), AuthError> {
    use secrecy::ExposeSecret;
    password_policy::check(password.expose_secret(), &user.email)
        .map_err(|problem| AuthError::field("newPassword", problem))?;
    let PasswordHashString(hash) = password::hash(password).await?;
    stored::set_password_hash(pool, user.id, &hash).await?;
    Ok(())
}

/// On an empty database, creates the first admin from the bootstrap
/// settings. Returns the admin when one was made.
pub async fn bootstrap_admin(
    pool: &SqlitePool,
    email: Option<&str>,
    password: Option<SecretString>,
) -> Result<Option<User>, AuthError> {
    if count(pool).await? > 0 {
        return Ok(None);
    }
    match (email, password) {
        (Some(email), Some(password)) => {
            create(pool, email, "Administrator", password, Role::Admin)
                .await
                .map(Some)
        }
        _ => Ok(None),
    }
}

/// Changes a user's name and email (checked; unique).
pub async fn update_profile(
    pool: &SqlitePool,
    user_id: i64,
    name: &str,
    email: &str,
) -> Result<User, AuthError> {
    let email = check_email(email)?;
    let name = check_name(name)?;
    let row = stored::set_profile(pool, user_id, name, &email)
        .await
        .map_err(taken_email)?;
    Ok(row.into())
}

/// A unique violation on `users.email` is an address already taken.
fn taken_email(error: sqlx::Error) -> AuthError {
    match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            AuthError::field("email", "an account with this address exists")
        }
        _ => AuthError::Database(error),
    }
}
