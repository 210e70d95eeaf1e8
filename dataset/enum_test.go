package dataset

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func TestEnumRoundTrip(t *testing.T) {
	type textEnum interface {
		fmt.Stringer
		encoding.TextMarshaler
	}
	for _, c := range []struct {
		values []textEnum
		parse  func(string) (textEnum, error)
		bad    string // the error for "x"
	}{
		{[]textEnum{ScaleNone, ScaleMinMax, ScaleZScore}, func(s string) (textEnum, error) {
			var v Scale
			err := v.UnmarshalText([]byte(s))
			return v, err
		}, `dataset: invalid input: unknown scaling "x" (want none, minmax or zscore)`},
		{[]textEnum{MissingReject, MissingImpute, MissingDrop}, func(s string) (textEnum, error) {
			var v MissingPolicy
			err := v.UnmarshalText([]byte(s))
			return v, err
		}, `dataset: invalid input: unknown missing-value policy "x" (want reject, impute or drop)`},
		{[]textEnum{HeaderAuto, HeaderYes, HeaderNo}, func(s string) (textEnum, error) {
			var v HeaderMode
			err := v.UnmarshalText([]byte(s))
			return v, err
		}, `dataset: invalid input: unknown header mode "x" (want auto, yes or no)`},
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
		_, err := c.parse("x")
		if !errors.Is(err, ErrInvalid) || err.Error() != c.bad {
			t.Errorf("unknown name: %v, want %s", err, c.bad)
		}
	}
}

func TestOptionsJSON(t *testing.T) {
	// With MarshalText the options encode their enums by name.
	in := Options{Scale: ScaleZScore, Missing: MissingDrop, Header: HeaderNo}
	b, err := json.Marshal(struct {
		Scale   Scale
		Missing MissingPolicy
		Header  HeaderMode
	}{in.Scale, in.Missing, in.Header})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Scale":"zscore","Missing":"drop","Header":"no"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var out struct {
		Scale   Scale
		Missing MissingPolicy
		Header  HeaderMode
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Scale != in.Scale || out.Missing != in.Missing || out.Header != in.Header {
		t.Errorf("read back %+v, %v", out, err)
	}
}
