//! Outside the browser no file can be chosen.

pub async fn chosen_text(
    _input: &leptos::web_sys::HtmlInputElement,
) -> Result<Option<String>, String> {
    Err("reading a file needs JavaScript".to_owned())
}

pub async fn upload_chosen(
    _input: &leptos::web_sys::HtmlInputElement,
    _url: &str,
) -> Result<Option<(u16, String)>, String> {
    Err("sending a file needs JavaScript".to_owned())
}
