pub mod api_tokens;
pub mod layout;
pub mod yearly_cost;
