//! The server core over real sockets: keep-alive, pipelining, limits, shutdown.

use super::*;
use std::io::{BufRead, BufReader, Write};
use std::time::Instant;

/// A server answering `200 <method> <target>` (and `X-Seen` with the header
/// count), or panicking for `/panic`.
fn echo_server(limits: Limits) -> HttpServer {
    let handler: Handler = Arc::new(|request: &HttpRequest| {
        assert_ne!(request.target, "/panic", "asked to");
        let body = format!("{} {}", request.method, request.target);
        HttpResponse::new(200, "text/plain", body)
            .with_header("X-Seen", request.headers.len().to_string())
    });
    HttpServer::bind("127.0.0.1:0", handler, limits).expect("bind")
}

fn connect(server: &HttpServer) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(server.addr()).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    BufReader::new(stream)
}

fn send(conn: &mut BufReader<TcpStream>, bytes: &[u8]) {
    conn.get_mut().write_all(bytes).expect("send");
}

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one answer; `with_body: false` for HEAD (Content-Length is not followed).
fn read_reply(conn: &mut BufReader<TcpStream>, with_body: bool) -> Reply {
    let mut line = String::new();
    conn.read_line(&mut line).expect("status line");
    let mut parts = line.trim_end().splitn(3, ' ');
    assert_eq!(parts.next(), Some("HTTP/1.1"), "{line:?}");
    let status = parts.next().unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        conn.read_line(&mut line).expect("header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(": ").expect("a header");
        headers.push((name.to_string(), value.to_string()));
    }
    let mut reply = Reply {
        status,
        headers,
        body: String::new(),
    };
    if with_body {
        let len: usize = reply.header("Content-Length").unwrap().parse().unwrap();
        let mut body = vec![0; len];
        conn.read_exact(&mut body).expect("body");
        reply.body = String::from_utf8(body).unwrap();
    }
    reply
}

