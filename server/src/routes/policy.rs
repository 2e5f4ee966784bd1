//! What the edge needs to know of the declared use cases, read once: who
//! may call each REST route and each server function, which server
//! functions and account forms a page's form posts, and which paths go
//! without a CSRF token or may be called from another site. The REST gate
//! ([`admit`]) is here too.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::use_case::{Caller, RateLimit, UseCase};
use super::use_cases::declared;
use crate::state::AppState;

/// Where Leptos serves the server functions.
pub const SERVER_FN_PREFIX: &str = "/api/fn/";

/// What a use case declares of one of its REST routes.
#[derive(Clone, Copy, Debug)]
pub struct RestRule {
    pub method: &'static str,
    pub caller: Caller,
    pub limit: Option<RateLimit>,
    pub fresh_password: bool,
}

/// The declarations' rules, by path.
pub struct Policy {
    /// A route's path → its methods, each with its rule.
    rest: HashMap<&'static str, Vec<RestRule>>,
    /// A server function's endpoint → who may call it.
    server_fns: HashMap<&'static str, Caller>,
    /// The server functions a page's form posts.
    forms: HashSet<&'static str>,
    /// The server functions whose form carries a file, each with the
    /// file's limit.
    uploads: HashMap<&'static str, usize>,
    /// The account forms' own paths, each with who may post it.
    page_forms: Vec<(&'static str, Caller)>,
    /// Paths (REST, and `/api/fn/…`) that need no CSRF token.
    csrf_exempt: Vec<String>,
    /// Route paths another site may call.
    cross_origin: Vec<&'static str>,
}

impl Policy {
    fn of(cases: &[UseCase]) -> Self {
        let mut policy = Policy {
            rest: HashMap::new(),
            server_fns: HashMap::new(),
            forms: HashSet::new(),
            uploads: HashMap::new(),
            page_forms: Vec::new(),
            csrf_exempt: Vec::new(),
            cross_origin: Vec::new(),
        };
        for case in cases {
            for rest in &case.rest {
                policy.rest.entry(rest.path).or_default().push(RestRule {
                    method: rest.method,
                    caller: case.caller,
                    limit: case.limit,
                    fresh_password: case.fresh_password,
                });
                if case.public_form {
                    policy.csrf_exempt.push(rest.path.to_owned());
                }
                if case.cross_origin && !policy.cross_origin.contains(&rest.path) {
                    policy.cross_origin.push(rest.path);
                }
            }
            if let Some(form) = &case.page_form {
                policy.page_forms.push((form.path, case.caller));
            }
            if let Some(endpoint) = case.server_fn {
                // A server function serving several use cases: they
                // agree on its caller at a browser (a test holds them to
                // it); the strictest is kept all the same.
                let caller = policy.server_fns.entry(endpoint).or_insert(case.caller);
                if case.caller.at_a_browser() > caller.at_a_browser() {
                    *caller = case.caller;
                }
                if case.form {
                    policy.forms.insert(endpoint);
                }
                if let Some(limit) = case.file_form {
                    policy.uploads.insert(endpoint, limit);
                }
                if case.public_form {
                    policy
                        .csrf_exempt
                        .push(format!("{SERVER_FN_PREFIX}{endpoint}"));
                }
            }
        }
        policy
    }

    /// Who may call the route at `path` (as routed, with its `{id}`s)
    /// with `method`; `None` for a route no use case declares.
    pub fn rest_caller(&self, method: &str, path: &str) -> Option<Caller> {
        self.rest_rule(method, path).map(|rule| rule.caller)
    }

    /// What the use case of the route at `path` with `method` declares.
    pub fn rest_rule(&self, method: &str, path: &str) -> Option<RestRule> {
        self.rest
            .get(path)?
            .iter()
            .find(|rule| rule.method == method)
            .copied()
    }

    /// Who may call the server function at `path` (`/api/fn/…`), as its
    /// use case declares; `None` for one no use case declares, which is
    /// not served at all.
    pub fn server_fn_caller(&self, path: &str) -> Option<Caller> {
        let endpoint = path.strip_prefix(SERVER_FN_PREFIX).unwrap_or(path);
        self.server_fns.get(endpoint).copied()
    }

    /// Whether `path` is a server function a page's form posts.
    pub fn is_form_action(&self, path: &str) -> bool {
        path.strip_prefix(SERVER_FN_PREFIX)
            .is_some_and(|endpoint| self.forms.contains(endpoint))
    }

    /// The file's limit when `path` is a server function whose form
    /// carries a file.
    pub fn file_form_limit(&self, path: &str) -> Option<usize> {
        let endpoint = path.strip_prefix(SERVER_FN_PREFIX)?;
        self.uploads.get(endpoint).copied()
    }

    /// Whether `path` is an account form's own path (its CSRF token
    /// comes in a field).
    pub fn is_page_form(&self, path: &str) -> bool {
        self.page_forms.iter().any(|(form, _)| *form == path)
    }

    /// The account forms' paths, each with who may post it.
    pub fn page_forms(&self) -> &[(&'static str, Caller)] {
        &self.page_forms
    }

    /// The paths that need no CSRF token: the public forms, which act
    /// for no account.
    pub fn csrf_exempt(&self) -> &[String] {
        &self.csrf_exempt
    }

    /// The route paths another site may call (`CORS_ORIGIN`).
    pub fn cross_origin(&self) -> &[&'static str] {
        &self.cross_origin
    }

    /// Every declared server function's endpoint.
    pub fn server_fn_endpoints(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.server_fns.keys().copied()
    }
}

static POLICY: LazyLock<Policy> = LazyLock::new(|| Policy::of(&declared(true)));

/// The declarations' rules (diagnostics included: a route that is not
/// mounted is never asked about).
pub fn policy() -> &'static Policy {
    &POLICY
}

/// The REST door's gate: the caller its use case declares, checked
/// before the handler runs (and before it reads a body). A route no use
/// case declares (the API's not-found answer) goes on.
pub async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let caller = request
        .extensions()
        .get::<MatchedPath>()
        .and_then(|matched| policy().rest_caller(request.method().as_str(), matched.as_str()));
    let Some(caller) = caller else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    if let Err(refused) = caller.admit(&mut parts, &state).await {
        return refused.into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}
