//! The words a page uses for a field the server names by its wire name
//! (`amountMinor` is "Amount"), so no message shows a wire name.

/// The label of the field `wire`, when a page shows one.
pub fn label(wire: &str) -> Option<&'static str> {
    Some(match wire {
        "name" => "Name",
        "email" => "Email",
        "password" | "newPassword" => "Password",
        "currentPassword" => "Current password",
        "amountMinor" => "Amount",
        "balanceMinor" => "Balance owed",
        "minimumPaymentMinor" => "Minimum payment",
        "aprBasisPoints" => "Yearly rate",
        "currency" => "Currency",
        "cadence" => "How often",
        "cadenceInterval" => "Every",
        "dueDay" => "Due day of the month",
        "anchorDate" => "First due date",
        "paidOn" => "Paid on",
        "forOccurrence" => "Which due date it pays",
        "category" => "Category",
        "notes" | "note" => "Note",
        "snoozedTo" => "Snooze to",
        "occurrence" => "Due date",
        "month" => "Month",
        "year" => "Year",
        "locale" => "Write amounts as in",
        "timeZone" => "Time zone",
        "paySchedule" => "Pay schedule",
        "payday" => "Payday",
        "driftPercent" => "Price drift percent",
        "driftMinMinor" => "Price drift amount",
        "leadDays" => "Days before a due date",
        "overdueRepeatDays" => "Remind again after",
        "events" => "Events",
        "message" => "Message",
        "company" => "Company",
        "subject" => "Subject",
        "intervalHours" => "Interval",
        _ => return None,
    })
}
