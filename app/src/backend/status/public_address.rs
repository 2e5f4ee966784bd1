//! Admin Status's "Public address" row: the address every link Tally sends
//! starts with (the calendar feed, invitations, reminders), and a warning
//! when only this computer can open it.

use crate::contract::admin::StatusRow;

/// Whether `public_base_url` names this computer only (`localhost`, a
/// loopback address), so a phone or a calendar app cannot open its links.
pub fn only_this_computer(public_base_url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(public_base_url) else {
        return true;
    };
    let Some(host) = url.host_str() else {
        return true;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(address) => address.is_loopback() || address.is_unspecified(),
        Err(_) => {
            let name = host.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
    }
}

/// The row, worded for an administrator; the setting's name comes last,
/// for whoever runs the server.
pub fn row(public_base_url: &str) -> StatusRow {
    let (value, state) = if only_this_computer(public_base_url) {
        (
            format!(
                "{public_base_url}: only this computer can open the links Tally sends (the calendar feed, invitations, reminders). \
                 Set it to the address a phone opens Tally at, such as http://192.168.1.20:3001 or https://bills.example.org \
                 (the PUBLIC_BASE_URL setting, see \"Configuration\" in the README)."
            ),
            "warn",
        )
    } else {
        (
            format!("{public_base_url}: the links Tally sends start with it"),
            "ok",
        )
    };
    StatusRow {
        label: "Public address".to_owned(),
        value,
        state: state.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localhost_and_loopback_addresses_are_this_computer_only() {
        for address in [
            "http://localhost:3001",
            "http://LOCALHOST.:3001",
            "http://tally.localhost",
            "http://127.0.0.1:3001",
            "http://127.1.2.3",
            "http://[::1]:3001",
            "http://0.0.0.0:3001",
            "not an address",
        ] {
            assert!(only_this_computer(address), "{address}");
        }
        for address in [
            "http://192.168.1.20:3001",
            "https://bills.example.org",
            "http://tally.lan",
            "http://[fd00::20]:3001",
        ] {
            assert!(!only_this_computer(address), "{address}");
        }
    }

    #[test]
    fn the_row_warns_in_words_and_names_the_setting_last() {
        let warned = row("http://localhost:3001");
        assert_eq!(warned.state, "warn");
        assert!(warned
            .value
            .starts_with("http://localhost:3001: only this computer"));
        assert!(warned.value.contains("PUBLIC_BASE_URL"));
        let fine = row("https://bills.example.org");
        assert_eq!(fine.state, "ok");
        assert!(!fine.value.contains("PUBLIC_BASE_URL"));
    }
}
