// Command loadgen is the flagship benchmark's measuring tool (benches/flagship/README.md).
//
//	loadgen upstream -addr 127.0.0.1:PORT          the proxy's upstream: GET /p answers a fixed
//	                                                body naming p; POST echoes the request body
//	loadgen http -url URL [-c 20 -d 5s -warmup 1s]  HTTP load: C keep-alive connections
//	loadgen ws -url ws://... [-c 20 -d 5s -warmup 1s] WebSocket load: C clients, each sending
//	                                                one reading and awaiting the reply, in a loop
//	loadgen check-proxy -url PROXY -upstream UP     responses byte-identical to the upstream's
//	loadgen check-ws -url ws://...                  readings stored, latest ten returned newest first
//	loadgen check-captcha -url URL                  decodable 160x60 PNGs with ink, fresh per request
//
// Load modes run an untimed warm-up, then count the round trips completed in the timed
// window and print one JSON object: requests, seconds, rps, p50_ms, p99_ms, errors.
// Only loopback addresses are accepted.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", args...)
	os.Exit(1)
}

func loopbackOnly(raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		fail("bad url %q: %v", raw, err)
	}
	if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" {
		fail("refusing non-loopback host %q", h)
	}
}

// upstreamBody is what the upstream answers for GET path: deterministic, about 1 KiB.
func upstreamBody(path string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "upstream answer for %s\n", path)
	for i := 0; b.Len() < 1024; i++ {
		fmt.Fprintf(&b, "line %03d of a fixed upstream body\n", i)
	}
	return b.Bytes()
}

// runUpstream serves the proxy's upstream; delay (0: none) is how long it
// waits before each answer, as a remote upstream's round trip would.
func runUpstream(addr string, delay time.Duration) {
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		fail("upstream must listen on 127.0.0.1")
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if delay > 0 {
			time.Sleep(delay)
		}
		w.Header().Set("content-type", "text/plain; charset=utf-8")
		w.Header().Set("x-upstream", "1")
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			w.Write(body)
			return
		}
		w.Write(upstreamBody(r.URL.Path))
	})
	fail("%v", http.ListenAndServe(addr, handler))
}

type result struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
	RPS      float64 `json:"rps"`
	P50      float64 `json:"p50_ms"`
	P99      float64 `json:"p99_ms"`
	Errors   int64   `json:"errors"`
}

// drive runs clients round trips in parallel: warm-up first (not recorded), then the timed
// window. roundTrip is called with the client index and returns an error for a failed trip.
func drive(clients int, warmup, dur time.Duration, setup func(i int) (func() error, error)) result {
	trips := make([]func() error, clients)
	for i := range trips {
		trip, err := setup(i)
		if err != nil {
			fail("client %d: %v", i, err)
		}
		trips[i] = trip
	}
	var errs int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	timedStart := start.Add(warmup)
	end := timedStart.Add(dur)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for {
				t0 := time.Now()
				if t0.After(end) {
					return
				}
				err := trips[i]()
				t1 := time.Now()
				if t0.Before(timedStart) || t1.After(end) {
					continue
				}
				if err != nil {
					atomic.AddInt64(&errs, 1)
					continue
				}
				lat[i] = append(lat[i], t1.Sub(t0))
			}
		}(i)
	}
	wg.Wait()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	r := result{Requests: len(all), Seconds: dur.Seconds(), Errors: errs}
	r.RPS = float64(len(all)) / dur.Seconds()
	if len(all) > 0 {
		r.P50 = float64(all[len(all)/2].Microseconds()) / 1000
		r.P99 = float64(all[len(all)*99/100].Microseconds()) / 1000
	}
	return r
}

func httpLoad(target string, clients int, warmup, dur time.Duration) result {
	transport := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	return drive(clients, warmup, dur, func(int) (func() error, error) {
		return func() error {
			resp, err := client.Get(target)
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode != 200 {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			return err
		}, nil
	})
}

func wsLoad(target string, clients int, warmup, dur time.Duration) result {
	return drive(clients, warmup, dur, func(i int) (func() error, error) {
		conn, _, err := websocket.DefaultDialer.Dial(target, nil)
		if err != nil {
			return nil, err
		}
		n := 0
		return func() error {
			n++
			msg := fmt.Sprintf(`{"sensor": "load-%d", "value": %d.5}`, i, n)
			if err := conn.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
				return err
			}
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, reply, err := conn.ReadMessage()
			if err == nil && !bytes.HasPrefix(reply, []byte("[")) {
				err = fmt.Errorf("reply is not a JSON array: %.80s", reply)
			}
			return err
		}, nil
	})
}

