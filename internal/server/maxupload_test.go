package server

import (
	"net/http"
	"testing"
)

// TestCreateGivesMaxUpload checks that the reply of session creation
// gives the server's upload limit, which the page checks a file against
// before sending it: the configured one, or 64 MiB by default.
func TestCreateGivesMaxUpload(t *testing.T) {
	for _, c := range []struct {
		cfg  int64
		want int64
	}{{0, 64 << 20}, {1234, 1234}} {
		s := newTest(t, Config{MaxUpload: c.cfg})
		var reply struct {
			ID        string `json:"id"`
			MaxUpload int64  `json:"max_upload"`
		}
		callJSON(t, s, "POST", "/api/sessions", nil, &reply, http.StatusCreated)
		if reply.ID == "" || reply.MaxUpload != c.want {
			t.Errorf("MaxUpload %d: reply id %q, max_upload %d, want %d", c.cfg, reply.ID, reply.MaxUpload, c.want)
		}
	}
}
