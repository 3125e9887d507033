// The article's benchmark in real Go: ECDSA P-256 Sign of "testing" (as crypto/ecdsa's
// BenchmarkSignP256 signs) in a loop on GOMAXPROCS goroutines, for a number of timed
// trials. GOMAXPROCS and GOGC come from the environment, set by `contention run gc`.
// Per trial it prints one CSV line: signatures, GC cycles and pause time read from
// runtime/metrics, what each Sign allocated, and the process's CPU time (its own rusage)
// over the wall time x the CPUs, what top showed as 2266% of 4800%. Standard library only.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	cyclesMetric  = "/gc/cycles/total:gc-cycles"
	bytesMetric   = "/gc/heap/allocs:bytes"
	objectsMetric = "/gc/heap/allocs:objects"
	// The heap size the pacer aims the next cycle at (gctrace's "goal"), read at a trial's end.
	goalMetric = "/gc/heap/goal:bytes"
)

// The pause histogram moved in Go 1.22; the first name this Go knows is used.
var pauseMetrics = []string{"/sched/pauses/total/gc:seconds", "/gc/pauses:seconds"}

var message = []byte("testing")

type reading struct {
	cycles, bytes, objects, goal uint64
	pauseSeconds                 float64
}

func pauseMetric() (string, error) {
	known := map[string]bool{}
	for _, description := range metrics.All() {
		known[description.Name] = true
	}
	for _, name := range pauseMetrics {
		if known[name] {
			return name, nil
		}
	}
	return "", fmt.Errorf("this Go has none of the pause metrics %v", pauseMetrics)
}

// Sums a histogram of pause lengths at its buckets' midpoints (an open end counts at its
// finite edge): runtime/metrics gives counts per bucket, not the total.
func histogramSeconds(histogram *metrics.Float64Histogram) float64 {
	total := 0.0
	for i, count := range histogram.Counts {
		low, high := histogram.Buckets[i], histogram.Buckets[i+1]
		if math.IsInf(low, -1) {
			low = high
		}
		if math.IsInf(high, 1) {
			high = low
		}
		total += float64(count) * (low + high) / 2
	}
	return total
}

func read(pauses string) reading {
	samples := []metrics.Sample{
		{Name: cyclesMetric}, {Name: bytesMetric}, {Name: objectsMetric}, {Name: pauses}, {Name: goalMetric},
	}
	metrics.Read(samples)
	return reading{
		cycles:       samples[0].Value.Uint64(),
		bytes:        samples[1].Value.Uint64(),
		objects:      samples[2].Value.Uint64(),
		pauseSeconds: histogramSeconds(samples[3].Value.Float64Histogram()),
		goal:         samples[4].Value.Uint64(),
	}
}

// The process's user plus system CPU time so far, every thread (getrusage RUSAGE_SELF); 0
// when the system refuses.
func cpuSeconds() float64 {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	seconds := func(time syscall.Timeval) float64 { return float64(time.Sec) + float64(time.Usec)/1e6 }
	return seconds(usage.Utime) + seconds(usage.Stime)
}

// One trial: every goroutine signs until the deadline; returns signatures and whether
// every goroutine's last signature verified (the row also needs signatures in all).
func trial(key *ecdsa.PrivateKey, goroutines int, length time.Duration) (uint64, bool) {
	var wait sync.WaitGroup
	counts := make([]uint64, goroutines)
	verified := make([]bool, goroutines)
	deadline := time.Now().Add(length)
	for g := 0; g < goroutines; g++ {
		wait.Add(1)
		go func(g int) {
			defer wait.Done()
			var r, s *big.Int
			var err error
			for time.Now().Before(deadline) {
				r, s, err = ecdsa.Sign(rand.Reader, key, message)
				if err != nil {
					return
				}
				counts[g]++
			}
			// A goroutine the scheduler never ran before the deadline (8 on 2 loaded CPUs
			// for 0.2 s) signed nothing and has nothing to verify (a failed Sign returned
			// above, unverified).
			verified[g] = counts[g] == 0 || ecdsa.Verify(&key.PublicKey, message, r, s)
		}(g)
	}
	wait.Wait()
	total, allVerified := uint64(0), true
	for g := range counts {
		total += counts[g]
		allVerified = allVerified && verified[g]
	}
	return total, allVerified
}

func main() {
	seconds := flag.Float64("seconds", 1, "length of one trial")
	trials := flag.Int("trials", 3, "timed trials")
	warmup := flag.Float64("warmup", 0.1, "untimed signing before the first trial, in seconds")
	flag.Parse()
	if *seconds <= 0 || *trials < 1 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "seconds must be above 0, trials at least 1, warmup at least 0")
		os.Exit(2)
	}
	pauses, err := pauseMetric()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		fmt.Fprintln(os.Stderr, "generating a P-256 key:", err)
		os.Exit(1)
	}
	procs := runtime.GOMAXPROCS(0)
	ratio := strings.ToLower(strings.TrimSpace(os.Getenv("GOGC")))
	if ratio == "" {
		ratio = "100"
	}
	length := time.Duration(*seconds * float64(time.Second))
	trial(key, procs, time.Duration(*warmup*float64(time.Second)))
	fmt.Println("threads,ratio,trial,go_version,elapsed_ns,operations,ops_per_sec,cycles,cycles_per_sec," +
		"pause_total_ns,pause_share,pause_metric,alloc_bytes_per_op,alloc_objects_per_op,verified,cpu_share," +
		"heap_goal_bytes")
	for t := 0; t < *trials; t++ {
		before := read(pauses)
		cpuBefore := cpuSeconds()
		started := time.Now()
		operations, verified := trial(key, procs, length)
		elapsed := time.Since(started)
		cpuShare := math.Max(cpuSeconds()-cpuBefore, 0) / (elapsed.Seconds() * float64(runtime.NumCPU()))
		after := read(pauses)
		cycles := after.cycles - before.cycles
		pause := (after.pauseSeconds - before.pauseSeconds) * 1e9
		perOp := math.Max(float64(operations), 1)
		// With the collector off the goal is unbounded (MaxInt64): no goal, written as 0.
		goal := after.goal
		if goal > math.MaxInt64/2 {
			goal = 0
		}
		fmt.Printf("%d,%s,%d,%s,%d,%d,%.3f,%d,%.3f,%.0f,%.6f,%s,%.1f,%.2f,%t,%.6f,%d\n",
			procs, ratio, t, runtime.Version(), elapsed.Nanoseconds(), operations,
			float64(operations)/elapsed.Seconds(), cycles, float64(cycles)/elapsed.Seconds(),
			pause, pause/float64(elapsed.Nanoseconds()), pauses,
			float64(after.bytes-before.bytes)/perOp, float64(after.objects-before.objects)/perOp,
			verified && operations > 0, cpuShare, goal)
	}
}
