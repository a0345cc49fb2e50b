// The message round-trip benchmark's Go peer (benches/net/README.md): main
// sends N messages to one worker goroutine over a channel and the worker
// sends each back over a second channel (default GOMAXPROCS: the goroutines
// may run on both cores, like Festina's threads).
//
//	roundtrip-go pingpong|burst [N]      (N defaults to 100000)
//
// pingpong: one message in flight; the next is sent when the reply arrives.
// burst: all N are sent without waiting (the channel buffers them, as a
// thread's message queue does), then the N replies are received.
// Replies must come back in order. Prints `round trips N, last id N-1` on
// stdout and `loop_ms=…` on stderr.
package main

import (
	"fmt"
	"log"
	"os"
	"strconv"
	"time"
)

type message struct {
	ID   int
	Text string
}

func worker(in <-chan message, out chan<- message) {
	for m := range in {
		out <- m
	}
	close(out)
}

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "pingpong" && os.Args[1] != "burst") {
		log.Fatal("usage: roundtrip-go pingpong|burst [N]")
	}
	n := 100000
	if len(os.Args) > 2 {
		var err error
		if n, err = strconv.Atoi(os.Args[2]); err != nil || n < 1 {
			log.Fatal("N must be a positive number")
		}
	}
	capacity := 0
	if os.Args[1] == "burst" {
		capacity = n
	}
	in, out := make(chan message, capacity), make(chan message, capacity)
	go worker(in, out)

	start := time.Now()
	last := -1
	if os.Args[1] == "pingpong" {
		for i := 0; i < n; i++ {
			in <- message{ID: i, Text: "hello"}
			r := <-out
			if r.ID != i {
				log.Fatalf("reply %d out of order (expected %d)", r.ID, i)
			}
			last = r.ID
		}
	} else {
		for i := 0; i < n; i++ {
			in <- message{ID: i, Text: "hello"}
		}
		for i := 0; i < n; i++ {
			r := <-out
			if r.ID != i {
				log.Fatalf("reply %d out of order (expected %d)", r.ID, i)
			}
			last = r.ID
		}
	}
	elapsed := time.Since(start)
	close(in)
	fmt.Printf("round trips %d, last id %d\n", n, last)
	fmt.Fprintf(os.Stderr, "loop_ms=%.3f\n", float64(elapsed.Nanoseconds())/1e6)
}
