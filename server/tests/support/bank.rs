//! The built-in demo bank (`BANK_SYNC_DEMO=true`), connected as a person
//! does it.

use app::contract::bank::{ConnectBank, Connected};
use reqwest::Method;

use super::browser::Browser;
use super::operations::finished;

/// The settings that offer the demo bank.
pub const DEMO: &[(&str, &str)] = &[("BANK_SYNC_ENABLED", "true"), ("BANK_SYNC_DEMO", "true")];

/// Connects the demo bank and waits for its seed sync, which must succeed.
pub async fn connect_demo(browser: &Browser) -> Connected {
    let connected: Connected = browser
        .call(
            Method::POST,
            "/api/bank/connections",
            &ConnectBank {
                setup_token: "demo".into(),
            },
        )
        .await
        .unwrap()
        .unwrap();
    let done = finished(browser, &connected.operation).await;
    assert!(done.error.is_none(), "{done:?}");
    connected
}
