// SQLite behind a WebSocket: each message stores a reading and answers the latest ten rows.
import { Database } from "bun:sqlite";

const db = new Database(process.env.DB || "readings.sqlite");
db.exec("PRAGMA journal_mode=WAL");
db.exec("PRAGMA synchronous=NORMAL");
db.exec("CREATE TABLE IF NOT EXISTS Readings (sensor TEXT, value REAL)");
const insert = db.prepare("INSERT INTO Readings (sensor, value) VALUES (?, ?)");
const recent = db.prepare("SELECT rowid AS id, sensor, value FROM Readings ORDER BY rowid DESC LIMIT 10");

Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT || 9090),
  fetch(req, server) {
    if (new URL(req.url).pathname === "/db") {
      if (server.upgrade(req)) return;
      return new Response("expected a WebSocket upgrade", { status: 400 });
    }
    return new Response();
  },
  websocket: {
    open() {
      console.error("data source connected");
    },
    message(ws, msg) {
      let r = {};
      try {
        r = JSON.parse(String(msg));
      } catch {}
      insert.run(String(r.sensor ?? ""), Number(r.value ?? 0));
      ws.send(JSON.stringify(recent.all()));
    },
    close() {
      console.error("data source disconnected");
    },
  },
});
