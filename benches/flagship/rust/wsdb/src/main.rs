// SQLite behind a WebSocket: each message stores a reading and answers the latest ten rows.
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

type Db = Arc<Mutex<Connection>>;

#[derive(Deserialize, Default)]
#[serde(default)]
struct Reading {
    sensor: String,
    value: f64,
}

#[derive(Serialize)]
struct Row {
    id: i64,
    sensor: String,
    value: f64,
}

fn store(db: &Db, r: &Reading) -> rusqlite::Result<Vec<Row>> {
    let db = db.lock().unwrap();
    db.prepare_cached("INSERT INTO Readings (sensor, value) VALUES (?, ?)")?
        .execute((&r.sensor, r.value))?;
    let mut recent = db
        .prepare_cached("SELECT rowid, sensor, value FROM Readings ORDER BY rowid DESC LIMIT 10")?;
    let rows = recent.query_map([], |row| {
        Ok(Row {
            id: row.get(0)?,
            sensor: row.get(1)?,
            value: row.get(2)?,
        })
    })?;
    rows.collect()
}

async fn session(mut socket: WebSocket, db: Db) {
    eprintln!("data source connected");
    while let Some(Ok(msg)) = socket.recv().await {
        let reading: Reading = match &msg {
            Message::Text(t) => serde_json::from_str(t.as_str()).unwrap_or_default(),
            Message::Binary(b) => serde_json::from_slice(b).unwrap_or_default(),
            Message::Close(_) => break,
            _ => continue,
        };
        let reply = match store(&db, &reading) {
            Ok(rows) => serde_json::to_string(&rows).unwrap(),
            Err(e) => format!("{{\"error\":{:?}}}", e.to_string()),
        };
        if socket.send(Message::Text(reply.into())).await.is_err() {
            break;
        }
    }
    eprintln!("data source disconnected");
}

async fn upgrade(ws: WebSocketUpgrade, State(db): State<Db>) -> Response {
    ws.on_upgrade(move |socket| session(socket, db))
}

#[tokio::main]
async fn main() {
    let port = std::env::var("PORT").unwrap_or_else(|_| "9090".into());
    let db =
        Connection::open(std::env::var("DB").unwrap_or_else(|_| "readings.sqlite".into())).unwrap();
    db.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
         CREATE TABLE IF NOT EXISTS Readings (sensor TEXT, value REAL);",
    )
    .unwrap();
    let app = axum::Router::new()
        .route("/db", get(upgrade))
        .fallback(|| async {})
        .with_state(Arc::new(Mutex::new(db)));
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}"))
        .await
        .unwrap();
    axum::serve(listener, app).await.unwrap();
}
