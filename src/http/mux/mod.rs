//! Many GETs at once on one thread: a batch over plain http spent more time waking
//! one blocking thread per answer than reading answers. Here every connection is a
//! non-blocking socket kept alive, one `poll(2)` waits for all of them, and the
//! HTTP/1.1 exchange itself (request head, response head, content-length, chunked
//! and close-delimited bodies) is ureq's own protocol crate, the code the blocking
//! path runs too. Failures are typed exactly as the blocking path types ureq's.

use std::io;
use std::net::SocketAddr;
use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags};
use ureq::http::{HeaderMap, HeaderName, HeaderValue, Request};
use ureq_proto::client::state::RecvResponse;
use ureq_proto::client::{Call, SendRequestResult};

use crate::domain::error::LookupError;
use crate::http::socket::{connect_within, timespec};
use crate::http::transport::transport_error;

mod flight;

use flight::{Conn, Flight, Phase, Step};

/// What one connection reads at a time; also the most a response head may take
/// (as the blocking path's `max_response_header_size`).
const INPUT: usize = 64 * 1024;

/// Where requests go and how: one origin, its headers, the bounds of an exchange.
pub struct Target {
    pub addrs: Vec<SocketAddr>,
    /// `http://host:port` and the base URL's path: a lookup's path is appended.
    pub base_url: String,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub timeout: Duration,
    pub max_body: u64,
}

/// An answer, its body read in full.
pub struct Reply {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

pub type Finished = (usize, Result<Reply, LookupError>);

/// The connections of a batch and the exchanges under way on them.
pub struct Mux {
    target: Target,
    idle: Vec<Conn>,
    flights: Vec<Flight>,
    /// Exchanges that ended before any waiting (a refused connection).
    finished: Vec<Finished>,
}

impl Mux {
    pub fn new(target: Target) -> Mux {
        Mux {
            target,
            idle: Vec::new(),
            flights: Vec::new(),
            finished: Vec::new(),
        }
    }

    pub fn under_way(&self) -> usize {
        self.flights.len() + self.finished.len()
    }

    /// Sends `GET base_url + path`; its answer comes out of `poll` under `token`.
    pub fn start(&mut self, token: usize, path: String) {
        let deadline = Instant::now() + self.target.timeout;
        let conn = match self.idle.pop() {
            Some(conn) => Ok(conn),
            None => self.connect(deadline),
        };
        match conn.and_then(|conn| self.flight(token, path, conn, deadline, false)) {
            Ok(flight) => self.flights.push(flight),
            Err(error) => self.finished.push((token, Err(error))),
        }
    }

    fn connect(&self, deadline: Instant) -> Result<Conn, LookupError> {
        let left = deadline.saturating_duration_since(Instant::now());
        let stream = connect_within(&self.target.addrs, left).map_err(|e| match e.kind() {
            io::ErrorKind::TimedOut => LookupError::Timeout(self.target.timeout),
            _ => LookupError::Unavailable(e.to_string()),
        })?;
        let ready = stream
            .set_nodelay(true)
            .and_then(|()| stream.set_nonblocking(true));
        ready.map_err(|e| LookupError::Unavailable(e.to_string()))?;
        Ok(Conn {
            stream,
            reused: false,
            input: vec![0; INPUT],
            filled: 0,
        })
    }

    fn flight(
        &self,
        token: usize,
        path: String,
        conn: Conn,
        deadline: Instant,
        resent: bool,
    ) -> Result<Flight, LookupError> {
        let (call, out) = self.request(&path)?;
        let mut flight = Flight {
            token,
            path,
            conn,
            phase: Some(Phase::Sending {
                call,
                out,
                written: 0,
            }),
            deadline,
            answered: false,
            resent,
        };
        // Most requests go out whole at once: no poll round for them.
        flight.send();
        Ok(flight)
    }

