//! What a page's form action answered, as the page should hear it: a
//! refusal that came back in the address after a post without JavaScript
//! (which `ServerAction` reads there, on the server too), then every answer
//! the page's own posts get.

use leptos::prelude::*;
use leptos::server::ServerActionError;
use leptos::server_fn::error::ServerFnUrlError;
use leptos::server_fn::ServerFn;

use super::ApiFailure;
use crate::contract::error::ErrorBody;

/// Hands `action`'s answers to `heard`: at once a refusal the address
/// carried, and afterwards each new answer (the value the page opened with
/// is not heard twice).
pub fn each_answer<S>(
    action: ServerAction<S>,
    heard: impl Fn(Result<S::Output, ApiFailure>) + 'static,
) where
    S: ServerFn<Error = ErrorBody> + Clone + Send + Sync + 'static,
    S::Output: Clone + Send + Sync + 'static,
{
    if let Some(Err(refused)) = action.value().get_untracked() {
        heard(Err(refused.into()));
    }
    each_new(move || action.value().get(), heard);
}

/// Hands each new answer of the page's own `action` (a file form's, whose
/// data a `ServerAction` cannot carry) to `heard`.
pub fn each_local_answer<I, O>(
    action: Action<I, Result<O, ErrorBody>>,
    heard: impl Fn(Result<O, ApiFailure>) + 'static,
) where
    I: Send + Sync + 'static,
    O: Clone + Send + Sync + 'static,
{
    each_new(move || action.value().get(), heard);
}

/// Runs `heard` on each answer `answer` reads after the first reading.
fn each_new<O: 'static>(
    answer: impl Fn() -> Option<Result<O, ErrorBody>> + 'static,
    heard: impl Fn(Result<O, ApiFailure>) + 'static,
) {
    Effect::new(move |seen: Option<()>| {
        let answer = answer();
        if seen.is_some() {
            if let Some(answer) = answer {
                heard(answer.map_err(ApiFailure::from));
            }
        }
    });
}

/// The refusal `S` sent the browser back with after its form was posted
/// without JavaScript (`__err` in the address), for a page that posts the
/// form's data itself (a file form) instead of through a `ServerAction`.
pub fn refusal_in_address<S: ServerFn>() -> Option<ApiFailure> {
    use_context::<ServerActionError>()
        .filter(|error| error.path() == S::PATH)
        .map(|error| ServerFnUrlError::<ErrorBody>::decode_err(error.err()).into())
}
