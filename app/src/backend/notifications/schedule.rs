//! When the daily run happens: at `REMINDER_HOUR` in the server's time
//! zone (`TZ`), and at start-up when today's hour has passed and today has
//! no run yet. No cron, nothing to install.

use jiff::civil::Time;
use jiff::{Timestamp, Zoned};

/// Today's run time in the server's zone.
fn today_at(now: &Zoned, hour: u8) -> Option<Zoned> {
    now.with()
        .time(Time::new(i8::try_from(hour).ok()?, 0, 0, 0).ok()?)
        .build()
        .ok()
}

/// Today's run time, once it has passed: a run started since then is
/// today's.
pub fn due_since(now: &Zoned, hour: u8) -> Option<Zoned> {
    let at = today_at(now, hour)?;
    (*now >= at).then_some(at)
}

/// The next run time after now.
pub fn next_run(hour: u8) -> Option<Timestamp> {
    next_after(&Zoned::now(), hour).map(|at| at.timestamp())
}

pub fn next_after(now: &Zoned, hour: u8) -> Option<Zoned> {
    let today = today_at(now, hour)?;
    if &today > now {
        Some(today)
    } else {
        let tomorrow = now.tomorrow().ok()?;
        today_at(&tomorrow, hour)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Zoned {
        text.parse().unwrap()
    }

    #[test]
    fn a_run_is_due_once_the_hour_has_passed_today() {
        assert_eq!(
            due_since(&at("2026-11-25T05:59:00[Europe/Berlin]"), 6),
            None
        );
        assert_eq!(
            due_since(&at("2026-11-25T06:30:00[Europe/Berlin]"), 6)
                .unwrap()
                .to_string(),
            "2026-11-25T06:00:00+01:00[Europe/Berlin]"
        );
        assert_eq!(
            next_after(&at("2026-11-25T07:00:00[Europe/Berlin]"), 6)
                .unwrap()
                .to_string(),
            "2026-11-26T06:00:00+01:00[Europe/Berlin]"
        );
        assert_eq!(
            next_after(&at("2026-11-25T05:00:00[UTC]"), 6)
                .unwrap()
                .to_string(),
            "2026-11-25T06:00:00+00:00[UTC]"
        );
    }
}
