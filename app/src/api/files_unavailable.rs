//! Outside the browser no file can be chosen.

pub async fn upload_chosen(
    _input: &leptos::web_sys::HtmlInputElement,
    _url: &str,
) -> Result<Option<(u16, String)>, String> {
    Err("sending a file needs JavaScript".to_owned())
}
