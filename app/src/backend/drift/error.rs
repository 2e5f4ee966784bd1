//! Why a drift request failed. Mapped to HTTP once, in `backend::api_error`.

#[derive(Debug, thiserror::Error)]
pub enum DriftError {
    #[error("no such bill")]
    NoBill,
    #[error("{0}")]
    NotDrifting(String),
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}
