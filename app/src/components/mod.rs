pub mod api_tokens;
pub mod layout;
pub mod two_factor;
pub mod yearly_cost;
