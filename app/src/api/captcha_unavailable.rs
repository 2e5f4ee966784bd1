//! Outside the browser there is no widget: nothing renders, no token.

pub async fn render(
    _element: &leptos::web_sys::HtmlElement,
    _site_key: &str,
    _script_url: &str,
) -> Result<String, String> {
    Err("the bot check needs JavaScript".to_owned())
}

pub fn token(_id: &str) -> Option<String> {
    None
}

pub fn reset(_id: &str) {}
