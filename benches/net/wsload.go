// The WebSocket echo benchmark's load client (benches/net/README.md):
// CONNS connections (default 50), each in its own goroutine sending one
// text message and waiting for its echo before sending the next. After an
// untimed warm-up it counts the round trips completed in the timed window
// and prints one JSON line:
//
//	{"messages_per_s":…,"round_trips":…,"all_round_trips":…,"seconds":…,"connections":…,"errors":…}
//
// round_trips counts the timed window's; all_round_trips every one,
// warm-up included (what the server's CPU time over the whole run is
// divided by).
//
// An echo whose payload differs from what was sent is an error (exit 1);
// a binary echo of a text message is accepted (the payload is compared).
//
//	wsload -url ws://127.0.0.1:PORT/ [-c 50] [-d 5s] [-warmup 1s]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

func main() {
	url := flag.String("url", "", "ws:// URL of the echo server")
	conns := flag.Int("c", 50, "connections")
	duration := flag.Duration("d", 5*time.Second, "timed window")
	warmup := flag.Duration("warmup", time.Second, "untimed warm-up")
	payload := flag.String("m", `{"sensor":"temp-1","value":21.4}`, "message text")
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "wsload: -url is required")
		os.Exit(2)
	}
	msg := []byte(*payload)

	// phase: 0 warm-up, 1 timed, 2 stop.
	var phase, counted, all, errors atomic.Int64
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < *conns; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			c, _, err := websocket.DefaultDialer.Dial(*url, nil)
			ready.Done()
			if err != nil {
				errors.Add(1)
				fmt.Fprintln(os.Stderr, "wsload: dial:", err)
				return
			}
			defer c.Close()
			<-start
			for {
				p := phase.Load()
				if p == 2 {
					c.WriteMessage(websocket.CloseMessage,
						websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
					return
				}
				if err := c.WriteMessage(websocket.TextMessage, msg); err != nil {
					errors.Add(1)
					return
				}
				_, echo, err := c.ReadMessage()
				if err != nil {
					errors.Add(1)
					return
				}
				if !bytes.Equal(echo, msg) {
					errors.Add(1)
					fmt.Fprintf(os.Stderr, "wsload: echo %q differs from %q\n", echo, msg)
					return
				}
				all.Add(1)
				if p == 1 && phase.Load() == 1 {
					counted.Add(1)
				}
			}
		}()
	}
	ready.Wait()
	close(start)
	time.Sleep(*warmup)
	phase.Store(1)
	t0 := time.Now()
	time.Sleep(*duration)
	phase.Store(2)
	secs := time.Since(t0).Seconds()
	done.Wait()
	out, _ := json.Marshal(map[string]any{
		"messages_per_s":  float64(counted.Load()) / secs,
		"round_trips":     counted.Load(),
		"all_round_trips": all.Load(),
		"seconds":         secs,
		"connections":     *conns,
		"errors":          errors.Load(),
	})
	fmt.Println(string(out))
	if errors.Load() > 0 {
		os.Exit(1)
	}
}
