//! A use case as declared once ([`super::use_cases::declared`]): who may
//! call it, its REST route(s) and its server function, and what its
//! form may do. Both doors are mounted from these declarations: the REST
//! routes ([`super::api_routes`]), and the server functions' gate, CSRF
//! and form rules (`middleware::server_fns`, `middleware::csrf`, through
//! [`super::policy`]); the OpenAPI document names each operation's
//! caller, rate limit and password check from them.

use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::http::request::Parts;
use axum::routing::{self, MethodRouter};
use leptos::server_fn::ServerFn;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{
    AdminSession, AdminUser, BackupAdmin, BrowserSession, CurrentUser, OperationsCaller,
};
use axum::extract::FromRequestParts;

use crate::extract::MAX_API_BODY;
use crate::routes::policy::SERVER_FN_PREFIX;
use crate::state::AppState;

/// Who may call a use case, and with which credential. Every one but
/// [`Caller::Anyone`] is refused before its handler (or server function)
/// runs: 401 for nobody, 403 for someone else or a token without the
/// scope. A browser session may do whatever its user may; a token needs
/// the scope named here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Nobody need be signed in (each applies its own limits).
    Anyone,
    /// Anyone signed in; a token needs `read` to read, `write` to change.
    SignedIn,
    /// The operations API: reading and waiting take `read` or
    /// `admin:backup`, cancelling and deleting `write`.
    Operations,
    /// An administrator; a token needs `admin`.
    Administrator,
    /// An administrator; a token needs `admin:backup`.
    BackupAdmin,
    /// A person at a browser: no token, whatever its scopes.
    BrowserSession,
    /// An administrator at a browser: no token.
    AdminSession,
}

/// Who may call a server function (the app's: its functions ask it).
pub use app::backend::page_caller::PageCaller;

impl Caller {
    /// The caller as the server functions' gate checks it.
    pub fn at_a_browser(self) -> PageCaller {
        match self {
            Caller::Anyone => PageCaller::Anyone,
            Caller::SignedIn | Caller::Operations | Caller::BrowserSession => PageCaller::SignedIn,
            Caller::Administrator | Caller::BackupAdmin | Caller::AdminSession => {
                PageCaller::Administrator
            }
        }
    }

    /// How the OpenAPI document names it (`x-tally-caller`).
    pub fn as_str(self) -> &'static str {
        match self {
            Caller::Anyone => "anyone",
            Caller::SignedIn => "signed-in",
            Caller::Operations => "operations",
            Caller::Administrator => "administrator",
            Caller::BackupAdmin => "backup-administrator",
            Caller::BrowserSession => "browser-session",
            Caller::AdminSession => "administrator-browser-session",
        }
    }

    /// Lets the request's caller through, or answers why not. The user
    /// found is kept in the request, so the handler's own extractor does
    /// not look it up again.
    pub async fn admit(self, parts: &mut Parts, state: &AppState) -> Result<(), ApiError> {
        match self {
            Caller::Anyone => Ok(()),
            Caller::SignedIn => CurrentUser::from_request_parts(parts, state)
                .await
                .map(drop),
            Caller::Operations => OperationsCaller::from_request_parts(parts, state)
                .await
                .map(drop),
            Caller::Administrator => AdminUser::from_request_parts(parts, state).await.map(drop),
            Caller::BackupAdmin => BackupAdmin::from_request_parts(parts, state)
                .await
                .map(drop),
            Caller::BrowserSession => BrowserSession::from_request_parts(parts, state)
                .await
                .map(drop),
            Caller::AdminSession => AdminSession::from_request_parts(parts, state)
                .await
                .map(drop),
        }
    }
}

/// A limit on how often a client may call a use case; the operator sets
/// each (`backend::limits`). The service that knows the limit's key
/// enforces it (an address, the account a body names, the signed-in
/// user), so both doors get it; the declaration says which limit applies,
/// and the OpenAPI document names it (`x-tally-rate-limit`) with its 429
/// answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateLimit {
    /// Sign-in attempts, per address and per account; a check of the
    /// current password counts as one.
    SignIn,
    /// Lead and support submissions together, per address.
    PublicForms,
    /// Single sign-on starts, per address.
    SingleSignOnStart,
    /// Requests that start bank syncs, per user.
    BankSyncs,
    /// Notification channels' "Send test", per user.
    TestSends,
}

impl RateLimit {
    /// How the OpenAPI document names it (`x-tally-rate-limit`).
    pub fn as_str(self) -> &'static str {
        match self {
            RateLimit::SignIn => "sign-in",
            RateLimit::PublicForms => "public-forms",
            RateLimit::SingleSignOnStart => "single-sign-on-start",
            RateLimit::BankSyncs => "bank-syncs",
            RateLimit::TestSends => "test-sends",
        }
    }

    /// The 429 answer's description in the OpenAPI document (its
    /// `Retry-After` says when to try again).
    pub fn description(self) -> &'static str {
        match self {
            RateLimit::SignIn => {
                "Too many sign-in attempts or password checks from this address or for this account"
            }
            RateLimit::PublicForms => "Too many lead and support submissions from this address",
            RateLimit::SingleSignOnStart => "More than 20 starts in 15 minutes from this address",
            RateLimit::BankSyncs => "Over the per-user limit of bank requests",
            RateLimit::TestSends => "More than 5 test messages in 15 minutes from this account",
        }
    }
}