/// True once the server has closed the connection (EOF, or a reset).
fn closed(conn: &mut BufReader<TcpStream>) -> bool {
    let mut rest = Vec::new();
    match conn.read_to_end(&mut rest) {
        Ok(_) => rest.is_empty(),
        Err(e) => e.kind() == io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    for n in 0..5 {
        send(
            &mut conn,
            format!("GET /sms/{n} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
        );
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, format!("GET /sms/{n}"));
        assert_eq!(reply.header("Connection"), None);
        assert_eq!(reply.header("Content-Type"), Some("text/plain"));
        assert_eq!(reply.header("X-Seen"), Some("1"));
    }
    // A body framed by Content-Length is skipped, not taken for the next request.
    send(
        &mut conn,
        b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert_eq!(read_reply(&mut conn, true).body, "POST /a");
    send(&mut conn, b"GET /b HTTP/1.1\r\nConnection: close\r\n\r\n");
    let reply = read_reply(&mut conn, true);
    assert_eq!(reply.body, "GET /b");
    assert_eq!(reply.header("Connection"), Some("close"));
    assert!(closed(&mut conn));
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    send(
        &mut conn,
        b"GET /one HTTP/1.1\r\n\r\nPUT /two HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcHEAD /three HTTP/1.1\r\n\r\nGET /fo",
    );
    assert_eq!(read_reply(&mut conn, true).body, "GET /one");
    assert_eq!(read_reply(&mut conn, true).body, "PUT /two");
    let head = read_reply(&mut conn, false);
    assert_eq!(head.header("Content-Length"), Some("11"));
    send(&mut conn, b"ur HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut conn, true).body, "GET /four");
}

#[test]
fn http_1_0_closes_unless_asked_to_keep_alive() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    send(
        &mut conn,
        b"GET /x HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
    );
    let reply = read_reply(&mut conn, true);
    assert_eq!(reply.body, "GET /x");
    assert_eq!(reply.header("Connection"), Some("keep-alive"));
    send(&mut conn, b"GET /y HTTP/1.0\r\n\r\n");
    let reply = read_reply(&mut conn, true);
    assert_eq!(reply.body, "GET /y");
    assert_eq!(reply.header("Connection"), Some("close"));
    assert!(closed(&mut conn));
}

#[test]
fn head_answers_carry_no_body() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    send(&mut conn, b"HEAD /sms/42 HTTP/1.1\r\n\r\n");
    let reply = read_reply(&mut conn, false);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("Content-Length"), Some("12"));
    // Were a body sent, this would read its bytes instead of the next answer.
    send(
        &mut conn,
        b"GET /next HTTP/1.1\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(read_reply(&mut conn, true).body, "GET /next");
    assert!(closed(&mut conn));
}

#[test]
fn oversized_heads_get_431_and_a_closed_connection() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    let filler = "a".repeat(20 * 1024);
    send(
        &mut conn,
        format!("GET / HTTP/1.1\r\nX-Filler: {filler}\r\n\r\n").as_bytes(),
    );
    let reply = read_reply(&mut conn, true);
    assert_eq!(reply.status, 431);
    assert_eq!(reply.header("Connection"), Some("close"));
    assert!(closed(&mut conn));

    let mut conn = connect(&server);
    let many: String = (0..MAX_HEADERS + 1)
        .map(|n| format!("X-{n}: v\r\n"))
        .collect();
    send(
        &mut conn,
        format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(read_reply(&mut conn, true).status, 431);
    assert!(closed(&mut conn));
}

#[test]
fn malformed_and_unsupported_requests_are_refused() {
    let server = echo_server(Limits::default());
    for (request, status) in [
        (&b"NOT HTTP AT ALL\r\n\r\n"[..], 400),
        (b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
        (
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            400,
        ),
        (b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", 413),
        (
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            501,
        ),
    ] {
        let mut conn = connect(&server);
        send(&mut conn, request);
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.status, status, "{}", String::from_utf8_lossy(request));
        assert!(closed(&mut conn));
    }
}

#[test]
fn a_panicking_handler_answers_500_and_the_server_goes_on() {
    let server = echo_server(Limits::default());
    let mut conn = connect(&server);
    send(&mut conn, b"GET /panic HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut conn, true).status, 500);
    assert!(closed(&mut conn));
    let mut conn = connect(&server);
    send(&mut conn, b"GET /ok HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut conn, true).body, "GET /ok");
}

#[test]
fn connections_beyond_the_limit_get_503() {
    let limits = Limits {
        max_connections: 1,
        ..Limits::default()
    };
    let server = echo_server(limits);
    let mut first = connect(&server);
    send(&mut first, b"GET /1 HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut first, true).status, 200);
    let mut second = connect(&server);
    send(&mut second, b"GET /2 HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut second, true).status, 503);
    assert!(closed(&mut second));
    drop(first);
    // The slot comes back once the first connection's thread has ended.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.inner.connections().is_empty() {
        assert!(
            Instant::now() < deadline,
            "the first connection never ended"
        );
        thread::yield_now();
    }
    let mut third = connect(&server);
    send(&mut third, b"GET /3 HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut third, true).body, "GET /3");
}

#[test]
fn idle_connections_are_closed() {
    let limits = Limits {
        idle_timeout: Duration::from_millis(100),
        ..Limits::default()
    };
    let server = echo_server(limits);
    let mut conn = connect(&server);
    assert!(closed(&mut conn));
}

#[test]
fn shutdown_is_prompt_and_closes_open_connections() {
    let server = echo_server(Limits::default());
    let addr = server.addr();
    let mut idle = connect(&server);
    send(&mut idle, b"GET / HTTP/1.1\r\n\r\n");
    assert_eq!(read_reply(&mut idle, true).status, 200);
    let started = Instant::now();
    drop(server);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(closed(&mut idle));
    assert!(TcpStream::connect(addr).is_err());
}

#[test]
fn extra_headers_are_written_unless_reserved_or_malformed() {
    let handler: Handler = Arc::new(|_: &HttpRequest| {
        HttpResponse::new(418, "", "")
            .with_header("Retry-After", "0")
            .with_header("Content-Length", "99")
            .with_header("X-Bad", "a\r\nInjected: yes")
            .with_header("Bad Name", "v")
    });
    let server = HttpServer::bind("127.0.0.1:0", handler, Limits::default()).unwrap();
    let mut conn = connect(&server);
    send(&mut conn, b"GET / HTTP/1.1\r\n\r\n");
    let reply = read_reply(&mut conn, true);
    assert_eq!(reply.status, 418);
    let names: Vec<_> = reply.headers.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Content-Length", "Retry-After"]);
    assert_eq!(reply.header("Content-Length"), Some("0"));
}
