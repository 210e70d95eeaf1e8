package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"github.com/tether-sc/tether/internal/server"
)

// runServe is tether serve: the web page and JSON API of internal/server
// on a local address, until the context is cancelled (Ctrl-C).
func runServe(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("serve", serveUsage)
	var in inputOptions
	in.bind(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address` host:port (port 0: any free port); a non-loopback host exposes the server to the network and needs -public")
	public := fs.Bool("public", false, "allow an -addr that is not a loopback address")
	dataRoot := fs.String("data", "", "`folder` whose files the API may load by relative path (none by default; nothing outside it is readable)")
	seed := fs.Uint64("seed", 1, "seed of the generator of -gen, and of the k-NN search of -input (an approximate search is seeded)")
	maxNodes := new(int)
	*maxNodes = 200000
	fs.Var(intIn(maxNodes, 1, 1<<31-1), "max-nodes-session", "largest `number` of nodes of a session's data")
	maxRequestMiB := new(int)
	fs.Var(intIn(maxRequestMiB, 0, 1<<30), "max-request-mib", "largest memory in `MiB` one clustering may ask for, as the server estimates it from n, k, the knobs, the constraints and the features before computing (0: what FGPWC's largest basis, M = 200, on -max-nodes-session nodes needs, at least 256; 1710 for 200 000 nodes); per request: as many requests as CPUs compute at once (docs/api.md says what is counted)")
	computeTimeout := fs.Duration("compute-timeout", server.DefaultComputeTimeout, "longest `duration` one request may spend, once its body is read, waiting for its session's earlier requests, waiting for a free worker and computing (loading, clustering, suggesting), all together; beyond it the work stops (or never starts) and the request gets 503")
	var origins multiFlag
	for _, name := range serveGraphFlags {
		if f := fs.Lookup(name); f != nil {
			f.Usage += "; serve: for the feature rows of every session, with or without -input (see above)"
		}
	}
	if f := fs.Lookup("bipartite"); f != nil {
		// Bound with the other input flags, refused below: its help is
		// tether cluster's, which names -method, a flag serve lacks.
		f.Usage = "document-by-term `file`: not read by tether serve (co-cluster it with tether cluster -bipartite)"
	}
	fs.Var(&origins, "allow-origin", "a further `origin` (https://host[:port]) whose pages may call the API, e.g. a reverse proxy's (repeatable; the server's own page always may)")
	quiet := fs.Bool("quiet", false, "no progress messages and no notes on the initial data (warnings are printed)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve", "unexpected argument %q", fs.Arg(0))
	}
	if *computeTimeout <= 0 {
		return usagef("serve", "-compute-timeout %v: want a positive duration such as 2m or 30s", *computeTimeout)
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("serve", "-addr %q: %v", *addr, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		// A port above 65535 failed in net.Listen, exit status 1.
		return usagef("serve", "-addr %s: port %q: want a number from 0 to 65535 (0: any free port)", *addr, port)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		if !*public {
			return usagef("serve", "-addr %s is not a loopback address: anyone who can reach it could use the server; add -public to mean it", *addr)
		}
		fmt.Fprintf(m.Stderr, "tether serve: warning: listening on %s, reachable from other machines; the server has no authentication\n", *addr)
	}
	if *dataRoot != "" {
		if fi, err := os.Stat(*dataRoot); err != nil {
			return usagef("serve", "-data: %v", err)
		} else if !fi.IsDir() {
			return usagef("serve", "-data %s: not a folder", *dataRoot)
		}
	}
	var allow []string
	for _, o := range origins {
		a, err := server.ParseOrigin(o)
		if err != nil {
			return usagef("serve", "-allow-origin: %v", err)
		}
		allow = append(allow, a)
	}
	cfg := server.Config{DataRoot: *dataRoot, Spec: in.spec, MaxNodes: *maxNodes, ComputeTimeout: *computeTimeout, AllowOrigins: allow,
		Regularize: in.regularize, Disconnected: in.disconnected, MaxRequestMemory: int64(*maxRequestMiB) << 20}
	if in.input != "" || in.graphFile != "" || in.gen != "" || in.bip.file != "" {
		if in.bip.file != "" {
			return usagef("serve", "-bipartite: tether serve does not load document-by-term matrices")
		}
		in.seed, in.m, in.quiet = *seed, m, *quiet
		l, err := in.load(ctx, newRecorder(m.Stderr, *quiet), 0)
		if err != nil {
			return err
		}
		printMessages(m.Stderr, "serve", l.Warnings, l.Notes, *quiet)
		cfg.Initial = l.Data
		cfg.InitialSource = server.Source{Initial: true}
	} else if err := in.checkApplies(); err != nil {
		// Without data, the flags of the data (-scale, -truth, -n, …)
		// would do nothing: refused, as with data of another kind.
		return err
	}
	lis, err := net.Listen("tcp", *addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		// Another server (another tether serve, say) has the port.
		return fmt.Errorf("%w: stop the program that uses %s, or give another port with -addr (-addr 127.0.0.1:0 takes any free one)", err, *addr)
	}
	if err != nil {
		return fmt.Errorf("%w (-addr sets the address)", err)
	}
	srv := server.New(cfg, lis.Addr().String())
	fmt.Fprintf(m.Stdout, "http://%s/\n", lis.Addr())
	fmt.Fprintln(m.Stderr, "tether serve: press Ctrl-C to stop")
	m.endsBySignal = true // a clean stop on Ctrl-C exits 0
	return srv.Serve(ctx, lis)
}

// serveGraphFlags are the flags of the graph built from feature rows
// (bindGraphSpec), which tether serve passes to the server as the graph
// of every session's feature rows (server.Config.Spec): those of -input
// or -gen, and those a session loads or generates, with or without
// -input; an API request has no graph options.
var serveGraphFlags = []string{"graph", "knn", "eps", "affinity", "sigma", "max-full", "knn-search"}

const serveUsage = `serve [-addr 127.0.0.1:8080] [-data DIR] [-input FILE | -graph-file FILE | -gen NAME] [flags]

Starts the interactive page and the JSON API (docs/api.md) on -addr and
prints its URL on standard output. Open it in a browser: load or generate
data, click two points to add a must-link or cannot-link, and the page
re-clusters at once (FGPWC reuses its spectral basis). With -input,
-graph-file or -gen every new session starts with that data, read with the
options of tether cluster (the flags of one kind of input given with
another, or without data, are usage errors: -label, -scale, -truth …);
the warnings and notes of reading it, printed on standard error (the notes
not with -quiet), are also in every new session's reply, and the page
shows them. -normalize-weights
and -self-loops change the weights of that data only: data a session loads
take the options normalize_weights and self_loops of the request (the
page's "normalize weights" box; docs/api.md). The graph flags (-graph,
-knn, -eps, -affinity, -sigma, -max-full, -knn-search), with or without
-input, build the graph of every session's feature rows: those of -input
or -gen and those a session loads or generates (a request has no graph
options); by default tether cluster's, the symmetric 10-NN graph with
RBF weights and local σ. -regularize
and -disconnected are the defaults of every session's clustering, as in tether cluster; a
request may give its own (docs/api.md). A request's waits for its session's earlier
requests and a free worker and its computation together stop after
-compute-timeout (2m by default), counted once its body is read, with an
error naming the limit. Ctrl-C (or SIGTERM) stops the server gracefully,
with exit status 0 (130 when it stops while still reading -input or
-graph-file); a second one quits at once.`
