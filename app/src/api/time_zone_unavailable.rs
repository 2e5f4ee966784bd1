//! Outside the browser there is no browser time zone: the server's
//! default (UTC) stands until the page's script has run.

pub fn browser_time_zone() -> Option<String> {
    None
}
