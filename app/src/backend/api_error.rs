//! The one error type of the REST routes and the UI's server functions,
//! and its single mapping to HTTP ([`ApiError::body`]). Internal details
//! are logged with the request's id, never sent.

use std::time::Duration;

use crate::backend::bank::simplefin::ProviderError;
use crate::backend::bank::BankError;
use crate::backend::bills::BillError;
use crate::backend::preferences::PreferencesError;
use crate::contract::error::{ErrorBody, ErrorDetail, ErrorStatus};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Nothing there; the message says what was looked for.
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A field of the request is invalid: `field` names it (lowerCamelCase).
    #[error("{field}: {description}")]
    InvalidField { field: String, description: String },
    /// Several fields are invalid; each is named.
    #[error("{}", .0.iter().map(|v| format!("{}: {}", v.field, v.description)).collect::<Vec<_>>().join("; "))]
    InvalidFields(Vec<crate::domain::validation::FieldViolation>),
    #[error("the request body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// A dependency is down for now; worth retrying later.
    #[error("{message}")]
    Unavailable {
        message: String,
        retry_after: Duration,
    },
    /// A method of the API Tally does not offer.
    #[error("{0}")]
    Unimplemented(String),
    #[error("sign in first")]
    Unauthenticated,
    #[error("email or password is wrong")]
    WrongCredentials,
    /// A revoked or expired API token: 401, saying which.
    #[error("{0}")]
    TokenRefused(&'static str),
    #[error("{0}")]
    Forbidden(String),
    /// The request is valid but the system is not in a state to do it
    /// (a safeguard); the message says which condition is missing.
    #[error("{0}")]
    FailedPrecondition(String),
    /// What the request acts on is not in the state it needs yet (an email
    /// channel whose address has not been confirmed): 409 with
    /// `FAILED_PRECONDITION`, as issue 52 pins. A safeguard refusing a
    /// settings change stays [`Self::FailedPrecondition`]'s 400.
    #[error("{0}")]
    Conflict(String),
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after: Duration,
    },
    /// The request ran past the server's limit and was stopped.
    #[error("the request took longer than {} s and was stopped; try again", .0.as_secs())]
    DeadlineExceeded(Duration),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Internal(String),
}

impl From<crate::backend::auth::AuthError> for ApiError {
    fn from(error: crate::backend::auth::AuthError) -> Self {
        use crate::backend::auth::AuthError;
        match error {
            AuthError::Field(violation) => violation.into(),
            AuthError::Database(error) => Self::Database(error),
            AuthError::Hashing(message) | AuthError::Sealing(message) => Self::Internal(message),
            AuthError::NotFound(message) => Self::NotFound(message),
            AuthError::Forbidden(message) => Self::Forbidden(message),
            AuthError::WrongCredentials => Self::WrongCredentials,
            AuthError::TokenRefused(why) => Self::TokenRefused(why),
            AuthError::TooMany {
                message,
                retry_after,
            } => Self::TooManyRequests {
                message,
                retry_after,
            },
            AuthError::Sso(error) => (*error).into(),
        }
    }
}

/// A failed password check answers as the auth feature's error does
/// (`AuthError`'s conversion names the field or says how long to wait).
impl From<crate::backend::auth::password_check::PasswordCheckError> for ApiError {
    fn from(error: crate::backend::auth::password_check::PasswordCheckError) -> Self {
        crate::backend::auth::AuthError::from(error).into()
    }
}

impl From<BankError> for ApiError {
    fn from(error: BankError) -> Self {
        match error {
            BankError::Disabled => Self::Forbidden(error.to_string()),
            BankError::NotFound(message) => Self::NotFound(message),
            BankError::Disconnected => Self::InvalidField {
                field: "id".into(),
                description: error.to_string(),
            },
            BankError::Provider(
                problem @ (ProviderError::NotASetupToken
                | ProviderError::InsecureUrl
                | ProviderError::AddressRefused
                | ProviderError::TokenRefused),
            ) => Self::InvalidField {
                field: "setupToken".into(),
                description: problem.to_string(),
            },
            BankError::Provider(problem) => Self::Unavailable {
                message: problem.to_string(),
                retry_after: Duration::from_secs(60),
            },
            BankError::Secret(problem) => Self::Internal(problem.to_string()),
            BankError::Interrupted(problem) => Self::Internal(problem),
            BankError::TooManyConnections(_) => Self::BadRequest(error.to_string()),
            BankError::Database(problem) => Self::Database(problem),
            BankError::TooManySyncs { retry_after } => Self::TooManyRequests {
                message: error.to_string(),
                retry_after,
            },
            BankError::Field(violation) => violation.into(),
            BankError::Internal(problem) => Self::Internal(problem),
            BankError::Operations(problem) => problem.into(),
            BankError::Bill(problem) => problem.into(),
        }
    }
}

