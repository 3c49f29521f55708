//! One exchange on one connection, driven as its socket becomes ready: the request
//! written, the answer's head and body parsed by ureq-proto as they arrive.

use std::io;
use std::time::{Duration, Instant};

use rustix::event::PollFlags;
use ureq::http::HeaderMap;
use ureq_proto::client::state::{RecvBody, RecvResponse};
use ureq_proto::client::{Call, RecvBodyResult, RecvResponseResult};
use ureq_proto::BodyMode;

use super::conn::Conn;
use super::{Bounds, Reply, INPUT};
use crate::domain::error::LookupError;
use crate::http::socket::connect_finished;
use crate::http::transport::{too_large, transport_error};

pub(super) enum Phase {
    /// The connection is being made; the request waits, written.
    Connecting {
        call: Call<RecvResponse>,
        out: Vec<u8>,
    },
    Sending {
        call: Call<RecvResponse>,
        out: Vec<u8>,
        written: usize,
    },
    Head(Call<RecvResponse>),
    Body {
        call: Call<RecvBody>,
        status: u16,
        headers: HeaderMap,
        body: Vec<u8>,
    },
}

pub(super) struct Flight {
    pub(super) token: usize,
    pub(super) path: String,
    pub(super) conn: Conn,
    /// None only while moving from one phase to the next.
    pub(super) phase: Option<Phase>,
    pub(super) deadline: Instant,
    /// The address of the target being tried.
    pub(super) addr: usize,
    /// Its socket was ready at the last poll: only then is it advanced (writing,
    /// or reading a connection's outcome, is only meaningful then).
    pub(super) ready: bool,
    /// Any byte of the answer came: a failure now is the server's, not an idle close.
    pub(super) answered: bool,
    pub(super) resent: bool,
}

/// What became of a flight after its socket was ready.
pub(super) enum Step {
    Wait,
    /// The result, and whether the connection may serve another exchange.
    Done(Result<Reply, LookupError>, bool),
    /// The reused connection was closed before any byte of the answer: send again.
    Resend,
    /// The connection could not be made: the next address, if any.
    Unconnected(io::Error),
}

impl Flight {
    pub(super) fn interest(&self) -> PollFlags {
        match self.phase {
            Some(Phase::Sending { .. } | Phase::Connecting { .. }) => PollFlags::OUT,
            _ if self.conn.wants_write() => PollFlags::IN | PollFlags::OUT,
            _ => PollFlags::IN,
        }
    }

    /// The request waits for the connection being made.
    pub(super) fn connecting(&mut self) {
        if let Some(Phase::Sending { call, out, .. }) = self.phase.take() {
            self.phase = Some(Phase::Connecting { call, out });
        }
    }

    /// The connection failed: the request goes back to waiting to be sent.
    pub(super) fn unconnecting(&mut self) {
        if let Some(Phase::Connecting { call, out }) = self.phase.take() {
            self.phase = Some(Phase::Sending {
                call,
                out,
                written: 0,
            });
        }
    }

