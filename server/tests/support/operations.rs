//! Following a long-running operation to its end.

use app::contract::operations::{Operation, WaitOperation};
use reqwest::Method;

use super::browser::Browser;

/// The operation once done, waited on through `:wait`.
pub async fn finished(browser: &Browser, operation: &Operation) -> Operation {
    // Up to four waits of 25 s: a full parallel run on two cores can hold
    // a sync up for longer than one (seen once).
    let mut done = operation.clone();
    for _ in 0..4 {
        done = browser
            .call::<_, Operation>(
                Method::POST,
                &format!("/v1/{}:wait", operation.name),
                &WaitOperation {
                    timeout: Some("25s".into()),
                },
            )
            .await
            .unwrap()
            .unwrap();
        if done.done {
            return done;
        }
    }
    panic!("still running after 100 s: {done:?}");
}
