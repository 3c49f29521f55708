//! Settings: the options as typed (`given`), the config file (`file`), the layers
//! a value is taken from (flag > environment > profile > file > default, `layers`),
//! the resolved groups every other layer reads (`config`), and the API key as a
//! secret type.

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
