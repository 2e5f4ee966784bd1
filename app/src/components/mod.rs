pub mod account_details;
pub mod api_tokens;
pub mod layout;
pub mod privacy;
pub mod security_keys;
pub mod sign_in_history;
pub mod two_factor;
pub mod yearly_cost;
