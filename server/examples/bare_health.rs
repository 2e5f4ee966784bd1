//! The yardstick of `make bench-http`: a bare axum handler that answers
//! `GET /api/health` with the same JSON as Tally's health probe, on tokio's
//! default runtime, with no middleware, no database and no logging. Tally's
//! own routes are measured as ratios against it in the same run.
//!
//!   cargo build --profile server-release -p server --example bare_health
//!   target/server-release/examples/bare_health 3999

use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

#[derive(Serialize)]
struct Health {
    status: &'static str,
    db: &'static str,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|port| port.parse().ok())
        .unwrap_or(3999);
    let app = Router::new().route(
        "/api/health",
        get(|| async {
            Json(Health {
                status: "ok",
                db: "ok",
            })
        }),
    );
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("bare axum listening on {port}");
    axum::serve(listener, app).await
}
