use leptos::prelude::*;

use crate::api::ApiFailure;

/// What a form's last answer refused: the field at fault, when the server
/// named one, and the words for the form's alert. The field marks its
/// input (`aria-invalid`).
#[derive(Clone, Copy)]
pub struct FormRefusal(RwSignal<Option<(Option<String>, String)>>);

impl FormRefusal {
    pub fn new() -> Self {
        Self(RwSignal::new(None))
    }

    /// The form's answer refused it.
    pub fn heard(self, failure: &ApiFailure) {
        self.0.set(Some((failure.field(), failure.message())));
    }

    /// The form's answer accepted it.
    pub fn clear(self) {
        self.0.set(None);
    }

    /// The alert's words (tracked).
    pub fn message(self) -> Option<String> {
        self.0
            .with(|refused| refused.as_ref().map(|(_, message)| message.clone()))
    }

    /// Whether `field` is the one at fault (tracked).
    pub fn blames(self, field: &str) -> bool {
        self.0.with(|refused| {
            refused
                .as_ref()
                .is_some_and(|(at_fault, _)| at_fault.as_deref() == Some(field))
        })
    }

    /// `aria-invalid` for the input of `field`.
    pub fn marks(self, field: &'static str) -> impl Fn() -> Option<&'static str> + Copy {
        move || self.blames(field).then_some("true")
    }
}

impl Default for FormRefusal {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_field_is_marked_and_the_others_are_not() {
        let owner = Owner::new();
        owner.with(|| {
            let refusal = FormRefusal::new();
            assert_eq!(refusal.marks("email")(), None);
            let failure = ApiFailure::Answered {
                status: 400,
                field: Some("email".into()),
                violations: Vec::new(),
                message: "email: not an address".into(),
            };
            refusal.heard(&failure);
            assert_eq!(refusal.marks("email")(), Some("true"));
            assert_eq!(refusal.marks("name")(), None);
            assert!(refusal
                .message()
                .is_some_and(|words| words.contains("not an address")));
            refusal.clear();
            assert_eq!(refusal.marks("email")(), None);
            assert_eq!(refusal.message(), None);
        });
    }
}
