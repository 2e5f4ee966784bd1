//! What a page's form action answered, as the page should hear it: a
//! refusal that came back in the address after a post without JavaScript
//! (which `ServerAction` reads there, on the server too), then every answer
//! the page's own posts get.

use leptos::prelude::*;
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
    Effect::new(move |seen: Option<()>| {
        let answer = action.value().get();
        if seen.is_some() {
            if let Some(answer) = answer {
                heard(answer.map_err(ApiFailure::from));
            }
        }
    });
}
