//! Bank sync's pure rules: how a provider's amount reads, which days a sync
//! asks for, and the stable identity of a transaction across reconnects.

pub mod fingerprint;
pub mod merchant;
pub mod provider_amount;
pub mod sync_window;
