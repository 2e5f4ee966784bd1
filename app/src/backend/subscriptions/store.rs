//! The subscription features' SQL, one file per part: the catalog and its
//! plans (`catalog_entries`), what recommendations are read from
//! (`recommendations`), what the person does with them (`feedback`) and the
//! descriptors they taught Tally (`own_descriptors`).

pub mod catalog_entries;
pub mod feedback;
pub mod own_descriptors;
pub mod recommendations;
