// Package server is tether serve: a local HTTP server with an embedded web
// page and a JSON API under /api/ where a person loads data, adds
// must-links and cannot-links, sees the partition change at once, and asks
// which pairs to label next (package active).
//
// Files, one job each: server.go (configuration, lifecycle, routes),
// security.go (Host/Origin checks against DNS rebinding, size limits,
// panic recovery), session.go (isolated sessions with bounded size and idle
// eviction), data.go (uploads, generated data, files under the -data root,
// the 2-D view), recluster.go (clustering with FGPWC's basis reused and
// warm starts), handlers.go (the API), static/ (the page). The API is
// documented in docs/api.md.
package server
