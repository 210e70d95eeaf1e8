package constraint

import (
	"encoding"
	"errors"
	"fmt"
	"testing"
)

// textEnum is the enum convention of internal/enum.
type textEnum interface {
	fmt.Stringer
	encoding.TextMarshaler
}

func TestEnumRoundTrip(t *testing.T) {
	for _, c := range []struct {
		values []textEnum
		parse  func(string) (textEnum, error)
	}{
		{[]textEnum{Reject, DropConflictingCannotLinks, Soft}, func(s string) (textEnum, error) {
			var p Policy
			err := p.UnmarshalText([]byte(s))
			return p, err
		}},
		{[]textEnum{BaseAuto, Base0, Base1}, func(s string) (textEnum, error) {
			var b IndexBase
			err := b.UnmarshalText([]byte(s))
			return b, err
		}},
	} {
		for _, v := range c.values {
			text, err := v.MarshalText()
			if err != nil || string(text) != v.String() {
				t.Errorf("%v: MarshalText = %q, %v", v, text, err)
			}
			got, err := c.parse(v.String())
			if err != nil || got != v {
				t.Errorf("UnmarshalText(%q) = %v, %v; want %v", v.String(), got, err, v)
			}
		}
		if _, err := c.parse("nonsense"); !errors.Is(err, ErrInvalid) {
			t.Errorf("%T: unknown name gave %v, want ErrInvalid", c.values[0], err)
		}
	}
	// The names, and the error listing them.
	var p Policy
	if err := p.UnmarshalText([]byte("x")); err == nil || err.Error() != `constraint: invalid input: unknown policy "x" (want reject, drop-cl or soft)` {
		t.Errorf("error %v", err)
	}
	var b IndexBase
	if err := b.UnmarshalText([]byte("2")); err == nil || err.Error() != `constraint: invalid input: unknown index base "2" (want auto, 0 or 1)` {
		t.Errorf("error %v", err)
	}
	if err := b.UnmarshalText(nil); err != nil || b != BaseAuto {
		t.Errorf("empty base: %v, %v; want auto", b, err)
	}
	if s := Policy(9).String(); s != "Policy(9)" {
		t.Errorf("Policy(9).String() = %q", s)
	}
}
