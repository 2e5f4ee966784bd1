//! Bank sync's pure rules: how a provider's amount reads, which days a sync
//! asks for, the stable identity of a transaction across reconnects, who
//! a transaction paid, how likely it paid a bill, and autopay's checks.

pub mod autopay;
pub mod fingerprint;
pub mod merchant;
pub mod provider_amount;
pub mod suggestion;
pub mod sync_window;
