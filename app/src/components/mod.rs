pub mod layout;
pub mod yearly_cost;
