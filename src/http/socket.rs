//! A TCP transport for ureq with fewer system calls per request than ureq's own
//! (a lookup's CPU was more than half kernel time): ureq's switches the socket to
//! non-blocking and back for each of two probes per request and sets both timeouts
//! on every request. Here the socket stays non-blocking, a timeout is the `poll`'s
//! argument and only the probe before reuse peeks: about 5 calls a lookup, not 11.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, Transport,
};
use ureq::Error;

use crate::http::resolve::connect_within;

#[derive(Debug, Default)]
pub struct LeanTcpConnector;

impl<In: Transport> Connector<In> for LeanTcpConnector {
    type Out = Either<In, LeanTcp>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, Error> {
        // A connection already made (through a proxy) is used as it is.
        if let Some(chained) = chained {
            return Ok(Some(Either::A(chained)));
        }
        let limit = details.timeout.not_zero().map(|t| *t);
        let (stream, _) =
            connect_within(&details.addrs, limit).map_err(|(_, e)| match e.kind() {
                io::ErrorKind::TimedOut => Error::Timeout(details.timeout.reason),
                _ => Error::Io(e),
            })?;
        stream.set_nodelay(true)?;
        stream.set_nonblocking(true)?;
        let config = details.config;
        let buffers = LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size());
        Ok(Some(Either::B(LeanTcp {
            stream,
            buffers,
            sent: false,
            exchanged: false,
            until: limit.map(|t| Instant::now() + t),
        })))
    }
}

#[derive(Debug)]
pub struct LeanTcp {
    stream: TcpStream,
    buffers: LazyBuffers,
    /// A request went out since the last read: its answer cannot be there yet, so
    /// the next read waits first instead of failing once with EAGAIN.
    sent: bool,
    /// A request went out since the last probe: of ureq's two probes (pooling the
    /// connection, then taking it for a request) only the second one counts.
    exchanged: bool,
    /// The end of the request that opened the connection, which no wait passes until
    /// the connection is first pooled: ureq hands every wait of a proxy's CONNECT
    /// answer the whole timeout, so a dripping proxy would restart the clock on each.
    until: Option<Instant>,
}

impl LeanTcp {
    /// Waits until the socket is ready for `flags`; Err(Timeout) when `timeout` ends.
    fn wait(&self, flags: PollFlags, timeout: &NextTimeout) -> Result<(), Error> {
        let started = Instant::now();
        let until = self.until.map(|u| u.saturating_duration_since(started));
        let limits = [timeout.not_zero().map(|t| *t), until];
        let limit = limits.into_iter().flatten().min();
        loop {
            let left = limit.map(|limit| limit.saturating_sub(started.elapsed()));
            if left.is_some_and(|left| left.is_zero()) {
                return Err(Error::Timeout(timeout.reason));
            }
            // A wait too long for a timespec is no limit.
            let spec = left.and_then(|left| Timespec::try_from(left).ok());
            let mut fds = [PollFd::new(&self.stream, flags)];
            match poll(&mut fds, spec.as_ref()) {
                Ok(0) => continue,
                // Readiness includes errors and hang-ups: the read or write says which.
                Ok(_) => return Ok(()),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(Error::Io(e.into())),
            }
        }
    }
}

impl Transport for LeanTcp {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        let timeout = timeout.for_write();
        let mut written = 0;
        while written < amount {
            let output = &self.buffers.output()[written..amount];
            match (&self.stream).write(output) {
                Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.wait(PollFlags::OUT, &timeout)?
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(e)),
            }
        }
        self.sent = true;
        self.exchanged = true;
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        let timeout = timeout.for_read();
        if std::mem::take(&mut self.sent) {
            self.wait(PollFlags::IN, &timeout)?;
        }
        loop {
            let input = self.buffers.input_append_buf();
            match (&self.stream).read(input) {
                Ok(amount) => {
                    self.buffers.input_appended(amount);
                    return Ok(amount > 0);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.wait(PollFlags::IN, &timeout)?
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(e)),
            }
        }
    }

    /// Open means idle and unclosed: no byte and no end waiting. One peek before
    /// reuse; the probe of an answer just read (`exchanged`) is left to that one.
    fn is_open(&mut self) -> bool {
        // The first exchange is over: later requests bring timeouts of their own.
        self.until = None;
        if std::mem::take(&mut self.exchanged) {
            return true;
        }
        matches!(self.stream.peek(&mut [0u8; 1]), Err(e) if e.kind() == io::ErrorKind::WouldBlock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn pair() -> (LeanTcp, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        client.set_nonblocking(true).unwrap();
        let (server, _) = listener.accept().unwrap();
        let transport = LeanTcp {
            stream: client,
            buffers: LazyBuffers::new(1024, 1024),
            sent: false,
            exchanged: false,
            until: None,
        };
        (transport, server)
    }

    fn within(ms: u64) -> NextTimeout {
        NextTimeout {
            after: ureq::unversioned::transport::time::Duration::from_millis(ms),
            ..NextTimeout::default()
        }
    }

    #[test]
    fn an_idle_connection_is_open_and_a_closed_one_is_not() {
        let (mut transport, server) = pair();
        assert!(transport.is_open());
        drop(server);
        // The FIN may take a moment on loopback: the wait is on readiness, not time.
        transport.wait(PollFlags::IN, &within(5000)).unwrap();
        assert!(!transport.is_open());
    }

    #[test]
    fn bytes_nobody_asked_for_make_a_connection_unusable() {
        let (mut transport, mut server) = pair();
        server.write_all(b"x").unwrap();
        transport.wait(PollFlags::IN, &within(5000)).unwrap();
        assert!(!transport.is_open());
    }

    #[test]
    fn after_an_exchange_only_the_probe_before_reuse_reads_the_socket() {
        let (mut transport, mut server) = pair();
        transport.buffers().output()[..3].copy_from_slice(b"GET");
        transport.transmit_output(3, within(5000)).unwrap();
        server.read_exact(&mut [0u8; 3]).unwrap();
        server.write_all(b"answer").unwrap();
        assert!(transport.await_input(within(5000)).unwrap());
        let read = transport.buffers().input().len();
        transport.buffers().input_consume(read);
        // A byte nobody asked for, waiting in the socket.
        server.write_all(b"x").unwrap();
        transport.wait(PollFlags::IN, &within(5000)).unwrap();
        // The probe as the connection goes back to the pool makes no call...
        assert!(transport.is_open());
        // ...the one before it is used again does, and sees the byte.
        assert!(!transport.is_open());
    }

    #[test]
    fn a_read_waits_for_the_answer_and_times_out_without_one() {
        let (mut transport, mut server) = pair();
        transport.buffers().output()[..3].copy_from_slice(b"GET");
        transport.transmit_output(3, within(5000)).unwrap();
        let mut got = [0u8; 3];
        server.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"GET");
        server.write_all(b"answer").unwrap();
        assert!(transport.await_input(within(5000)).unwrap());
        assert_eq!(transport.buffers().input(), b"answer");
        transport.buffers().input_consume(6);
        let late = transport.await_input(within(30));
        assert!(matches!(late, Err(Error::Timeout(_))), "{late:?}");
    }
}
