//! Who the header's navigation is for, asked again in the browser after
//! a navigation: a GET of the `session` server function's address, read
//! with the browser's own fetch and JSON, so the first download carries
//! no server-function client and no JSON decoder (they come with the
//! pages that need them).

use leptos::server_fn::ServerFn;
use leptos::wasm_bindgen::{JsCast, JsValue};
use send_wrapper::SendWrapper;
use wasm_bindgen_futures::JsFuture;

use super::session::CurrentSession;
use crate::contract::account::Nav;
use crate::domain::role::Role;

/// The navigation for this browser's session; a visitor's when the
/// question fails.
pub fn signed_in_as() -> impl std::future::Future<Output = Nav> + Send {
    SendWrapper::new(async { asked().await.unwrap_or(Nav::Visitor) })
}

async fn asked() -> Result<Nav, JsValue> {
    let window = leptos::web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let response: leptos::web_sys::Response =
        JsFuture::from(window.fetch_with_str(CurrentSession::url()))
            .await?
            .dyn_into()?;
    if !response.ok() {
        return Ok(Nav::Visitor);
    }
    let session = JsFuture::from(response.json()?).await?;
    let user = js_sys::Reflect::get(&session, &JsValue::from_str("user"))?;
    if user.is_null() || user.is_undefined() {
        return Ok(Nav::Visitor);
    }
    let role = js_sys::Reflect::get(&user, &JsValue::from_str("role"))?.as_string();
    Ok(if role.as_deref() == Some(Role::Admin.as_str()) {
        Nav::Admin
    } else {
        Nav::Member
    })
}
