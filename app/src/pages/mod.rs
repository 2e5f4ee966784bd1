pub mod admin;
pub mod home;
pub mod login;
pub mod not_found;
pub mod profile;
pub mod register;
