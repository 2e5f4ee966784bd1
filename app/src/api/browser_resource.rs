//! Data a component loads in the browser only, once the page is hydrated:
//! for what the server does not render (a form's options, a chart, the
//! account's keys and tokens). It stands where a `LocalResource` would, but
//! takes no part in `Suspense`: a browser-only load inside a page's
//! server-rendered `Suspense` held the page back or, hydrated, sometimes
//! never resolved. The server and the first render in the browser both see
//! "not loaded yet", so hydration matches; an effect then fetches, and again
//! whenever a signal read by the fetch changes or `refetch` is called. An
//! answer that arrives after a newer request was made is dropped.

use std::future::Future;

use leptos::prelude::*;

pub struct BrowserResource<T: Send + Sync + 'static> {
    value: RwSignal<Option<T>>,
    requested: RwSignal<u64>,
}

impl<T: Send + Sync + 'static> Clone for BrowserResource<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for BrowserResource<T> {}

impl<T: Clone + Send + Sync + 'static> BrowserResource<T> {
    /// Loads `fetch()` after hydration; the signals `fetch` reads before
    /// its first `.await` make it load again when they change.
    pub fn new<F, Fut>(fetch: F) -> Self
    where
        F: Fn() -> Fut + 'static,
        Fut: Future<Output = T> + 'static,
    {
        let value = RwSignal::new(None);
        let requested = RwSignal::new(0_u64);
        let latest = StoredValue::new(0_u64);
        Effect::new(move || {
            requested.track();
            let request = latest.get_value() + 1;
            latest.set_value(request);
            let pending = fetch();
            leptos::task::spawn_local(async move {
                let answer = pending.await;
                // The component may be gone by now: then nothing is set.
                if latest.try_get_value() == Some(request) {
                    value.try_set(Some(answer));
                }
            });
        });
        Self { value, requested }
    }

    /// The answer, once there is one (the previous one while reloading).
    pub fn get(&self) -> Option<T> {
        self.value.get()
    }

    /// The answer without subscribing to it.
    pub fn get_untracked(&self) -> Option<T> {
        self.value.get_untracked()
    }

    /// Loads again.
    pub fn refetch(&self) {
        self.requested.update(|n| *n += 1);
    }
}
