//! Whether stdout's reader went away, without writing to it: a table page is held
//! until it is full, and `| head -1` must still stop the run at once.

/// True when stdout is a pipe or socket whose other end is closed.
#[cfg(unix)]
pub fn stdout_reader_gone() -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // POLLERR on a pipe whose reader closed, POLLHUP on a socket; always reported.
    poll(&mut fds, Some(&now))
        .is_ok_and(|_| fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP))
}

#[cfg(not(unix))]
pub fn stdout_reader_gone() -> bool {
    false
}
