//! Settings in layers (flag > environment > profile > file > default), where each
//! came from, the config file, and the API key as a secret type.

pub(crate) mod ca;
pub(crate) mod checks;
pub(crate) mod config;
pub(crate) mod file;
pub(crate) mod given;
pub(crate) mod key_file;
pub(crate) mod layers;
pub(crate) mod origin;
pub(crate) mod profiles;
pub(crate) mod proxy;
pub(crate) mod read;
pub(crate) mod secret;
pub(crate) mod show;
pub(crate) mod table;
pub(crate) mod usage;
