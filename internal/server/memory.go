package server

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/wording"
)

// This file holds the server's bound on the memory of one request's
// computation (Config.MaxRequestMemory): the estimate of what a method
// asks for, checked before it runs, and the clamp of the methods' own
// memory limits.

// minRequestMemory is the least default of Config.MaxRequestMemory: a
// server with few nodes per session still takes the dense eigensolves
// of small problems (n ≤ about 2000).
const minRequestMemory = 256 << 20

// DefaultMaxRequestMemory returns Config.MaxRequestMemory's default for
// sessions of at most maxNodes nodes: the estimate (workBytes) of the
// largest computation the other per-request limits let a request ask for,
// FGPWC's basis of maxFGPWCM = 200 vectors (the limit on its M) on
// maxNodes nodes, and at least 256 MiB: 1.3 GB (1.23 GiB) for the default
// 200 000 nodes.
func DefaultMaxRequestMemory(maxNodes int) int64 {
	return max(workBytes(maxNodes, maxFGPWCM), minRequestMemory)
}

// workBytes estimates the memory of a spectral computation of e vectors on
// n nodes, the eigensolver's and the method's: dense, eigen.DenseBytes(n,
// true) (eight n×n matrices), when the eigensolvers solve it densely (n
// at most cluster.DenseLimit, or e so large a share of n, above about
// n/6, that Lanczos, BlockLanczos or LOBPCG fall back to the dense
// solver); otherwise 8·n·(4e + 24) bytes: the Lanczos basis of at most
// 3e + 22 vectors (its NCV = max(2e + 1, e + 20), the e wanted and two
// more) and one n×e copy (the embedding k-means reads). The methods'
// k-means and constraint work on n×e blocks is of the same order. It
// saturates at math.MaxInt64. Cost O(1).
func workBytes(n, e int) int64 {
	if n <= cluster.DenseLimit || n <= 6*e+8 {
		return eigen.DenseBytes(n, true)
	}
	b := 8 * float64(n) * float64(4*e+24)
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// intKnob returns the value of m's integer knob name (an exported int or
// int64 field of its struct) and whether m has one.
func intKnob(m cluster.Method, name string) (int64, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0, false
	}
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	return f.Int(), true
}

// vectors returns the number of vectors m computes for k clusters on n
// nodes, as far as its knobs say it (the largest of k, FGPWC's and CCSR's
// M, FGPWC's automatic m up to MaxM, SSC-KA's Rank, and with k = 0 the
// cap MaxK of an estimated k), and what sets it, for messages ("k = 50",
// "knob M = 300"): the e of workBytes.
func vectors(m cluster.Method, k, n int) (int, string) {
	e, why := k, fmt.Sprintf("k = %d", k)
	raise := func(v int64, what string) {
		if v > int64(e) {
			e, why = int(min(v, int64(n))), what
		}
	}
	if v, ok := intKnob(m, "M"); ok {
		raise(v, fmt.Sprintf("%s's M = %d", m.Name(), v))
		if _, isFGPWC := fgpwcOf(m); isFGPWC && v == 0 {
			mm, _ := intKnob(m, "MaxM")
			if mm == 0 {
				mm = cluster.FGPWCDefaultMaxM
			}
			raise(mm, fmt.Sprintf("fgpwc's automatic m, up to MaxM = %d", mm))
		}
	}
	if v, ok := intKnob(m, "Rank"); ok {
		what := fmt.Sprintf("%s's Rank = %d", m.Name(), v)
		if v == 0 {
			v = int64(max(2*k, 10))
			what = fmt.Sprintf("k = %d (%s's Rank is max(2k, 10) = %d)", k, m.Name(), min(v, int64(n)))
		}
		raise(v, what)
	}
	if v, ok := intKnob(m, "MaxK"); ok && k == 0 {
		if v == 0 {
			v = 100
		}
		raise(v, fmt.Sprintf("%s's cap MaxK = %d on the estimated k", m.Name(), v))
	}
	return e, why
}

// checkWork refuses, as bad input, a request whose method m, k and knobs
// ask for more memory on n nodes than Config.MaxRequestMemory allows
// (workBytes of vectors), naming what asks for it and the largest number
// of vectors that fits, before anything is computed: a dense eigensolve
// for k near n allocated 8n² bytes a matrix, and exhausted the memory,
// which no recover can catch (review 92: k = 29999 on 30 000 nodes asked
// for 7.2 GB and killed the server). Cost O(log n).
func (s *Server) checkWork(m cluster.Method, k, n int) error {
	e, why := vectors(m, k, n)
	need, limit := workBytes(n, e), s.cfg.MaxRequestMemory
	if need <= limit {
		return nil
	}
	fits := sort.Search(n+1, func(e int) bool { return workBytes(n, e) > limit }) - 1
	how := fmt.Sprintf("%d vectors of n values and their working copies", e)
	switch {
	case n <= cluster.DenseLimit:
		how = "n×n matrices: the eigensolvers work densely on small graphs"
	case n <= 6*e+8:
		how = fmt.Sprintf("n×n matrices: beyond about n/6 vectors (%d here) the eigensolvers work densely", e)
	}
	advice := fmt.Sprintf("ask for at most %d", fits)
	if fits < 1 {
		advice = "load smaller data"
	}
	return fmt.Errorf("%w: %s on n = %d nodes: %s needs about %s (%s), more than this server's memory limit of %s per request: %s, or restart tether serve with a larger -max-request-mib", errBadInput, why, n, m.Name(), wording.Bytes(need), how, wording.Bytes(limit), advice)
}

// clampMemoryKnobs returns m with its memory-limit knob MaxBytes (cscap:
// the bound on its dense n×n work, 2 GiB when 0) set to the server's
// Config.MaxRequestMemory when the request leaves it 0 and the method's
// default is larger, and refuses, as bad input, a MaxBytes above it: a
// request could otherwise lift the method's own guard (review 92). The
// other knobs that size the work (FGPWC's M and MaxM, CCSR's M, SSC-KA's
// Rank, MaxK) are counted by checkWork.
func (s *Server) clampMemoryKnobs(m cluster.Method) (cluster.Method, error) {
	v, ok := intKnob(m, "MaxBytes")
	limit := s.cfg.MaxRequestMemory
	switch {
	case !ok:
		return m, nil
	case v > limit:
		return nil, fmt.Errorf("%w: %s's MaxBytes = %d is above this server's memory limit of %d bytes (%s) per request", errBadInput, m.Name(), v, limit, wording.Bytes(limit))
	case v == 0 && limit < cscapDefaultMaxBytes:
		out, err := cluster.SetKnobs(m, []string{"MaxBytes=" + strconv.FormatInt(limit, 10)})
		if err != nil {
			return nil, fmt.Errorf("setting %s's MaxBytes to the server's limit: %w", m.Name(), err)
		}
		return out, nil
	}
	return m, nil
}

// cscapDefaultMaxBytes is the default of cluster.CSCAP.MaxBytes (its
// knob's doc: "0: 2 GiB").
const cscapDefaultMaxBytes = 2 << 30

// settings returns the cluster.Settings of a request's computation with
// the given seed: the eigensolvers refuse a dense solve beyond
// Config.MaxRequestMemory (eigen.Settings.MaxDenseBytes), the library's
// own guard behind checkWork; nothing else differs from the defaults.
func (s *Server) settings(seed uint64) *cluster.Settings {
	return &cluster.Settings{Seed: seed, EigenSettings: &eigen.Settings{MaxDenseBytes: s.cfg.MaxRequestMemory}}
}
