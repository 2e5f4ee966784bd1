//! Profile's server functions, over the same services as `/api/profile…`
//! and `/api/tokens`: reads (GET) of the preferences, the privacy choice,
//! the recent sign-ins and the API tokens, rendered with the page; writes
//! through [`CsrfClient`]: the preferences and privacy forms (their fields,
//! posted with or without JavaScript), and making or revoking tokens (JSON).

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, Json};

use super::CsrfClient;
use crate::contract::account::{PrivacySettings, SignInRecord};
use crate::contract::error::ErrorBody;
use crate::contract::preferences::Preferences;
use crate::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};

/// How amounts and dates are shown, and the pay schedule.
#[server(prefix = "/api/fn", endpoint = "profile/preferences", input = GetUrl)]
pub async fn get_preferences() -> Result<Preferences, ErrorBody> {
    let me = super::signed_in::as_declared::<GetPreferences>().await?;
    Ok(crate::backend::preferences::read(me.pool(), me.current.user.id).await?)
}

/// Saves the preferences: Profile's form as it posts, with or without
/// JavaScript. The price-drift threshold comes as typed (a whole percent,
/// an amount); every bad field is named as REST names it.
#[server(prefix = "/api/fn", endpoint = "profile/save-preferences", client = CsrfClient)]
pub async fn save_preferences(
    locale: String,
    currency: String,
    time_zone: String,
    pay_schedule: Option<String>,
    payday: Option<String>,
    drift_percent: Option<String>,
    drift_min: Option<String>,
) -> Result<Preferences, ErrorBody> {
    use crate::contract::preferences::UpdatePreferences;
    use crate::domain::form_field::{amount_minor, whole};
    let me = super::signed_in::as_declared::<SavePreferences>().await?;
    let drift_percent = whole(
        "driftPercent",
        drift_percent,
        "enter a whole percent, like 10",
    )?;
    let drift_min_minor = amount_minor("driftMinMinor", drift_min)?;
    let preferences = UpdatePreferences {
        locale,
        currency,
        time_zone,
        pay_schedule: pay_schedule.unwrap_or_default(),
        payday: payday.unwrap_or_default(),
        drift_percent,
        drift_min_minor,
    };
    Ok(crate::backend::preferences::set(me.pool(), me.current.user.id, &preferences).await?)
}

/// Whether sign-ins are located from their address.
#[server(prefix = "/api/fn", endpoint = "profile/privacy", input = GetUrl)]
pub async fn get_privacy() -> Result<PrivacySettings, ErrorBody> {
    let me = super::signed_in::as_declared::<GetPrivacy>().await?;
    let geolocation_enabled =
        crate::backend::auth::geolocation::enabled(me.pool(), me.current.user.id).await?;
    Ok(PrivacySettings {
        geolocation_enabled,
    })
}

/// Turns locating sign-ins on or off: Profile → Privacy's form (the box
/// is sent when ticked).
#[server(prefix = "/api/fn", endpoint = "profile/set-privacy", client = CsrfClient)]
pub async fn set_privacy(
    geolocation_enabled: Option<String>,
) -> Result<PrivacySettings, ErrorBody> {
    let me = super::signed_in::as_declared::<SetPrivacy>().await?;
    let settings = PrivacySettings {
        geolocation_enabled: geolocation_enabled.is_some(),
    };
    crate::backend::auth::geolocation::set_enabled(
        me.pool(),
        me.current.user.id,
        settings.geolocation_enabled,
    )
    .await?;
    Ok(settings)
}

/// The latest sign-in attempts on this account.
#[server(prefix = "/api/fn", endpoint = "profile/sign-ins", input = GetUrl)]
pub async fn get_sign_ins() -> Result<Vec<SignInRecord>, ErrorBody> {
    let me = super::signed_in::as_declared::<GetSignIns>().await?;
    Ok(me
        .services
        .auth
        .login_history
        .recent(me.pool(), &me.services.keyring, me.current.user.id)
        .await?)
}

/// The user's API tokens (never the tokens themselves).
#[server(prefix = "/api/fn", endpoint = "tokens", input = GetUrl)]
pub async fn list_tokens() -> Result<Vec<ApiTokenInfo>, ErrorBody> {
    let me = super::signed_in::as_declared::<ListTokens>().await?;
    Ok(crate::backend::auth::api_tokens::list(me.pool(), me.current.user.id).await?)
}

/// Makes a token (browser sessions only); the answer holds it once.
#[server(prefix = "/api/fn", endpoint = "make-token", input = Json, client = CsrfClient)]
pub async fn make_token(request: CreateToken) -> Result<CreatedToken, ErrorBody> {
    let me = super::signed_in::as_declared::<MakeToken>().await?;
    Ok(
        crate::backend::auth::api_tokens::create_requested(me.pool(), &me.current, &request)
            .await?,
    )
}

/// Revokes one of the user's tokens. Posted by each token's Revoke form
/// (`id=…`), which works without JavaScript.
#[server(prefix = "/api/fn", endpoint = "revoke-token", client = CsrfClient)]
pub async fn revoke_token(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<RevokeToken>().await?;
    Ok(crate::backend::auth::api_tokens::revoke_own(me.pool(), me.current.user.id, id).await?)
}
