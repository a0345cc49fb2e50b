// A second WebSocket echo peer (benches/net/README.md): net/http with
// gorilla/websocket (Debian's golang-github-gorilla-websocket-dev), one
// goroutine per connection, run with GOMAXPROCS=1. Listens on 127.0.0.1:PORT.
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/gorilla/websocket"
)

var upgrader = websocket.Upgrader{}

func echo(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client already
	}
	defer conn.Close()
	for {
		kind, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		if err := conn.WriteMessage(kind, msg); err != nil {
			return
		}
	}
}

func main() {
	port := "8080"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	http.HandleFunc("/", echo)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}
