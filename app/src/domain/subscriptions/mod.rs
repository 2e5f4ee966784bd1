//! Subscription intelligence, pure (no I/O): which catalog service a bank
//! transaction paid (`catalog_index`: bank descriptors first, the user's
//! own among them, then slang, then the service's name and domain), which
//! of its plans a bill is on (`catalog_tier`), how
//! often charges come (`charge_cadence`), how their amount behaves
//! (`amount_pattern`), and the recommendations built from a person's
//! transactions with their evidence (`recommend`).

pub mod amount_pattern;
pub mod catalog_index;
pub mod catalog_tier;
pub mod charge_cadence;
pub mod recommend;
