// Package fakegcs starts github.com/fsouza/fake-gcs-server in process for
// tests, and points Beam's gs:// file system at it: Beam's gcs package
// makes its client with cloud.google.com/go/storage's NewClient (through
// gcsx.NewClient), which, when STORAGE_EMULATOR_HOST is set, sends every
// request to that host without looking up credentials. The tests of
// tetherbeam and tether-beam use it; nothing else imports it.
package fakegcs

import (
	"net"
	"sort"
	"strings"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

// Server is a fake GCS server holding buckets in memory.
type Server struct {
	*fakestorage.Server
}

// Start starts a fake GCS server on a loopback HTTP port with an empty
// bucket (Put fills it), sets STORAGE_EMULATOR_HOST
// to its URL for the rest of t (t.Setenv: t and its parents cannot be
// parallel) and stops it when t ends. Every gs:// file system opened after
// it (filesystem.New) talks to it. It skips t, with the reason, when no
// loopback port can be opened here; any other failure fails t. Cost: one
// listener; the objects are held in memory.
func Start(t testing.TB, bucket string) *Server {
	t.Helper()
	// httptest, which the server listens with, panics when it cannot
	// listen: try first, and skip where loopback is not available.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("fake GCS server: cannot listen on loopback: %v", err)
	}
	l.Close()
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		Scheme: "http",
		Host:   "127.0.0.1",
		// The client reads objects with the XML API, GET /BUCKET/OBJECT
		// on the emulator's host: the server takes that for a download
		// only from its public host (else "127.0.0.1" would be the
		// bucket).
		PublicHost: "127.0.0.1",
	})
	if err != nil {
		t.Fatalf("fake GCS server: %v", err)
	}
	t.Cleanup(srv.Stop)
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: bucket})
	t.Setenv("STORAGE_EMULATOR_HOST", srv.URL())
	return &Server{srv}
}

// Objects returns the names of the objects of bucket whose names start
// with prefix, as the server holds them (not through Beam), sorted.
func (s *Server) Objects(t testing.TB, bucket, prefix string) []string {
	t.Helper()
	// MaxResults 0: one page with every object.
	resp, err := s.ListObjectsWithOptionsPaginated(bucket, fakestorage.ListOptions{Prefix: prefix})
	if err != nil {
		t.Fatalf("listing gs://%s/%s on the fake server: %v", bucket, prefix, err)
	}
	var names []string
	for _, a := range resp.Objects {
		if strings.HasPrefix(a.Name, prefix) {
			names = append(names, a.Name)
		}
	}
	sort.Strings(names)
	return names
}

// Content returns the content of an object as the server holds it, or
// an error (fakestorage's) when it has none of that name.
func (s *Server) Content(bucket, name string) ([]byte, error) {
	o, err := s.GetObject(bucket, name)
	if err != nil {
		return nil, err
	}
	return o.Content, nil
}

// Put puts an object with content b in bucket, on the server directly
// (not through Beam), replacing one of the same name.
func (s *Server) Put(bucket, name string, b []byte) {
	s.CreateObject(fakestorage.Object{
		ObjectAttrs: fakestorage.ObjectAttrs{BucketName: bucket, Name: name},
		Content:     b,
	})
}
