// Command serveload is tether serve's load test: it starts the server on a
// loopback port and runs C concurrent clients for a duration, each with
// its own session of generated two moons, adding one oracle constraint and
// re-clustering (FGPWC, the server's defaults) in a loop. It prints the
// number of requests, errors, p50/p90/p99/max latency of the re-clustering
// requests and the peak heap, as a Markdown table row.
//
//	flock /work/bench.lock /usr/bin/time -v go run ./bench/serveload -clients 50 -duration 60s -n 2000
//
// Not part of the test suite (docs/serve-load.md holds the measurements).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tether-sc/tether/internal/server"
)

func main() {
	clients := flag.Int("clients", 50, "concurrent clients")
	duration := flag.Duration("duration", 60*time.Second, "how long the clients run")
	n := flag.Int("n", 2000, "points of each client's two moons")
	flag.Parse()
	if err := run(*clients, *duration, *n); err != nil {
		fmt.Fprintln(os.Stderr, "serveload:", err)
		os.Exit(1)
	}
}

func run(clients int, duration time.Duration, n int) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := server.New(server.Config{MaxSessions: clients + 10, Log: log.New(os.Stderr, "", 0)}, l.Addr().String())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	base := "http://" + l.Addr().String() + "/api/"
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: 2 * time.Minute}

	var peak atomic.Uint64
	stopMem := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stopMem:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()

	var mu sync.Mutex
	var lat []time.Duration
	var errs atomic.Int64
	var firstErr atomic.Value
	fail := func(err error) {
		errs.Add(1)
		firstErr.CompareAndSwap(nil, err)
	}
	post := func(path string, body any, out any) error {
		b, _ := json.Marshal(body)
		resp, err := hc.Post(base+path, "application/json", bytes.NewReader(b))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		rb, _ := io.ReadAll(resp.Body)
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, rb)
		}
		if out != nil {
			return json.Unmarshal(rb, out)
		}
		return nil
	}
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sess struct{ ID string }
			if err := post("sessions", nil, &sess); err != nil {
				fail(err)
				return
			}
			sp := "sessions/" + sess.ID + "/"
			if err := post(sp+"data", map[string]any{"generate": map[string]any{"name": "moons", "seed": c, "params": map[string]int{"n": n}}}, nil); err != nil {
				fail(err)
				return
			}
			resp, err := hc.Get(base + sp + "points")
			if err != nil {
				fail(err)
				return
			}
			var pts struct{ Truth []int }
			err = json.NewDecoder(resp.Body).Decode(&pts)
			resp.Body.Close()
			if err != nil {
				fail(err)
				return
			}
			rnd := rand.New(rand.NewPCG(uint64(c), 1))
			for time.Since(start) < duration {
				i, j := rnd.IntN(n), rnd.IntN(n)
				if i == j {
					continue
				}
				kind := "cl"
				if pts.Truth[i] == pts.Truth[j] {
					kind = "ml"
				}
				t0 := time.Now()
				if err := post(sp+"constraints", map[string]any{"pairs": []map[string]any{{"i": i, "j": j, "kind": kind}}}, nil); err != nil {
					fail(err)
					continue
				}
				if err := post(sp+"cluster", map[string]any{"k": 2, "seed": 1}, nil); err != nil {
					fail(err)
					continue
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stopMem)
	cancel()
	if err := <-done; err != nil {
		return err
	}
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f", float64(d.Microseconds())/1000) }
	fmt.Println("| clients | n per session | seconds | re-clusterings | errors | p50 ms | p90 ms | p99 ms | max ms | peak heap MB |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	fmt.Printf("| %d | %d | %.0f | %d | %d | %s | %s | %s | %s | %.0f |\n", clients, n, elapsed.Seconds(), len(lat), errs.Load(),
		ms(q(0.5)), ms(q(0.9)), ms(q(0.99)), ms(q(1)), float64(peak.Load())/(1<<20))
	if e := firstErr.Load(); e != nil {
		return fmt.Errorf("%d errors, the first: %v", errs.Load(), e)
	}
	return nil
}
