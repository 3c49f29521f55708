//! What one step of a lookup comes to, for the run's engine and the client alike.

use std::time::Instant;

#[derive(Debug)]
pub enum Step<T> {
    Done(T),
    /// Due again at this time (a retry's pause, a `--rate` turn, the next `--wait` poll).
    At(Instant),
}
