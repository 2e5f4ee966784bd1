pub mod home;
pub mod not_found;
