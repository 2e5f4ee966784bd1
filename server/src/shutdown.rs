//! The shutdown signal: SIGTERM (what `docker stop` sends) or Ctrl-C.

use std::future::Future;

/// Installs the signal handlers now (so a signal that arrives before the
/// server starts waiting is not lost, nor left to the default action of
/// killing the process) and completes when one arrives.
#[cfg(unix)]
pub fn signal() -> impl Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let terminate = signal(SignalKind::terminate());
    let interrupt = signal(SignalKind::interrupt());
    async move {
        match (terminate, interrupt) {
            (Ok(mut terminate), Ok(mut interrupt)) => {
                tokio::select! {
                    _ = terminate.recv() => tracing::info!("SIGTERM received; shutting down"),
                    _ = interrupt.recv() => tracing::info!("Ctrl-C received; shutting down"),
                }
            }
            (Err(error), _) | (_, Err(error)) => {
                tracing::error!(%error, "cannot listen for shutdown signals");
                std::future::pending::<()>().await;
            }
        }
    }
}

#[cfg(not(unix))]
pub fn signal() -> impl Future<Output = ()> {
    async {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("Ctrl-C received; shutting down");
        }
    }
}
