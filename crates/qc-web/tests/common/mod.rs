//! What the server tests share: the app's views written by hand from the SDK's published types
//! (`QCEngineView`, `QCClock`, `QCMoveRecord`), and a small HTTP/1.1 client over a real socket
//! whose every wait is bounded.
#![allow(dead_code, reason = "each test file uses some of these")]

use serde_json::{json, Value};

/// The start position's pieces, a1 = 0 ... h8 = 63, `.` for empty.
pub fn start_pieces() -> Vec<char> {
    let mut pieces = vec!['.'; 64];
    for (i, c) in "RNBQKBNR".chars().enumerate() {
        pieces[i] = c;
        pieces[56 + i] = c.to_ascii_lowercase();
        pieces[8 + i] = 'P';
        pieces[48 + i] = 'p';
    }
    pieces
}

/// A square's number from its name (`e2` = 12).
pub fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1')
}

/// A board of classical moves played from the start (each piece certainly where it is).
pub fn classical(moves: &[(&str, &str)]) -> (Vec<char>, Vec<f64>) {
    let mut pieces = start_pieces();
    for (from, to) in moves {
        pieces[sq(to)] = pieces[sq(from)];
        pieces[sq(from)] = '.';
    }
    let probabilities = pieces
        .iter()
        .map(|&p| if p == '.' { 0.0 } else { 1.0 })
        .collect();
    (pieces, probabilities)
}

/// A history record as the app writes it.
pub fn record(text: &str, measured: Option<bool>) -> Value {
    json!({
        "moveString": text, "notation": text, "ply": 0,
        "wasMeasurement": measured.is_some(),
        "measurementPassed": measured,
        "wasBlocked": measured == Some(false),
    })
}

/// A `{view, clock}` body.
pub fn body(
    board: (Vec<char>, Vec<f64>),
    side: &str,
    history: Vec<Value>,
    legal: Value,
    clock: Value,
) -> String {
    let (pieces, probabilities) = board;
    let pieces: Vec<String> = pieces.iter().map(char::to_string).collect();
    json!({
        "view": {
            "gameData": {
                "position": { "startingFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                              "setupMoves": [], "history": [] },
                "board": { "pieces": pieces, "probabilities": probabilities, "ply": history.len(),
                           "fiftyCount": 0, "fiftyPieceCount": 32, "castleFlags": 15, "enPassantSquare": -1 }
            },
            "sideToMove": side,
            "legalMoves": legal,
            "moveHistory": history,
            "quantumEnabled": true,
            "rules": { "quantumEnabled": true, "allowSplitMerge": true, "allowMeasurementAnnotations": true,
                       "allowCastling": true, "allowEnPassant": true, "allowPromotion": true,
                       "objective": "checkmate" }
        },
        "clock": clock
    })
    .to_string()
}

/// White's 20 standard moves and two knight splits at the start, by hand.
pub fn start_legal() -> Value {
    let mut standard = Vec::new();
    for file in 0..8 {
        standard.push(json!({"from": 8 + file, "to": 16 + file, "type": 3, "piece": "P"}));
        standard.push(json!({"from": 8 + file, "to": 24 + file, "type": 3, "piece": "P"}));
    }
    for (from, a, b) in [(1, 16, 18), (6, 21, 23)] {
        standard.push(json!({"from": from, "to": a, "type": 2, "piece": "N"}));
        standard.push(json!({"from": from, "to": b, "type": 2, "piece": "N"}));
    }
    json!({
        "standard": standard,
        "splits": [{"from": 1, "targetA": 16, "targetB": 18}, {"from": 6, "targetA": 21, "targetB": 23}],
        "merges": [],
        "count": 22
    })
}

pub fn start_body(clock: Value) -> String {
    body(classical(&[]), "white", vec![], start_legal(), clock)
}

/// An answer read off a socket.
#[derive(Debug)]
pub struct Answer {
    /// The status code (0 when the server closed the connection without one).
    pub status: u16,
    /// The head, as sent (status line and headers), lowercased.
    pub head: String,
    /// The body.
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lowercase), if sent.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    }
}

/// A request of `method` to `path` with a JSON `body`, `Connection: close`.
pub fn http(method: &str, path: &str, extra_headers: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{extra_headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Sends `raw` to `address` and reads the answer until the server closes the connection;
/// `Err` when that takes longer than `bound` (the server no longer answers).
pub async fn exchange(
    address: std::net::SocketAddr,
    raw: String,
    bound: std::time::Duration,
) -> Result<Answer, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let talk = async {
        let mut stream = tokio::net::TcpStream::connect(address)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        stream
            .write_all(raw.as_bytes())
            .await
            .map_err(|e| format!("write: {e}"))?;
        let mut bytes = Vec::new();
        // A reset after the answer (the server closing a connection it had not read to the end)
        // still leaves the answer read.
        let _ = stream.read_to_end(&mut bytes).await;
        Ok::<_, String>(bytes)
    };
    let bytes = tokio::time::timeout(bound, talk)
        .await
        .map_err(|_| format!("no answer within {bound:?}"))??;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok(Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    })
}
