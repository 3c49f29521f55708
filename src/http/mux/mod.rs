//! Many GETs at once on one thread: a batch spent more time waking one blocking
//! thread per answer than reading answers. Here every connection is a non-blocking
//! socket kept alive (with its TLS session for https, `conn.rs`), one `poll(2)`
//! waits for all of them, and the HTTP/1.1 exchange itself (request head, response
//! head, content-length, chunked and close-delimited bodies) is ureq's own protocol
//! crate, the code the blocking path runs too. Failures are typed exactly as the
//! blocking path types ureq's.

use std::io;
use std::net::SocketAddr;
use std::os::fd::BorrowedFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection};
use ureq::http::{HeaderMap, HeaderName, HeaderValue, Request};
use ureq_proto::client::state::RecvResponse;
use ureq_proto::client::{Call, SendRequestResult};

use crate::domain::error::LookupError;
use crate::http::socket::{connect_started, timespec};
use crate::http::transport::transport_error;

mod conn;
mod flight;

use conn::Conn;
use flight::{Flight, Phase, Step};

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
    /// For https: the trust and the name the certificate must have.
    pub tls: Option<(Arc<ClientConfig>, ServerName<'static>)>,
}

/// The bounds of one exchange: the answer's size, the time for all of it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub max_body: u64,
    pub timeout: Duration,
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

    fn bounds(&self) -> Bounds {
        Bounds {
            max_body: self.target.max_body,
            timeout: self.target.timeout,
        }
    }

    pub fn under_way(&self) -> usize {
        self.flights.len() + self.finished.len()
    }

    /// Sends `GET base_url + path`; its answer comes out of `poll` under `token`.
    pub fn start(&mut self, token: usize, path: String) {
        let deadline = Instant::now() + self.target.timeout;
        match self.flight(token, path, deadline, false) {
            Ok(flight) => self.flights.push(flight),
            Err(error) => self.finished.push((token, Err(error))),
        }
    }

    /// The exchange on an idle connection, else on a new one.
    fn flight(
        &mut self,
        token: usize,
        path: String,
        deadline: Instant,
        resent: bool,
    ) -> Result<Flight, LookupError> {
        let (call, out) = self.request(&path)?;
        let (conn, addr, established) = match self.idle.pop() {
            Some(conn) => (conn, 0, true),
            None => self.connect(0, None)?,
        };
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
            addr,
            ready: false,
            answered: false,
            resent,
        };
        if established {
            // Most requests go out whole at once: no poll round for them.
            flight.send();
        } else {
            flight.connecting();
        }
        Ok(flight)
    }

    /// Begins a connection to the first address from `from` on that does not
    /// refuse at once: the connection, its address, whether it is established.
    /// `poll` waits for one being made with the other sockets, so an unreachable
    /// host holds up no other lookup. `last` is the previous address's failure.
    fn connect(
        &self,
        from: usize,
        mut last: Option<io::Error>,
    ) -> Result<(Conn, usize, bool), LookupError> {
        for (i, addr) in self.target.addrs.iter().enumerate().skip(from) {
            match connect_started(addr) {
                Ok((stream, established)) => {
                    return Ok((Conn::new(stream, self.session()?), i, established))
                }
                Err(e) => last = Some(e),
            }
        }
        let last = last.unwrap_or_else(|| io::ErrorKind::ConnectionRefused.into());
        Err(LookupError::Unavailable(last.to_string()))
    }

    /// A TLS session for a new connection, for https.
    fn session(&self) -> Result<Option<ClientConnection>, LookupError> {
        let Some((config, name)) = &self.target.tls else {
            return Ok(None);
        };
        let session = ClientConnection::new(Arc::clone(config), name.clone());
        session
            .map(Some)
            .map_err(|e| LookupError::Unreachable(format!("TLS: {e}")))
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
        let woken = self.wait_ready(wait, wake);
        let bounds = self.bounds();
        let mut i = 0;
        while i < self.flights.len() {
            let flight = &mut self.flights[i];
            let step = match std::mem::take(&mut flight.ready) {
                true => flight.advance(bounds),
                false => Step::Wait,
            };
            if self.settle(i, step, done) {
                i += 1;
            }
        }
        woken
    }

    /// What comes of flight `i` after `step`: true when it stays where it is;
    /// otherwise it left the list (finished into `done`, or put back at its end).
    fn settle(&mut self, i: usize, step: Step, done: &mut Vec<Finished>) -> bool {
        match step {
            Step::Wait if Instant::now() < self.flights[i].deadline => return true,
            Step::Wait => {
                let flight = self.flights.swap_remove(i);
                let error = LookupError::Timeout(self.target.timeout);
                done.push((flight.token, Err(error)));
            }
            Step::Done(result, keep) => {
                let flight = self.flights.swap_remove(i);
                if keep {
                    let mut conn = flight.conn;
                    conn.reused = true;
                    self.idle.push(conn);
                }
                done.push((flight.token, result));
            }
            Step::Resend => {
                let flight = self.flights.swap_remove(i);
                // Never on an idle connection: it may be as stale as this one was.
                self.idle.clear();
                match self.flight(flight.token, flight.path, flight.deadline, true) {
                    Ok(again) => self.flights.push(again),
                    Err(error) => done.push((flight.token, Err(error))),
                }
            }
            Step::Unconnected(error) => {
                let mut flight = self.flights.swap_remove(i);
                match self.connect(flight.addr + 1, Some(error)) {
                    Ok((conn, addr, established)) => {
                        (flight.conn, flight.addr) = (conn, addr);
                        if established {
                            flight.unconnecting();
                            flight.send();
                        }
                        self.flights.push(flight);
                    }
                    Err(error) => done.push((flight.token, Err(error))),
                }
            }
        }
        false
    }

    /// Marks the flights whose sockets are ready (errors and hang-ups included);
    /// true when `wake` is.
    fn wait_ready(&mut self, wait: Duration, wake: Option<BorrowedFd<'_>>) -> bool {
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
        if !matches!(poll(&mut fds, Some(&spec)), Ok(1..)) {
            return false;
        }
        let ready: Vec<bool> = fds.iter().map(|fd| !fd.revents().is_empty()).collect();
        drop(fds);
        for (flight, ready) in self.flights.iter_mut().zip(&ready) {
            flight.ready = *ready;
        }
        ready.get(n).copied().unwrap_or(false)
    }
}
