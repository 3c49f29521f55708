//! Settings: taken from flag > environment > profile > file > default (`layers`) and
//! resolved once into the groups every other layer reads (`config`).

pub(crate) mod ca;
pub(crate) mod checks;
pub(crate) mod config;
pub(crate) mod file;
pub(crate) mod given;
pub(crate) mod layers;
pub(crate) mod origin;
pub(crate) mod proxy;
pub(crate) mod read;
pub(crate) mod secret;
pub(crate) mod usage;
