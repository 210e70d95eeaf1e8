package server

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/internal/testgraph"
)

// TestSettingsBounds: a request's computation carries the server's
// memory limit as both library guards, the eigensolvers'
// (MaxDenseBytes) and the methods' n×K blocks (MaxBlockBytes), so that
// labelprop over many classes, whose 48·n·K bytes checkWork counts as
// 32·n·K, is refused by the method under the limit rather than
// allocated: 100 classes on 200 nodes (960 000 bytes) under 512 KiB.
func TestSettingsBounds(t *testing.T) {
	const limit = 512 << 10
	s := newTest(t, Config{MaxRequestMemory: limit})
	set := s.settings(7)
	if set.Seed != 7 || set.EigenSettings == nil || set.EigenSettings.MaxDenseBytes != limit || set.MaxBlockBytes != limit {
		t.Fatalf("settings(7) = %+v (eigen %+v): want seed 7 and both bounds %d", set, set.EigenSettings, limit)
	}
	const n = 200
	g, labels := testgraph.LabelledCirculant(t, n, 2, 2)
	_, err := cluster.Run(context.Background(), cluster.LabelProp{}, &cluster.Problem{Graph: g, K: n / 2, Labels: labels}, set)
	if !errors.Is(err, cluster.ErrInvalid) || !strings.Contains(err.Error(), "960000 bytes") {
		t.Errorf("labelprop, 100 classes on 200 nodes under %d bytes: %v; want ErrInvalid naming 960000 bytes", limit, err)
	}
}
