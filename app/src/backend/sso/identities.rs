//! Profile → Security: the identities at the provider linked to the
//! account signed in, and unlinking one (only while the account has a
//! password, so it can still sign in). Linking starts in `service::start`
//! with the account to link to.

use super::authentication::AuthenticationError;
use super::{store, Sso};
use crate::contract::authentication::{LinkedIdentities, LinkedIdentity};

/// `GET /api/profile/identities`.
pub async fn list(sso: &Sso, user_id: i64) -> Result<LinkedIdentities, AuthenticationError> {
    let current = sso.current(&sso.pool, &sso.keyring).await?;
    let identities = store::identities(&sso.pool, user_id)
        .await?
        .into_iter()
        .map(|identity| LinkedIdentity {
            id: identity.id,
            issuer: identity.issuer,
            email: identity.email,
            linked_at: identity.created_at,
            last_sign_in_at: identity.last_sign_in_at,
        })
        .collect();
    let mut conn = sso.pool.acquire().await?;
    Ok(LinkedIdentities {
        identities,
        has_password: store::has_password(&mut conn, user_id).await?,
        provider_label: current.methods().oidc.map(|method| method.label),
    })
}

/// `DELETE /api/profile/identities/{id}`.
pub async fn unlink(sso: &Sso, user_id: i64, identity_id: i64) -> Result<(), AuthenticationError> {
    let mut tx = crate::backend::db::write(&sso.pool).await?;
    if !store::has_password(&mut tx, user_id).await? {
        return Err(AuthenticationError::Refused(
            "this account has no password and signs in only through the identity provider, so its identity stays linked".into(),
        ));
    }
    if !store::unlink(&mut tx, user_id, identity_id).await? {
        return Err(AuthenticationError::NotFound(format!(
            "no linked identity {identity_id} on this account"
        )));
    }
    tx.commit().await?;
    tracing::info!(
        user = user_id,
        identity = identity_id,
        "provider identity unlinked"
    );
    Ok(())
}
