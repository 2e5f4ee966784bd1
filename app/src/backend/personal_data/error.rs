//! What can go wrong with a personal export or its import, mapped to HTTP
//! once (`api_error`).

#[derive(Debug, thiserror::Error)]
pub enum PersonalDataError {
    /// The file is not a Tally export this Tally can take; the message says
    /// why in words.
    #[error("file: {0}")]
    NotAnExport(String),
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// The scratch directory or a scratch file failed.
    #[error("scratch file: {0}")]
    Scratch(String),
    #[error("{0}")]
    Sealing(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<std::io::Error> for PersonalDataError {
    fn from(error: std::io::Error) -> Self {
        Self::Scratch(error.to_string())
    }
}
