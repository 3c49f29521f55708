//! The integration tests: one binary (linked once, as cargo and ripgrep do), a
//! module per feature. `common` holds the servers on loopback and the one way to
//! run the binary; `tls_support` a private CA and a TLS server.

mod common;
mod metrics;
mod tls_support;

mod bad_values;
mod batch;
mod batch_formats;
mod bounds;
mod check;
mod check_network;
mod completion;
mod config;
mod config_files;
mod engine;
mod ergonomics;
mod error_shapes;
mod escapes;
mod exit_codes;
mod expect;
mod faults;
mod field_names;
mod follow;
mod framing;
mod gateways;
mod hostile;
mod junit;
mod layout;
mod lookup_requests;
mod lookups;
mod man_page;
mod packaging;
mod properties;
mod proxies;
mod pty;
mod readers;
mod record_views;
mod report;
mod report_forms;
mod secrets;
mod signals;
mod sim;
mod sim_serving;
mod sim_variants;
mod sim_vendor;
mod subcommand_options;
mod tables;
mod terminal;
mod tls;
mod vendor_fields;
mod vendor_statuses;
mod version;
mod wait;
