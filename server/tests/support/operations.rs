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
            conforms(&done);
            return done;
        }
    }
    panic!("still running after 100 s: {done:?}");
}

/// Fails unless the operation's metadata and response are `tally.v1`
/// messages as `proto/tally/v1/operations.proto` declares them.
pub fn conforms(operation: &Operation) {
    use app::backend::operations::proto_schema::check_any;
    if let Err(problem) = check_any(&operation.metadata) {
        panic!(
            "{}'s metadata: {problem}: {}",
            operation.name, operation.metadata
        );
    }
    if let Some(response) = &operation.response {
        if let Err(problem) = check_any(response) {
            panic!("{}'s response: {problem}: {response}", operation.name);
        }
    }
}

/// Runs `tally ops …` with only `PATH` and the given environment, off the
/// runtime's threads (a server under test may run on them).
pub async fn tally_ops(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = super::tally_binary();
    command
        .arg("ops")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdin(std::process::Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

/// Everything a command printed, stdout then stderr.
pub fn said(output: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
