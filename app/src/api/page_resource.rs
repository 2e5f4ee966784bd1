//! Resources the server fills while it renders a page and sends along with
//! it, decoded in the browser by the same JSON code as server functions'
//! answers.
//!
//! Leptos's own `JsonSerdeCodec` reads a resource's value with
//! `serde_json::from_str`, while server functions read their answers with
//! `from_slice`; for serde those are two readers, so every type a page
//! receives both ways was compiled into the bundle twice. [`PageJson`]
//! reads with `from_slice` too: one copy of each type's decoder, about a
//! tenth of a signed-in page's WASM (docs/decisions.md, "One reader of
//! JSON in the bundle").

use leptos::prelude::Resource;
use leptos::server::codee::{Decoder, Encoder};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// JSON, written as `JsonSerdeCodec` writes it and read as server
/// functions read their answers.
pub struct PageJson;

impl<T: Serialize> Encoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: DeserializeOwned> Decoder<T> for PageJson {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(encoded: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(encoded.as_bytes())
    }
}

/// A blocking resource in [`PageJson`]: the server waits for it and sends
/// its value with the page.
pub type PageResource<T> = Resource<T, PageJson>;

/// `Resource::new_blocking`, in [`PageJson`].
#[track_caller]
pub fn page_resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> PageResource<T>
where
    T: Serialize + DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let value = vec![Some(3_i64), None];
        let encoded = <PageJson as Encoder<Vec<Option<i64>>>>::encode(&value).unwrap();
        assert_eq!(encoded, "[3,null]");
        let decoded: Vec<Option<i64>> = <PageJson as Decoder<_>>::decode(&encoded).unwrap();
        assert_eq!(decoded, value);
        assert!(<PageJson as Decoder<Vec<i64>>>::decode("[1,").is_err());
    }
}
