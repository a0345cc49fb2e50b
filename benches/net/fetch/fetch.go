// The fetch-and-parse benchmark's Go peer (benches/net/README.md): N
// sequential GETs of URL through net/http's default client (keep-alive
// reuse), each body parsed with encoding/json into Weather.
//
//	fetch-go URL [N]      (N defaults to 200)
//
// Prints `fetched N, temperature_2m T, wind_speed_10m W` (the last
// response's values) on stdout and `loop_ms=…` (the loop's own time) on
// stderr.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"
)

type Current struct {
	Temperature2m float64 `json:"temperature_2m"`
	WindSpeed10m  float64 `json:"wind_speed_10m"`
}

type Weather struct {
	Current Current `json:"current"`
}

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: fetch-go URL [N]")
	}
	url := os.Args[1]
	n := 200
	if len(os.Args) > 2 {
		var err error
		if n, err = strconv.Atoi(os.Args[2]); err != nil {
			log.Fatal("N must be a number")
		}
	}
	start := time.Now()
	var w Weather
	for i := 0; i < n; i++ {
		resp, err := http.Get(url)
		if err != nil {
			log.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		w = Weather{}
		if err := json.Unmarshal(body, &w); err != nil {
			log.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	fmt.Printf("fetched %d, temperature_2m %v, wind_speed_10m %v\n", n, w.Current.Temperature2m, w.Current.WindSpeed10m)
	fmt.Fprintf(os.Stderr, "loop_ms=%.3f\n", float64(elapsed.Nanoseconds())/1e6)
}
