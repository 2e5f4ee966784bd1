//! The browser's own time zone, as an IANA name (`Europe/Berlin`).

/// What `Intl.DateTimeFormat().resolvedOptions().timeZone` says, if
/// anything.
pub fn browser_time_zone() -> Option<String> {
    let format = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new());
    let options = format.resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|zone| zone.as_string())
        .filter(|zone| !zone.is_empty())
}