impl From<crate::backend::bills::BillImportError> for ApiError {
    fn from(error: crate::backend::bills::BillImportError) -> Self {
        use crate::backend::bills::BillImportError;
        match error {
            BillImportError::NotText | BillImportError::Unreadable(_) => {
                Self::BadRequest(error.to_string())
            }
            BillImportError::TooLarge { limit } => Self::PayloadTooLarge { limit },
            BillImportError::Field(violation) => violation.into(),
            BillImportError::Rows(violations) => Self::InvalidFields(violations),
            BillImportError::Kept(error) => error.into(),
            BillImportError::Bill(error) => error.into(),
            BillImportError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::migrate::MigrateError> for ApiError {
    fn from(error: crate::backend::migrate::MigrateError) -> Self {
        use crate::backend::migrate::MigrateError;
        match error {
            MigrateError::Database(error) => Self::Database(error),
            MigrateError::NothingApplied | MigrateError::NoRollback(_) => {
                Self::BadRequest(error.to_string())
            }
            MigrateError::NotConfirmed(_) => Self::InvalidField {
                field: "confirm".into(),
                description: error.to_string(),
            },
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<crate::backend::backup::StartRestoreError> for ApiError {
    fn from(error: crate::backend::backup::StartRestoreError) -> Self {
        use crate::backend::backup::StartRestoreError;
        match error {
            StartRestoreError::BadName(_) => Self::InvalidField {
                field: "backupFile".into(),
                description: error.to_string(),
            },
            StartRestoreError::NotFound(_) => Self::NotFound(error.to_string()),
            StartRestoreError::NotConfirmed(_) => Self::InvalidField {
                field: "confirm".into(),
                description: error.to_string(),
            },
            StartRestoreError::Operations(error) => error.into(),
        }
    }
}

impl From<crate::backend::backup::BackupError> for ApiError {
    fn from(error: crate::backend::backup::BackupError) -> Self {
        use crate::backend::backup::BackupError;
        match error {
            BackupError::NotFound(_) => Self::NotFound(error.to_string()),
            BackupError::BadName(_) => Self::InvalidField {
                field: "name".into(),
                description: error.to_string(),
            },
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<crate::backend::contact::ContactError> for ApiError {
    fn from(error: crate::backend::contact::ContactError) -> Self {
        use crate::backend::contact::ContactError;
        match error {
            ContactError::TooMany { retry_after } => Self::TooManyRequests {
                message: error.to_string(),
                retry_after,
            },
            ContactError::Invalid(violations) => Self::InvalidFields(violations),
            ContactError::BotCheckUnavailable(message) => Self::Unavailable {
                message,
                retry_after: Duration::from_secs(30),
            },
            ContactError::PageSize => Self::InvalidField {
                field: "pageSize".into(),
                description: error.to_string(),
            },
            ContactError::NothingToResend(_) => Self::NotFound(error.to_string()),
            ContactError::Store(error) => error.into(),
            ContactError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::subscriptions::SubscriptionError> for ApiError {
    fn from(error: crate::backend::subscriptions::SubscriptionError) -> Self {
        use crate::backend::subscriptions::SubscriptionError;
        match error {
            SubscriptionError::Field(violation) => violation.into(),
            SubscriptionError::Fields(violations) => Self::InvalidFields(violations),
            SubscriptionError::NotFound(message) => Self::NotFound(message),
            SubscriptionError::Internal(message) => Self::Internal(message),
            SubscriptionError::Bill(error) => error.into(),
            SubscriptionError::Bank(error) => error.into(),
            SubscriptionError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::contact::group_commit::StoreError> for ApiError {
    fn from(error: crate::backend::contact::group_commit::StoreError) -> Self {
        Self::Internal(error.to_string())
    }
}

impl From<crate::backend::operations::OperationsError> for ApiError {
    fn from(error: crate::backend::operations::OperationsError) -> Self {
        use crate::backend::operations::OperationsError;
        let field = |field: &str, error: &dyn std::fmt::Display| Self::InvalidField {
            field: field.to_owned(),
            description: error.to_string(),
        };
        match error {
            OperationsError::NotFound(_) => Self::NotFound(error.to_string()),
            OperationsError::Filter(ref inner) => field("filter", inner),
            OperationsError::PageToken(ref inner) => field("pageToken", inner),
            OperationsError::PageSize(_) => field("pageSize", &error),
            OperationsError::NotYours => Self::Forbidden(error.to_string()),
            OperationsError::Database(error) => Self::Database(error),
        }
    }
}

impl From<BillError> for ApiError {
    fn from(error: BillError) -> Self {
        match error {
            BillError::NotFound => Self::NotFound("no such bill or payment".into()),
            BillError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            BillError::InvalidFields(violations) => Self::InvalidFields(violations),
            BillError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::notifications::NotifyError> for ApiError {
    fn from(error: crate::backend::notifications::NotifyError) -> Self {
        use crate::backend::notifications::NotifyError;
        match error {
            NotifyError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            NotifyError::NotFound(message) => Self::NotFound(message),
            NotifyError::TooManyChannels(_) => Self::BadRequest(error.to_string()),
            NotifyError::Unconfirmed => Self::Conflict(error.to_string()),
            NotifyError::TooManyTests { retry_after } => Self::TooManyRequests {
                message: error.to_string(),
                retry_after,
            },
            NotifyError::Secret(problem) => Self::Internal(problem.to_string()),
            NotifyError::Database(problem) => Self::Database(problem),
            NotifyError::Operations(problem) => Self::Internal(problem),
        }
    }
}

impl From<crate::backend::bill_months::BillMonthError> for ApiError {
    fn from(error: crate::backend::bill_months::BillMonthError) -> Self {
        use crate::backend::bill_months::BillMonthError;
        match error {
            BillMonthError::NoBill => Self::NotFound("no such bill".into()),
            BillMonthError::Invalid(problems) => Self::InvalidFields(problems),
            BillMonthError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::drift::DriftError> for ApiError {
    fn from(error: crate::backend::drift::DriftError) -> Self {
        use crate::backend::drift::DriftError;
        match error {
            DriftError::NoBill => Self::NotFound("no such bill".into()),
            DriftError::NotDrifting(message) => Self::BadRequest(message),
            DriftError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            DriftError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::kept_upload::KeptError> for ApiError {
    fn from(error: crate::backend::kept_upload::KeptError) -> Self {
        use crate::backend::kept_upload::KeptError;
        match error {
            KeptError::NotKept => Self::NotFound(error.to_string()),
            KeptError::Quota(error) => error.into(),
            KeptError::Scratch(_) => Self::Internal(error.to_string()),
        }
    }
}

impl From<crate::backend::upload_quota::UploadQuotaError> for ApiError {
    fn from(error: crate::backend::upload_quota::UploadQuotaError) -> Self {
        use crate::backend::upload_quota::UploadQuotaError;
        match error.retry_after() {
            Some(retry_after) => Self::TooManyRequests {
                message: error.to_string(),
                retry_after,
            },
            None => match error {
                UploadQuotaError::Database(error) => Self::Database(error),
                other => Self::Internal(other.to_string()),
            },
        }
    }
}

impl From<crate::backend::workbook::WorkbookError> for ApiError {
    fn from(error: crate::backend::workbook::WorkbookError) -> Self {
        use crate::backend::workbook::WorkbookError;
        match error {
            WorkbookError::Database(error) => Self::Database(error),
            WorkbookError::Bills(error) => error.into(),
            WorkbookError::Unreadable(description) => Self::InvalidField {
                field: "file".into(),
                description,
            },
            WorkbookError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            WorkbookError::Problems(problems) => Self::InvalidFields(problems),
            WorkbookError::Kept(error) => error.into(),
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<crate::backend::statements::ImportError> for ApiError {
    fn from(error: crate::backend::statements::ImportError) -> Self {
        use crate::backend::statements::ImportError;
        match error {
            ImportError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            ImportError::TooLarge { limit } => Self::PayloadTooLarge { limit },
            ImportError::NotFound(message) => Self::NotFound(message),
            ImportError::NotNow(message) => Self::FailedPrecondition(message),
            ImportError::CannotDiscard(message) => Self::Conflict(message),
            ImportError::File(error) => Self::InvalidField {
                field: "file".into(),
                description: error.to_string(),
            },
            ImportError::Operations(error) => error.into(),
            ImportError::Quota(error) => error.into(),
            ImportError::Sealing(message) => Self::Internal(message),
            ImportError::Database(error) => Self::Database(error),
        }
    }
}

impl From<crate::backend::personal_data::PersonalDataError> for ApiError {
    fn from(error: crate::backend::personal_data::PersonalDataError) -> Self {
        use crate::backend::personal_data::PersonalDataError;
        match error {
            PersonalDataError::NotAnExport(description) => Self::InvalidField {
                field: "file".into(),
                description,
            },
            PersonalDataError::TooLarge { limit } => Self::PayloadTooLarge { limit },
            PersonalDataError::Quota(error) => error.into(),
            other @ PersonalDataError::Interrupted => Self::Conflict(other.to_string()),
            PersonalDataError::Database(error) => Self::Database(error),
            other @ (PersonalDataError::Scratch(_) | PersonalDataError::Sealing(_)) => {
                Self::Internal(other.to_string())
            }
        }
    }
}

impl From<crate::backend::sso::SsoError> for ApiError {
    fn from(error: crate::backend::sso::SsoError) -> Self {
        match error {
            crate::backend::sso::SsoError::Database(error) => Self::Database(error),
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<crate::backend::sso::authentication::AuthenticationError> for ApiError {
    fn from(error: crate::backend::sso::authentication::AuthenticationError) -> Self {
        use crate::backend::sso::authentication::AuthenticationError;
        match error {
            AuthenticationError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            AuthenticationError::Refused(message) => Self::FailedPrecondition(message),
            AuthenticationError::NotFound(message) => Self::NotFound(message),
            AuthenticationError::Sealing(message) => Self::Internal(message),
            AuthenticationError::Database(error) => Self::Database(error),
        }
    }
}

impl From<PreferencesError> for ApiError {
    fn from(error: PreferencesError) -> Self {
        match error {
            PreferencesError::Invalid(problems) => Self::InvalidFields(problems),
            PreferencesError::Database(error) => Self::Database(error),
        }
    }
}

impl ApiError {
    fn status(&self) -> (StatusCode, &'static str) {
        match self {
            Self::NotFound(_) => (StatusCode::NOT_FOUND, "NOT_FOUND"),
            Self::BadRequest(_) | Self::InvalidField { .. } | Self::InvalidFields(_) => {
                (StatusCode::BAD_REQUEST, "INVALID_ARGUMENT")
            }
            Self::PayloadTooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "INVALID_ARGUMENT"),
            Self::Unavailable { .. } => (StatusCode::SERVICE_UNAVAILABLE, "UNAVAILABLE"),
            Self::Unauthenticated | Self::WrongCredentials | Self::TokenRefused(_) => {
                (StatusCode::UNAUTHORIZED, "UNAUTHENTICATED")
            }
            Self::Forbidden(_) => (StatusCode::FORBIDDEN, "PERMISSION_DENIED"),
            Self::FailedPrecondition(_) => (StatusCode::BAD_REQUEST, "FAILED_PRECONDITION"),
            Self::Conflict(_) => (StatusCode::CONFLICT, "FAILED_PRECONDITION"),
            Self::TooManyRequests { .. } => (StatusCode::TOO_MANY_REQUESTS, "RESOURCE_EXHAUSTED"),
            Self::DeadlineExceeded(_) => (StatusCode::GATEWAY_TIMEOUT, "DEADLINE_EXCEEDED"),
            Self::Unimplemented(_) => (StatusCode::NOT_IMPLEMENTED, "UNIMPLEMENTED"),
            Self::Database(_) | Self::Internal(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL")
            }
        }
    }
}

impl ApiError {
    /// The answer's status and body: the one mapping of every error to what
    /// a client sees, for REST (`IntoResponse`) and server functions alike.
    /// Server faults are logged here and answered without their details.
    pub fn body(&self) -> (StatusCode, ErrorBody) {
        let (status, name) = self.status();
        let message = if matches!(self, Self::Database(_) | Self::Internal(_)) {
            tracing::error!(error = %self, "request failed");
            "internal error; the request id in the x-request-id header identifies it in the logs"
                .to_owned()
        } else {
            self.to_string()
        };
        let details = match self {
            Self::InvalidField { field, description } => Some(vec![ErrorDetail::BadRequest {
                field_violations: vec![crate::domain::validation::FieldViolation {
                    field: field.clone(),
                    description: description.clone(),
                }],
            }]),
            Self::InvalidFields(violations) => Some(vec![ErrorDetail::BadRequest {
                field_violations: violations.clone(),
            }]),
            _ => None,
        };
        let body = ErrorBody {
            error: ErrorStatus {
                code: status.as_u16(),
                message,
                status: name.to_owned(),
                details,
            },
        };
        (status, body)
    }
}

/// One field at fault, as a feature's error names it.
impl From<crate::domain::validation::FieldViolation> for ApiError {
    fn from(violation: crate::domain::validation::FieldViolation) -> Self {
        Self::InvalidField {
            field: violation.field,
            description: violation.description,
        }
    }
}

impl From<ApiError> for ErrorBody {
    fn from(error: ApiError) -> Self {
        error.body().1
    }
}

/// A feature's error as the pages' server functions answer it: through
/// its one mapping to [`ApiError`] above, as the REST routes answer it.
macro_rules! error_body_from {
    ($($error:ty),* $(,)?) => {$(
        impl From<$error> for ErrorBody {
            fn from(error: $error) -> Self {
                ApiError::from(error).into()
            }
        }
    )*};
}

error_body_from!(
    crate::backend::auth::AuthError,
    crate::backend::auth::password_check::PasswordCheckError,
    BankError,
    crate::backend::bills::BillImportError,
    crate::backend::migrate::MigrateError,
    crate::backend::backup::StartRestoreError,
    crate::backend::backup::BackupError,
    crate::backend::contact::ContactError,
    crate::backend::subscriptions::SubscriptionError,
    crate::backend::contact::group_commit::StoreError,
    crate::backend::operations::OperationsError,
    BillError,
    crate::backend::notifications::NotifyError,
    crate::backend::bill_months::BillMonthError,
    crate::backend::drift::DriftError,
    crate::backend::kept_upload::KeptError,
    crate::backend::workbook::WorkbookError,
    crate::backend::statements::ImportError,
    crate::backend::personal_data::PersonalDataError,
    crate::backend::sso::SsoError,
    crate::backend::sso::authentication::AuthenticationError,
    PreferencesError,
    crate::domain::validation::FieldViolation,
    sqlx::Error,
);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = self.body();
        let mut response = (status, Json(body)).into_response();
        if let Self::TooManyRequests { retry_after, .. } | Self::Unavailable { retry_after, .. } =
            &self
        {
            let seconds = retry_after.as_secs().max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), 8192)
            .await
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn server_faults_hide_their_details() {
        let response = ApiError::Database(sqlx::Error::PoolTimedOut).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let json = body(response).await;
        assert_eq!(json["error"]["status"], "INTERNAL");
        assert!(!json.to_string().contains("pool"), "{json}");
    }

    #[tokio::test]
    async fn client_errors_say_what_is_wrong() {
        let response = ApiError::BadRequest("ms must be at most 20000".into()).into_response();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let json = body(response).await;
        assert_eq!(json["error"]["code"], 400);
        assert_eq!(json["error"]["message"], "ms must be at most 20000");
    }

    #[tokio::test]
    async fn field_errors_name_the_field() {
        let refused = crate::domain::validation::FieldViolation::new("email", "enter an address");
        let json = body(ApiError::from(refused).into_response()).await;
        assert_eq!(
            json["error"]["details"][0]["fieldViolations"][0]["field"],
            "email"
        );
        assert_eq!(json["error"]["message"], "email: enter an address");
    }

    #[tokio::test]
    async fn a_state_not_ready_yet_is_a_409_failed_precondition() {
        let response = ApiError::Conflict("confirm the address first".into()).into_response();
        assert_eq!(response.status(), StatusCode::CONFLICT);
        let json = body(response).await;
        assert_eq!(json["error"]["code"], 409);
        assert_eq!(json["error"]["status"], "FAILED_PRECONDITION");
        assert_eq!(json["error"]["message"], "confirm the address first");
    }

    #[tokio::test]
    async fn too_many_requests_says_when_to_retry() {
        let response = ApiError::TooManyRequests {
            message: "slow down".into(),
            retry_after: Duration::from_millis(1500),
        }
        .into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }
}
