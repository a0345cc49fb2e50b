// The HTTP server benchmark's Go peer (benches/net/README.md): net/http,
// run with GOMAXPROCS=1, listening on 127.0.0.1:PORT.
//
//	go build -o go_server benches/net/go_server.go && GOMAXPROCS=1 ./go_server PORT
package main

import (
	"encoding/json"
	"log"
	"net/http"
	"os"
)

type message struct {
	Message string `json:"message"`
	ID      int    `json:"id"`
}

func main() {
	port := "8080"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("Hello, World!"))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		body, err := json.Marshal(message{Message: "Hello, World!", ID: 1})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, mux))
}