    /// Writes what is left of the request; on a failure, the next read tells.
    pub(super) fn send(&mut self) {
        let Some(Phase::Sending { out, written, .. }) = &mut self.phase else {
            return;
        };
        while *written < out.len() {
            match self.conn.write(&out[*written..]) {
                Ok(0) => break,
                Ok(n) => *written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        if *written == out.len() {
            if let Some(Phase::Sending { call, .. }) = self.phase.take() {
                self.phase = Some(Phase::Head(call));
            }
        }
    }

    pub(super) fn advance(&mut self, bounds: Bounds) -> Step {
        let timeout = bounds.timeout;
        if let Some(Phase::Connecting { .. }) = &self.phase {
            if let Err(error) = connect_finished(&self.conn.stream) {
                return Step::Unconnected(error);
            }
            if let Some(Phase::Connecting { call, out }) = self.phase.take() {
                self.phase = Some(Phase::Sending {
                    call,
                    out,
                    written: 0,
                });
            }
            self.send();
            return Step::Wait;
        }
        if matches!(self.phase, Some(Phase::Sending { .. })) {
            self.send();
            if matches!(self.phase, Some(Phase::Sending { .. })) {
                // Ready to write yet nothing went: the connection failed.
                return self.failed(io::ErrorKind::BrokenPipe.into(), timeout);
            }
            return Step::Wait;
        }
        loop {
            let read = match self.conn.flush_tls().and_then(|()| self.conn.read()) {
                Ok(n) => n,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) =>
                {
                    return Step::Wait
                }
                Err(e) => return self.failed(e, timeout),
            };
            self.conn.filled += read;
            if read > 0 {
                self.answered = true;
            }
            match self.parse(bounds, read == 0) {
                // Bytes beyond the answer would be read as the next one's head.
                Ok(Some((reply, keep))) => {
                    return Step::Done(Ok(reply), keep && self.conn.filled == 0)
                }
                Ok(None) if read == 0 => {
                    return self.failed(io::ErrorKind::UnexpectedEof.into(), timeout)
                }
                // Decrypted bytes may wait in the TLS session, not in the socket.
                Ok(None) if self.conn.buffered() => continue,
                Ok(None) => return Step::Wait,
                Err(error) => return Step::Done(Err(error), false),
            }
        }
    }

    /// A read or write failure: sent again when a reused connection was gone
    /// before answering, else the lookup's failure as the blocking path types it.
    fn failed(&self, error: io::Error, timeout: Duration) -> Step {
        if self.conn.reused && !self.answered && !self.resent {
            return Step::Resend;
        }
        let error = match error.kind() {
            io::ErrorKind::UnexpectedEof => {
                io::Error::new(io::ErrorKind::UnexpectedEof, "Peer disconnected")
            }
            _ => error,
        };
        Step::Done(Err(transport_error(ureq::Error::Io(error), timeout)), false)
    }

    /// Drives the protocol over the input read so far: the reply and whether the
    /// connection may serve another exchange, once it is complete.
    fn parse(&mut self, bounds: Bounds, ended: bool) -> Result<Option<(Reply, bool)>, LookupError> {
        let Bounds { max_body, timeout } = bounds;
        let error = |e: ureq_proto::Error| transport_error(e.into(), timeout);
        if let Some(Phase::Head(call)) = &mut self.phase {
            // An informational answer (100 Continue) is consumed and skipped.
            let response = loop {
                let input = &self.conn.input[..self.conn.filled];
                let (used, response) = call.try_response(input, false).map_err(error)?;
                if response.is_none() && input.len() >= INPUT {
                    let large = ureq::Error::LargeResponseHeader(input.len(), INPUT);
                    return Err(transport_error(large, timeout));
                }
                self.conn.consume(used);
                match response {
                    Some(response) => break response,
                    None if used == 0 => return Ok(None),
                    None => continue,
                }
            };
            let (parts, ()) = response.into_parts();
            let status = parts.status.as_u16();
            let Some(Phase::Head(call)) = self.phase.take() else {
                unreachable!("matched above")
            };
            match call.proceed() {
                Some(RecvResponseResult::RecvBody(call)) => {
                    let announced = match call.body_mode() {
                        BodyMode::LengthDelimited(n) => n.min(max_body.saturating_add(1)),
                        _ => 0,
                    };
                    self.phase = Some(Phase::Body {
                        call,
                        status,
                        headers: parts.headers,
                        body: Vec::with_capacity(usize::try_from(announced).unwrap_or(0)),
                    });
                }
                Some(RecvResponseResult::Redirect(call)) => {
                    return Ok(Some((
                        reply(status, parts.headers, Vec::new()),
                        !call.must_close_connection(),
                    )));
                }
                Some(RecvResponseResult::Cleanup(call)) => {
                    return Ok(Some((
                        reply(status, parts.headers, Vec::new()),
                        !call.must_close_connection(),
                    )));
                }
                None => return Err(LookupError::Internal("response not complete".into())),
            }
        }
        self.read_body(bounds, ended)
    }

    fn read_body(
        &mut self,
        bounds: Bounds,
        ended: bool,
    ) -> Result<Option<(Reply, bool)>, LookupError> {
        let Bounds { max_body, timeout } = bounds;
        let error = |e: ureq_proto::Error| transport_error(e.into(), timeout);
        let Some(Phase::Body { call, body, .. }) = &mut self.phase else {
            return Ok(None);
        };
        loop {
            let input = &self.conn.input[..self.conn.filled];
            let start = body.len();
            body.resize(start + input.len().max(1024), 0);
            let read = call.read(input, &mut body[start..]);
            let (used, produced) = match read {
                Ok(counts) => counts,
                Err(e) => {
                    body.truncate(start);
                    return Err(error(e));
                }
            };
            body.truncate(start + produced);
            self.conn.consume(used);
            if body.len() as u64 > max_body {
                return Err(too_large(max_body));
            }
            if used == 0 && produced == 0 {
                break;
            }
        }
        let close_delimited = matches!(call.body_mode(), BodyMode::CloseDelimited);
        let complete = if close_delimited {
            ended
        } else {
            call.can_proceed() || (ended && call.is_ended_chunked())
        };
        if !complete {
            return Ok(None);
        }
        let Some(Phase::Body {
            call,
            status,
            headers,
            body,
        }) = self.phase.take()
        else {
            unreachable!("matched above")
        };
        let keep = !ended
            && !close_delimited
            && match call.proceed() {
                Some(RecvBodyResult::Cleanup(call)) => !call.must_close_connection(),
                Some(RecvBodyResult::Redirect(call)) => !call.must_close_connection(),
                None => false,
            };
        Ok(Some((reply(status, headers, body), keep)))
    }
}

fn reply(status: u16, headers: HeaderMap, body: Vec<u8>) -> Reply {
    Reply {
        status,
        headers,
        body,
    }
}