func get(target string, method string, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(method, target, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data, err
}

func checkProxy(proxy, upstream string) error {
	for _, path := range []string{"/", "/a", "/deep/path/x.json"} {
		for _, method := range []string{"GET", "POST"} {
			body := []byte(fmt.Sprintf(`{"probe": %q, "n": [1, 2, 3]}`, path))
			c1, _, b1, err := get(upstream+path, method, body)
			if err != nil {
				return fmt.Errorf("upstream %s %s: %v", method, path, err)
			}
			c2, _, b2, err := get(proxy+path, method, body)
			if err != nil {
				return fmt.Errorf("proxy %s %s: %v", method, path, err)
			}
			if c1 != c2 || !bytes.Equal(b1, b2) {
				return fmt.Errorf("%s %s: proxy answered %d (%d bytes), upstream %d (%d bytes)", method, path, c2, len(b2), c1, len(b1))
			}
		}
	}
	return nil
}

type row struct {
	Sensor *string  `json:"sensor"`
	Value  *float64 `json:"value"`
}

func checkWS(target string) error {
	conn, _, err := websocket.DefaultDialer.Dial(target, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	tag := fmt.Sprintf("check-%d", time.Now().UnixNano())
	for k := 1; k <= 12; k++ {
		msg := fmt.Sprintf(`{"sensor": "%s-%d", "value": %d.25}`, tag, k, k)
		if err := conn.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			return err
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, reply, err := conn.ReadMessage()
		if err != nil {
			return err
		}
		var rows []row
		if err := json.Unmarshal(reply, &rows); err != nil {
			return fmt.Errorf("reply %d is not a JSON array of rows: %v: %.200s", k, err, reply)
		}
		want := k
		if want > 10 {
			want = 10
		}
		if len(rows) < want || len(rows) > 10 {
			return fmt.Errorf("reply %d has %d rows, want %d", k, len(rows), want)
		}
		for j := 0; j < want; j++ {
			s, v := rows[j].Sensor, rows[j].Value
			wantS, wantV := fmt.Sprintf("%s-%d", tag, k-j), float64(k-j)+0.25
			if s == nil || v == nil || *s != wantS || *v != wantV {
				return fmt.Errorf("reply %d row %d: %.200s, want sensor %s value %v", k, j, reply, wantS, wantV)
			}
		}
	}
	return nil
}

func checkCaptcha(target string) error {
	var first []byte
	for k := 0; k < 3; k++ {
		code, hdr, body, err := get(target, "GET", nil)
		if err != nil {
			return err
		}
		if code != 200 || !strings.HasPrefix(hdr.Get("content-type"), "image/png") {
			return fmt.Errorf("status %d, content-type %q", code, hdr.Get("content-type"))
		}
		img, err := png.Decode(bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("not a PNG: %v", err)
		}
		if b := img.Bounds(); b.Dx() != 160 || b.Dy() != 60 {
			return fmt.Errorf("image is %dx%d, want 160x60", b.Dx(), b.Dy())
		}
		dark := 0
		for y := 0; y < 60; y++ {
			for x := 0; x < 160; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if (r+g+b)/3 < 0x8000 {
					dark++
				}
			}
		}
		if dark < 50 {
			return fmt.Errorf("only %d dark pixels: no text drawn", dark)
		}
		if k == 0 {
			first = body
		} else if bytes.Equal(first, body) {
			return errors.New("two requests answered the same image")
		}
	}
	return nil
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: loadgen upstream|http|ws|check-proxy|check-ws|check-captcha [flags]")
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	target := fs.String("url", "", "target URL (loopback only)")
	addr := fs.String("addr", "127.0.0.1:9000", "upstream listening address")
	up := fs.String("upstream", "", "upstream base URL for check-proxy")
	clients := fs.Int("c", 20, "concurrent connections / clients")
	dur := fs.Duration("d", 5*time.Second, "timed duration")
	warmup := fs.Duration("warmup", time.Second, "untimed warm-up before the timed window")
	delay := fs.Duration("delay", 0, "upstream: wait this long before each answer")
	fs.Parse(os.Args[2:])
	if os.Args[1] != "upstream" {
		loopbackOnly(*target)
	}
	var err error
	switch os.Args[1] {
	case "upstream":
		runUpstream(*addr, *delay)
	case "http", "ws":
		var r result
		if os.Args[1] == "http" {
			r = httpLoad(*target, *clients, *warmup, *dur)
		} else {
			r = wsLoad(*target, *clients, *warmup, *dur)
		}
		out, _ := json.Marshal(r)
		fmt.Println(string(out))
	case "check-proxy":
		loopbackOnly(*up)
		err = checkProxy(*target, *up)
	case "check-ws":
		err = checkWS(*target)
	case "check-captcha":
		err = checkCaptcha(*target)
	default:
		fail("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fail("%s: %v", os.Args[1], err)
	}
}
