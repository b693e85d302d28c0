//! The HTTP/1.1 of `optimoo serve`: one request a connection, read within
//! bounds, answered, and the connection closed.
//!
//! Invariants:
//! - a request's head (request line and headers) is read into at most
//!   [`MAX_HEAD`] bytes, within [`READ_TIME`] in all (a slow client, one
//!   byte a second, is answered 408 when it runs out; a silent one too);
//!   more bytes are refused with 431 before the rest is read; at most
//!   [`MAX_HEADERS`] headers;
//! - no body is read: a request announcing one (`Content-Length` above 0,
//!   or `Transfer-Encoding`) is refused with 413;
//! - every answer is written within [`WRITE_TIME`], with `Connection:
//!   close`, `Cache-Control: no-store` and `X-Content-Type-Options:
//!   nosniff`; errors are JSON `{"error": "..."}`;
//! - query strings are percent-decoded (`+` is a space) into UTF-8, or
//!   refused; nothing here touches the file system.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The most bytes of a request's head.
pub const MAX_HEAD: usize = 8192;
/// The most headers of a request.
pub const MAX_HEADERS: usize = 32;
/// The time a client has to send its request's head.
pub const READ_TIME: Duration = Duration::from_secs(5);
/// The time a client has to take an answer.
pub const WRITE_TIME: Duration = Duration::from_secs(10);

/// A request read: its method, path and query string (raw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// The path, before `?`.
    pub path: String,
    /// The query string, after `?` (empty when none).
    pub query: String,
}

/// An answer: status, content type, body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status code.
    pub status: u16,
    /// The Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Extra header lines (`Name: value`).
    pub headers: Vec<String>,
}

impl Answer {
    /// A JSON answer.
    pub fn json(status: u16, body: String) -> Answer {
        Answer {
            status,
            content_type: "application/json; charset=utf-8",
            body: body.into_bytes(),
            headers: Vec::new(),
        }
    }

    /// A JSON error, `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Answer {
        Answer::json(status, serde_json::json!({ "error": message }).to_string())
    }

    /// An HTML page.
    pub fn html(body: Vec<u8>) -> Answer {
        Answer {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body,
            headers: Vec::new(),
        }
    }
}

/// The reason phrase of the statuses used.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Reads one request's head from `stream` within the bounds above; an
/// error is the answer to send.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, Answer> {
    let start = Instant::now();
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    loop {
        let left = READ_TIME.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(Answer::error(408, "the request took too long to arrive"));
        }
        // A read timeout of zero would mean none: at least a millisecond.
        let _ = stream.set_read_timeout(Some(left.max(Duration::from_millis(1))));
        let n = match stream.read(&mut buf) {
            Ok(0) => return Err(Answer::error(400, "the connection closed mid-request")),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(Answer::error(408, "the request took too long to arrive"))
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(Answer::error(400, "the request could not be read")),
        };
        head.extend_from_slice(&buf[..n]);
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&head) {
            Ok(httparse::Status::Complete(_)) => return checked(&request),
            Ok(httparse::Status::Partial) if head.len() > MAX_HEAD => {
                return Err(too_large(&head));
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(Answer::error(
                    431,
                    &format!("more than {MAX_HEADERS} headers"),
                ))
            }
            Err(e) => return Err(Answer::error(400, &format!("malformed request: {e}"))),
        }
        if head.len() > MAX_HEAD {
            return Err(too_large(&head));
        }
    }
}

/// The answer to a head over [`MAX_HEAD`]: 414 when the request line
/// alone is (the URL), else 431.
fn too_large(head: &[u8]) -> Answer {
    if !head.contains(&b'\n') {
        Answer::error(
            414,
            &format!("the URL is longer than the {MAX_HEAD} bytes a request may hold"),
        )
    } else {
        Answer::error(
            431,
            &format!("the request's head is longer than {MAX_HEAD} bytes"),
        )
    }
}

/// The request of a complete head, refused when it announces a body.
fn checked(request: &httparse::Request<'_, '_>) -> Result<Request, Answer> {
    for h in request.headers.iter() {
        let body = if h.name.eq_ignore_ascii_case("content-length") {
            std::str::from_utf8(h.value)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                != Some(0)
        } else {
            h.name.eq_ignore_ascii_case("transfer-encoding")
        };
        if body {
            return Err(Answer::error(
                413,
                "this server takes no request body: ask with GET and a query string",
            ));
        }
    }
    let target = request.path.unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Ok(Request {
        method: request.method.unwrap_or("").to_string(),
        path: path.to_string(),
        query: query.to_string(),
    })
}

/// Writes `answer` (no body for `HEAD`) and closes the connection.
pub fn write_answer(stream: &mut TcpStream, answer: &Answer, head_only: bool) {
    let _ = stream.set_write_timeout(Some(WRITE_TIME));
    let mut text = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
        answer.status,
        reason(answer.status),
        answer.content_type,
        answer.body.len()
    );
    for h in &answer.headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    let mut bytes = text.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&answer.body);
    }
    // A client gone is no error of ours.
    let _ = stream.write_all(&bytes).and_then(|()| stream.flush());
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Drain what the client still sends, briefly, so that closing does not
    // reset the connection before it reads the answer.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 1024];
    let mut drained = 0;
    while drained < 64 * 1024 {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// The parameters of a query string, percent-decoded, in order; an error
/// says what is wrong.
pub fn query_pairs(query: &str) -> Result<Vec<(String, String)>, String> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            Ok((decode(k)?, decode(v)?))
        })
        .collect()
}

/// Percent-decodes `text` (`+` is a space) into UTF-8.
pub fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or("a % not followed by two hexadecimal digits in the query")?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "the query is not UTF-8 once decoded".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_percent_decoded() {
        assert_eq!(
            query_pairs("game=mm%3A4x6&history=0011%3A1A0B+2233:0A1B").unwrap(),
            vec![
                ("game".to_string(), "mm:4x6".to_string()),
                ("history".to_string(), "0011:1A0B 2233:0A1B".to_string())
            ]
        );
        assert!(decode("%4").is_err());
        assert!(decode("%zz").is_err());
        assert!(decode("%ff").is_err(), "not UTF-8");
        assert_eq!(decode("%C3%A9").unwrap(), "é");
    }
}
