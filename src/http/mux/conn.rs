//! A connection of the multiplexer: a non-blocking TCP socket, with a rustls session
//! on it for https. rustls is driven by hand (records in and out as the socket
//! allows), the way ureq's own transport drives it when blocking.

use std::io::{self, Read, Write};
use std::net::TcpStream;

use rustls::ClientConnection;

use super::INPUT;

pub(super) struct Conn {
    pub(super) stream: TcpStream,
    tls: Option<Box<ClientConnection>>,
    /// Whether it served an exchange before: only such a connection can have been
    /// closed by the server while idle.
    pub(super) reused: bool,
    /// What was read and not yet parsed (plain bytes, decrypted for https).
    pub(super) input: Vec<u8>,
    pub(super) filled: usize,
}

impl Conn {
    pub(super) fn new(stream: TcpStream, tls: Option<ClientConnection>) -> Conn {
        Conn {
            stream,
            tls: tls.map(Box::new),
            reused: false,
            input: vec![0; INPUT],
            filled: 0,
        }
    }

    /// Writes request bytes: over plain TCP as many as the socket takes; over TLS
    /// all of them into the session (sent once the handshake is done), then as many
    /// records as the socket takes.
    pub(super) fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let Some(tls) = &mut self.tls else {
            return (&self.stream).write(bytes);
        };
        tls.writer().write_all(bytes)?;
        self.flush_tls()?;
        Ok(bytes.len())
    }

    /// Sends the TLS records waiting (the handshake's, the request's) as far as the
    /// socket takes them; the rest goes when it is writable again.
    pub(super) fn flush_tls(&mut self) -> io::Result<()> {
        let Some(tls) = &mut self.tls else {
            return Ok(());
        };
        while tls.wants_write() {
            match tls.write_tls(&mut &self.stream) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// TLS records wait for the socket to be writable.
    pub(super) fn wants_write(&self) -> bool {
        self.tls.as_ref().is_some_and(|tls| tls.wants_write())
    }

    /// Decrypted bytes wait in the session: read again before waiting on the socket,
    /// which may have nothing more to say.
    pub(super) fn buffered(&mut self) -> bool {
        let Some(tls) = &mut self.tls else {
            return false;
        };
        tls.process_new_packets()
            .is_ok_and(|state| state.plaintext_bytes_to_read() > 0)
    }

    /// Reads what came into `input`: Ok(0) at the end of the stream, WouldBlock when
    /// nothing (decrypted) is there yet. A TLS failure is an io error holding the
    /// rustls error, which `transport_error` tells as a TLS problem.
    pub(super) fn read(&mut self) -> io::Result<usize> {
        let room = &mut self.input[self.filled..];
        let Some(tls) = &mut self.tls else {
            return (&self.stream).read(room);
        };
        let ended = match tls.read_tls(&mut &self.stream) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
            Err(e) => return Err(e),
        };
        tls.process_new_packets()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        // The handshake may have something to answer.
        self.flush_tls()?;
        let Some(tls) = &mut self.tls else {
            unreachable!("matched above")
        };
        match tls.reader().read(&mut self.input[self.filled..]) {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && ended => Ok(0),
            // Closed without close_notify: the end; the framing tells if the
            // answer was whole.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(0),
            Err(e) => Err(e),
        }
    }

    pub(super) fn consume(&mut self, used: usize) {
        self.input.copy_within(used..self.filled, 0);
        self.filled -= used;
    }
}
