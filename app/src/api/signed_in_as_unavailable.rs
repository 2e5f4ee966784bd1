//! Neither server nor browser (the crate built alone): nobody.

use crate::contract::account::Nav;

pub async fn signed_in_as() -> Nav {
    Nav::Visitor
}
