package textline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tether-sc/tether/internal/testctx"
)

// lineCases are inputs with the lines the rule cuts them into (moved from
// package dataset's TestReadAllLineEndings, with the cases that matter to
// Split's buffer boundaries added).
var lineCases = []struct {
	name, in string
	want     []string
}{
	{"LF", "a\nb\n", []string{"a", "b"}},
	{"CRLF", "a\r\nb\r\n", []string{"a", "b"}},
	{"bare CR (classic Mac)", "a\rb\r", []string{"a", "b"}},
	{"mixed", "a\rb\r\nc\nd", []string{"a", "b", "c", "d"}},
	{"blank lines kept", "a\r\rb", []string{"a", "", "b"}},
	{"CR LF CR", "a\r\n\rb", []string{"a", "", "b"}},
	{"LF CR is two endings", "a\n\rb", []string{"a", "", "b"}},
	{"no final ending", "a\nb", []string{"a", "b"}},
	{"only endings", "\n\r\n\r", []string{"", "", ""}},
	{"empty", "", nil},
}

func TestLines(t *testing.T) {
	for _, tc := range append(lineCases[:len(lineCases):len(lineCases)],
		struct {
			name, in string
			want     []string
		}{"BOM", "\ufeffa\rb", []string{"a", "b"}}) {
		t.Run(tc.name, func(t *testing.T) {
			got, long, _, err := Lines(context.Background(), tc.in, 0)
			if err != nil {
				t.Fatal(err)
			}
			if long != 0 || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Fatalf("lines %q (long line %d), want %q", got, long, tc.want)
			}
		})
	}
}

// Split, fed one byte at a time (a "\r" then ends the buffer, and whether
// a "\n" follows is not known yet) or all at once, cuts as Lines does.
func TestSplit(t *testing.T) {
	for _, tc := range lineCases {
		for _, feed := range []struct {
			name string
			r    func(string) io.Reader
		}{
			{"whole", func(s string) io.Reader { return strings.NewReader(s) }},
			{"byte by byte", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }},
		} {
			t.Run(tc.name+"/"+feed.name, func(t *testing.T) {
				sc := bufio.NewScanner(feed.r(tc.in))
				sc.Split(Split)
				var got []string
				for sc.Scan() {
					got = append(got, sc.Text())
				}
				if err := sc.Err(); err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
					t.Fatalf("lines %q, want %q", got, tc.want)
				}
			})
		}
	}
}

func TestLinesTooLong(t *testing.T) {
	for _, tc := range []struct {
		name, in        string
		max             int
		long, length    int
		wantLinesNonNil bool
	}{
		{"at the limit", "abc\nde", 3, 0, 0, true},
		{"second line over", "abc\nabcd\n", 3, 2, 4, false},
		{"bare CR line over", "a\rb\rabcdef", 5, 3, 6, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, long, length, err := Lines(context.Background(), tc.in, tc.max)
			if err != nil {
				t.Fatal(err)
			}
			if long != tc.long || length != tc.length || (lines != nil) != tc.wantLinesNonNil {
				t.Errorf("Lines = %q, %d, %d; want long line %d of %d bytes", lines, long, length, tc.long, tc.length)
			}
		})
	}
}

// Lines checks its context every PollLines lines: a context cancelled
// after its n-th check stops the cut there, with ctx's error and no
// lines.
func TestLinesCancel(t *testing.T) {
	in := strings.Repeat("a b\n", 3*PollLines+5)
	for checks := range 4 {
		lines, _, _, err := Lines(testctx.CancelAfter(checks), in, 0)
		if !errors.Is(err, context.Canceled) || lines != nil {
			t.Errorf("after %d checks: %d lines, err = %v, want none and context.Canceled", checks, len(lines), err)
		}
	}
	if lines, _, _, err := Lines(testctx.CancelAfter(4), in, 0); err != nil || len(lines) != 3*PollLines+5 {
		t.Errorf("after 4 checks: %d lines, err = %v, want all and nil", len(lines), err)
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 1}, {"a", 1}, {"a\n", 2}, {"a\r\n", 2}, {"a\r", 2}, {"a\r\rb\n\r\n", 5},
	} {
		if got := Number([]byte(tc.in)); got != tc.want {
			t.Errorf("Number(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// The Reader stops at a NUL byte (passing the bytes before it), at a run
// longer than Max, and when its context is cancelled.
func TestReader(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		in   string
		max  int
		ctx  context.Context
		want error
		got  string // bytes passed on
	}{
		{"text", "a,b\r\nc\n", 0, nil, nil, "a,b\r\nc\n"},
		{"NUL", "a\nb\x00c", 0, nil, ErrNUL, "a\nb"},
		{"long run", "ab\nabcdef", 4, nil, ErrLong, "ab\nabcdef"},
		{"run ended in time", "ab\nabcd\nabcd", 4, nil, nil, "ab\nabcd\nabcd"},
		{"cancelled", "a\n", 0, cancelled, context.Canceled, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Reader{R: strings.NewReader(tc.in), Ctx: tc.ctx, Max: tc.max}
			got, err := io.ReadAll(r)
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if !bytes.Equal(got, []byte(tc.got)) {
				t.Errorf("passed %q, want %q", got, tc.got)
			}
		})
	}
}

func TestPoll(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		ctx  context.Context
		line int
		want string // "" for no error
	}{
		{context.Background(), 0, ""},
		{cancelled, 0, "f.csv: reading stopped at line 1: context canceled"},
		{cancelled, 1, ""},
		{cancelled, PollLines - 1, ""},
		{cancelled, PollLines, "f.csv: reading stopped at line 4097: context canceled"},
		{cancelled, 3 * PollLines, "f.csv: reading stopped at line 12289: context canceled"},
	} {
		err := Poll(tc.ctx, "f.csv", tc.line)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, context.Canceled)) {
			t.Errorf("line %d: %v, want %q", tc.line, err, tc.want)
		}
	}
}