    /// The request head, written by ureq-proto as the blocking path's would be.
    fn request(&self, path: &str) -> Result<(Call<RecvResponse>, Vec<u8>), LookupError> {
        let malformed = |e: ureq_proto::Error| transport_error(e.into(), self.target.timeout);
        let mut builder = Request::get(format!("{}{path}", self.target.base_url));
        for (name, value) in &self.target.headers {
            builder = builder.header(name, value);
        }
        let request = builder
            .body(())
            .map_err(|e| transport_error(ureq::Error::Http(e), self.target.timeout))?;
        let mut call = Call::new(request).map_err(malformed)?.proceed();
        // Room for the request line (values are at most 1 KiB, 3 KiB encoded) and
        // the headers; ureq-proto says when a line does not fit.
        let mut out = vec![0; 2048];
        let mut written = 0;
        while !call.can_proceed() {
            match call.write(&mut out[written..]) {
                Ok(n) => written += n,
                Err(ureq_proto::Error::OutputOverflow) if out.len() < INPUT => {
                    out.resize(out.len() * 2, 0)
                }
                Err(e) => return Err(malformed(e)),
            }
        }
        out.truncate(written);
        match call.proceed().map_err(malformed)? {
            Some(SendRequestResult::RecvResponse(call)) => Ok((call, out)),
            _ => Err(LookupError::Internal("a GET with a body".into())),
        }
    }

    /// Waits at most `wait` (or until `wake`, when given, is readable) and moves
    /// every finished exchange to `done`. True when `wake` was readable.
    pub fn poll(
        &mut self,
        wait: Duration,
        wake: Option<BorrowedFd<'_>>,
        done: &mut Vec<Finished>,
    ) -> bool {
        if !self.finished.is_empty() {
            done.append(&mut self.finished);
            return false;
        }
        let now = Instant::now();
        let first_deadline = self.flights.iter().map(|f| f.deadline).min();
        let wait = first_deadline.map_or(wait, |d| wait.min(d.saturating_duration_since(now)));
        let (ready, woken) = self.wait_ready(wait, wake);
        let mut i = 0;
        while i < self.flights.len() {
            let step = match ready.get(i) {
                Some(&true) => self.flights[i].advance(self.target.max_body, self.target.timeout),
                _ => Step::Wait,
            };
            match step {
                Step::Wait if Instant::now() < self.flights[i].deadline => i += 1,
                Step::Wait => {
                    let flight = self.flights.swap_remove(i);
                    let error = LookupError::Timeout(self.target.timeout);
                    done.push((flight.token, Err(error)));
                }
                Step::Done(result, keep) => {
                    let flight = self.flights.swap_remove(i);
                    if keep {
                        let conn = Conn {
                            reused: true,
                            ..flight.conn
                        };
                        self.idle.push(conn);
                    }
                    done.push((flight.token, result));
                }
                Step::Resend => {
                    let flight = self.flights.swap_remove(i);
                    let sent = self.connect(flight.deadline).and_then(|conn| {
                        self.flight(flight.token, flight.path, conn, flight.deadline, true)
                    });
                    match sent {
                        Ok(again) => self.flights.push(again),
                        Err(error) => done.push((flight.token, Err(error))),
                    }
                }
            }
        }
        woken
    }

    /// Which flights' sockets are ready (errors and hang-ups included), and
    /// whether `wake` is.
    fn wait_ready(&self, wait: Duration, wake: Option<BorrowedFd<'_>>) -> (Vec<bool>, bool) {
        let mut fds: Vec<PollFd<'_>> = self
            .flights
            .iter()
            .map(|f| PollFd::new(&f.conn.stream, f.interest()))
            .collect();
        if let Some(wake) = wake {
            fds.push(PollFd::from_borrowed_fd(wake, PollFlags::IN));
        }
        let spec = timespec(wait);
        let n = self.flights.len();
        match poll(&mut fds, Some(&spec)) {
            Ok(0) | Err(_) => (vec![false; n], false),
            Ok(_) => (
                fds[..n].iter().map(|fd| !fd.revents().is_empty()).collect(),
                fds.get(n).is_some_and(|fd| !fd.revents().is_empty()),
            ),
        }
    }
}