/// One REST route of a use case.
pub struct Rest {
    pub method: &'static str,
    pub path: &'static str,
    pub route: MethodRouter<AppState>,
    /// [`MAX_API_BODY`], or more for a route whose body is a whole file.
    pub body_limit: usize,
}

/// An account form a page posts without JavaScript to a path of its own
/// (`routes::forms`): a secret in a field that must never reach an
/// address, or an answer shown once on a page of its own. The CSRF token
/// rides in its `csrf_token` field. Its handler sends a browser without
/// the declared caller to sign in first.
pub struct PageForm {
    pub path: &'static str,
    pub route: MethodRouter<AppState>,
}

/// A use case's declaration (see the module's documentation).
pub struct UseCase {
    pub name: &'static str,
    pub caller: Caller,
    pub rest: Vec<Rest>,
    /// Its server function's endpoint, after `/api/fn/`.
    pub server_fn: Option<&'static str>,
    /// Its account form without JavaScript, when it has one.
    pub page_form: Option<PageForm>,
    /// Its server function is posted by a page's form, which works
    /// without JavaScript: the CSRF token may come in the form's field.
    pub form: bool,
    /// It acts for no account (the contact and support forms): no CSRF
    /// token, and another site may post it (`CORS_ORIGIN`).
    pub public_form: bool,
    /// Another site's pages may call it (`CORS_ORIGIN`).
    pub cross_origin: bool,
    /// How often a client may call it.
    pub limit: Option<RateLimit>,
    /// It asks for the current password again (`currentPassword` in its
    /// request; some ask only for some changes), which counts against the
    /// sign-in limit.
    pub fresh_password: bool,
    /// Its server function is posted by a page's file form
    /// (`multipart/form-data`) of a file up to this many bytes, read as it
    /// arrives; the function counts the file itself.
    pub file_form: Option<usize>,
}

/// Starts the declaration of the use case `name`.
pub fn case(name: &'static str, caller: Caller) -> UseCase {
    UseCase {
        name,
        caller,
        rest: Vec::new(),
        server_fn: None,
        page_form: None,
        form: false,
        public_form: false,
        cross_origin: false,
        limit: None,
        fresh_password: false,
        file_form: None,
    }
}

impl UseCase {
    fn rest(
        mut self,
        method: &'static str,
        path: &'static str,
        route: MethodRouter<AppState>,
    ) -> Self {
        self.rest.push(Rest {
            method,
            path,
            route,
            body_limit: MAX_API_BODY,
        });
        self
    }

    pub fn get<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.rest("GET", path, routing::get(handler))
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.rest("POST", path, routing::post(handler))
    }

    pub fn put<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, handler: H) -> Self {
        self.rest("PUT", path, routing::put(handler))
    }

    pub fn patch<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        handler: H,
    ) -> Self {
        self.rest("PATCH", path, routing::patch(handler))
    }

    pub fn delete<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        handler: H,
    ) -> Self {
        self.rest("DELETE", path, routing::delete(handler))
    }

    /// The last REST route's body is a whole file of up to `limit` bytes.
    pub fn upload(mut self, limit: usize) -> Self {
        if let Some(last) = self.rest.pop() {
            self.rest.push(Rest {
                route: last.route.layer(DefaultBodyLimit::max(limit)),
                body_limit: limit,
                ..last
            });
        }
        self
    }

    /// The server function `S` serves it for the pages. Its endpoint is
    /// read from its type, so the declaration and the function cannot
    /// disagree.
    pub fn server_fn<S: ServerFn>(mut self) -> Self {
        self.server_fn = Some(S::PATH.strip_prefix(SERVER_FN_PREFIX).unwrap_or(S::PATH));
        self
    }

    /// Its account form posts to `path` (a page's own path) without
    /// JavaScript, answered by `handler`.
    pub fn page_form<H: Handler<T, AppState>, T: 'static>(
        mut self,
        path: &'static str,
        handler: H,
    ) -> Self {
        self.page_form = Some(PageForm {
            path,
            route: routing::post(handler),
        });
        self
    }

    pub fn form(mut self) -> Self {
        self.form = true;
        self
    }

    /// Its server function is posted by a page's file form: a `.form()`
    /// whose body is `multipart/form-data` with a file of up to `limit`
    /// bytes, not read whole first.
    pub fn file_form(mut self, limit: usize) -> Self {
        self.form = true;
        self.file_form = Some(limit);
        self
    }

    pub fn public_form(mut self) -> Self {
        self.public_form = true;
        self.cross_origin = true;
        self
    }

    pub fn cross_origin(mut self) -> Self {
        self.cross_origin = true;
        self
    }

    pub fn limited(mut self, limit: RateLimit) -> Self {
        self.limit = Some(limit);
        self
    }

    /// It asks for the current password again; each check counts as a
    /// sign-in attempt.
    pub fn fresh_password(mut self) -> Self {
        self.fresh_password = true;
        self.limited(RateLimit::SignIn)
    }
}
