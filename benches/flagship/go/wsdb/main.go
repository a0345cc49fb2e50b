// SQLite behind a WebSocket: each message stores a reading and answers the latest ten rows.
package main

import (
	"database/sql"
	"encoding/json"
	"log"
	"net/http"
	"os"

	"github.com/gorilla/websocket"
	_ "github.com/mattn/go-sqlite3"
)

type Reading struct {
	Sensor string  `json:"sensor"`
	Value  float64 `json:"value"`
}

type Row struct {
	ID     int64   `json:"id"`
	Sensor string  `json:"sensor"`
	Value  float64 `json:"value"`
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

var db *sql.DB
var upgrader websocket.Upgrader

func store(r Reading) ([]Row, error) {
	if _, err := db.Exec("INSERT INTO Readings (sensor, value) VALUES (?, ?)", r.Sensor, r.Value); err != nil {
		return nil, err
	}
	rows, err := db.Query("SELECT rowid, sensor, value FROM Readings ORDER BY rowid DESC LIMIT 10")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	recent := []Row{}
	for rows.Next() {
		var row Row
		if err := rows.Scan(&row.ID, &row.Sensor, &row.Value); err != nil {
			return nil, err
		}
		recent = append(recent, row)
	}
	return recent, rows.Err()
}

func serveDB(w http.ResponseWriter, req *http.Request) {
	conn, err := upgrader.Upgrade(w, req, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	log.Print("data source connected")
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			break
		}
		var r Reading
		json.Unmarshal(msg, &r)
		recent, err := store(r)
		if err != nil {
			conn.WriteJSON(map[string]string{"error": err.Error()})
			continue
		}
		if conn.WriteJSON(recent) != nil {
			break
		}
	}
	log.Print("data source disconnected")
}

func main() {
	var err error
	db, err = sql.Open("sqlite3", env("DB", "readings.sqlite")+"?_journal_mode=WAL&_synchronous=NORMAL")
	if err != nil {
		panic(err)
	}
	if _, err = db.Exec("CREATE TABLE IF NOT EXISTS Readings (sensor TEXT, value REAL)"); err != nil {
		panic(err)
	}
	http.HandleFunc("/db", serveDB)
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {})
	panic(http.ListenAndServe("127.0.0.1:"+env("PORT", "9090"), nil))
}
