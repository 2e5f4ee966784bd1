//! Lazy routes grouped into a few named chunks of the split bundle.
//!
//! `#[lazy_route]` gives every route a chunk of its own, and the splitter
//! then gives every *set* of routes that shares some code a chunk of its
//! own too: the Tracker's first load was 137 requests. Here the routes of
//! one area name the same chunk (`wasm_split`'s module), so code they share
//! sits in that chunk and only code shared between areas is split further.
//! Which route goes in which chunk is the list in `docs/decisions.md`
//! ("One chunk per area of the app").

/// `impl LazyRoute for $route` whose view is split into the chunk `$chunk`.
///
/// The common form shows one page component after the route is chosen:
/// `split_route!(TrackerRoute => TrackerPage in app);`. The long form
/// gives `data` and `view` bodies of its own (`view_fn` names the split
/// function; it must be unique in the crate).
macro_rules! split_route {
    ($route:ident => $page:ident in $chunk:ident) => {
        $crate::pages::split_route::split_route! {
            $route in $chunk as $page,
            data { Self },
            view(_this) {
                // `super::`: inside the split module `$page` is the split
                // function itself.
                ::leptos::prelude::view! {
                    <super::$page/> <crate::components::layout::PageLoaded/>
                }
                .into_any()
            }
        }
    };
    (
        $route:ident in $chunk:ident as $view_fn:ident,
        data $data:block,
        view($this:ident) $view:block
    ) => {
        impl ::leptos_router::LazyRoute for $route {
            fn data() -> Self {
                $crate::components::layout::page_loading();
                $data
            }

            async fn view(this: Self) -> ::leptos::prelude::AnyView {
                $view_fn::$view_fn(this).await
            }

            async fn preload() {
                #[cfg(feature = "hydrate")]
                $view_fn::preload().await;
            }
        }

        #[allow(non_snake_case)]
        mod $view_fn {
            #[allow(unused_imports)]
            use super::*;

            // The browser build: the body goes to the chunk's WASM module,
            // loaded (with the chunks it needs) the first time it is called.
            #[cfg(feature = "hydrate")]
            #[::leptos::wasm_split::wasm_split(
                $chunk,
                wasm_split_path = ::leptos::wasm_split,
                preload(preload)
            )]
            pub(super) fn $view_fn($this: $route) -> ::leptos::prelude::AnyView $view

            // The server: the page is rendered in place, and the chunk is
            // named so the page's `<head>` preloads its files (as one pack
            // when the build has one, `backend::wasm_packs`).
            #[cfg(not(feature = "hydrate"))]
            pub(super) async fn $view_fn($this: $route) -> ::leptos::prelude::AnyView {
                #[cfg(feature = "ssr")]
                $crate::backend::wasm_packs::preload(stringify!($chunk));
                #[cfg(not(feature = "ssr"))]
                ::leptos::prefetch_lazy_fn_on_server(stringify!($chunk));
                $view
            }
        }
    };
}

pub(crate) use split_route;
