package cluster

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/suggest"
)

// Knob describes one knob of a method: an exported field of its struct,
// with the one-line description of its `doc` tag and, for a number, the
// valid values of its `range` tag. Run rejects a method whose numeric knob
// lies outside its range before the method runs.
//
// A range is a list of alternatives separated by "|": a single value
// ("0", usually "the documented default") or an interval with closed
// ("[", "]") or open ("(", ")") ends, whose bounds may be "inf" or "-inf".
// "0 | [1e-9, 1e9]" accepts 0 and every value from 1e-9 to 1e9; NaN and
// infinities lie in no range (an infinite bound is always open).
type Knob struct {
	Name  string `json:"name"`            // field name, as tether cluster -set Name=value takes it
	Doc   string `json:"doc"`             // one-line description
	Range string `json:"range,omitempty"` // valid values of a numeric knob; "" for others
}

// Knobs returns the knobs of m in declaration order, fields of embedded
// structs included. m must be a struct or a pointer to one; other methods,
// and a nil m, have no knobs.
func Knobs(m Method) []Knob {
	if m == nil {
		return nil
	}
	t := reflect.TypeOf(m)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []Knob
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		out = append(out, Knob{Name: f.Name, Doc: f.Tag.Get("doc"), Range: f.Tag.Get("range")})
	}
	return out
}

// ErrKnob is wrapped, besides ErrInvalid, by the errors that refuse the
// value of a method's knob: a value outside its range tag (Knob; Run
// checks them before the method runs), or one that the problem or the
// method's other knobs rule out (ccsr's and fgpwc's M ≥ n, opplc's and
// plmeans' α ≤ −θ, cpca's and clpp's Dim above the number of features,
// auto's Folds = 1). A command line can tell a value its user gave (tether
// cluster -set) from bad data by it.
var ErrKnob = errors.New("cluster: knob out of range")

// knobInvalid returns the error "ErrInvalid's text: the formatted
// message", wrapping ErrInvalid and ErrKnob.
func knobInvalid(format string, args ...any) error {
	return knobError{fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)}
}

// knobError is an error of knobInvalid: its text and chain are those of
// the wrapped error, and it is ErrKnob too.
type knobError struct{ error }

func (e knobError) Unwrap() error        { return e.error }
func (e knobError) Is(target error) bool { return target == ErrKnob }

// checkKnobs returns an error wrapping ErrInvalid and ErrKnob for the
// first numeric knob of m whose value lies outside its range tag, or
// whose range tag cannot be parsed (a bug of the method, reported rather
// than ignored).
func checkKnobs(m Method) error {
	if err := nilMethod(m); err != nil {
		return err
	}
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range reflect.VisibleFields(v.Type()) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		if msg := knobRange(m.Name(), f, v.FieldByIndex(f.Index)); msg != "" {
			return knobInvalid("%s", msg)
		}
	}
	return nil
}

// knobRange says what is wrong when the numeric knob f of method name, of
// value fv, lies outside the range of its tag (see Knob) or the tag is
// malformed; "" when nothing is, for other kinds of fields and for
// enumerations (checked by their methods). Cost O(len(range tag)).
func knobRange(name string, f reflect.StructField, fv reflect.Value) string {
	var x float64
	switch fv.Kind() {
	case reflect.Float32, reflect.Float64:
		x = fv.Float()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if fv.Type().Implements(reflect.TypeFor[fmt.Stringer]()) {
			return "" // an enumeration: checked by its method
		}
		x = float64(fv.Int())
	default:
		return ""
	}
	r := f.Tag.Get("range")
	ok, err := inRange(x, r)
	if err != nil {
		return fmt.Sprintf("%s: knob %s: %v", name, f.Name, err)
	}
	if !ok {
		// The field's own value: an integer knob as an integer
		// (MaxIter = 99999999, not 9.9999999e+07).
		return fmt.Sprintf("%s: %s = %v is outside its range %s", name, f.Name, fv.Interface(), r)
	}
	return ""
}

// nilMethod returns an error wrapping ErrInvalid when m is nil or a nil
// pointer (a *FGPWC declared and never assigned), whose Name and Uses
// would panic, and nil otherwise.
func nilMethod(m Method) error {
	if m == nil {
		return fmt.Errorf("%w: no method", ErrInvalid)
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Errorf("%w: nil method %T", ErrInvalid, m)
	}
	return nil
}

// inRange reports whether x lies in the range r (see Knob).
func inRange(x float64, r string) (bool, error) {
	if strings.TrimSpace(r) == "" {
		return false, fmt.Errorf("no range declared")
	}
	in := false
	for _, alt := range strings.Split(r, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "" {
			return false, fmt.Errorf("empty alternative in range %q", r)
		}
		if c := alt[0]; c != '[' && c != '(' {
			v, err := strconv.ParseFloat(alt, 64)
			if err != nil {
				return false, fmt.Errorf("bad value %q in range %q", alt, r)
			}
			in = in || x == v
			continue
		}
		last := alt[len(alt)-1]
		lo, hi, ok := strings.Cut(alt[1:len(alt)-1], ",")
		if !ok || (last != ']' && last != ')') {
			return false, fmt.Errorf("bad interval %q in range %q", alt, r)
		}
		a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if err1 != nil || err2 != nil || !(a <= b) {
			return false, fmt.Errorf("bad interval %q in range %q", alt, r)
		}
		above := x > a || (alt[0] == '[' && x == a && !math.IsInf(a, 0))
		below := x < b || (last == ']' && x == b && !math.IsInf(b, 0))
		in = in || (above && below)
	}
	return in, nil
}

// SetKnobs returns a copy of method m with the knobs named in settings
// ("Name=value", names case-insensitive, fields of embedded structs
// included) set; m itself is not modified. Numbers, booleans, strings and
// types with Set(string) or UnmarshalText are supported. The error names
// the setting and, for an unknown name, lists m's knobs, or the knob's
// range when the value is outside it (Knob; Run checks the knobs not set
// here); a nil m (or nil pointer) is an error too. All wrap ErrInvalid.
// Cost: O(len(settings) · fields).
func SetKnobs(m Method, settings []string) (Method, error) {
	if err := nilMethod(m); err != nil {
		return nil, err
	}
	if len(settings) == 0 {
		return m, nil
	}
	v := reflect.ValueOf(m)
	isPtr := v.Kind() == reflect.Pointer
	if isPtr {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: method %s has no settable knobs", ErrInvalid, m.Name())
	}
	cp := reflect.New(v.Type())
	cp.Elem().Set(v)
	for _, o := range settings {
		name, val, ok := strings.Cut(o, "=")
		if !ok {
			return nil, fmt.Errorf("%w: knob setting %q: want Name=value", ErrInvalid, o)
		}
		f, sf, ok := findKnob(cp.Elem(), name)
		if !ok {
			var names []string
			for _, k := range Knobs(m) {
				names = append(names, k.Name)
			}
			list := "knobs: " + strings.Join(names, ", ")
			if len(names) == 0 {
				list = "it has no knobs" // not "(knobs: )"
			}
			return nil, fmt.Errorf("%w: knob setting %q: method %s has no knob %q%s (%s)", ErrInvalid, o, m.Name(), name, suggest.Hint(name, names), list)
		}
		if err := setKnob(f, val); err != nil {
			return nil, fmt.Errorf("%w: knob setting %q: %v", ErrInvalid, o, err)
		}
		if msg := knobRange(m.Name(), sf, f); msg != "" {
			return nil, fmt.Errorf("%w: knob setting %q: %s", ErrInvalid, o, msg)
		}
	}
	out := cp
	if !isPtr {
		out = cp.Elem()
	}
	meth, ok := out.Interface().(Method)
	if !ok {
		return nil, fmt.Errorf("%w: method %s: copy is not a method", ErrInvalid, m.Name())
	}
	return meth, nil
}

// findKnob returns the exported field of v named name (any case), and
// its description, searching embedded structs.
func findKnob(v reflect.Value, name string) (reflect.Value, reflect.StructField, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.IsExported() && strings.EqualFold(sf.Name, name) {
			return v.Field(i), sf, true
		}
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if f, fsf, ok := findKnob(v.Field(i), name); ok {
				return f, fsf, true
			}
		}
	}
	return reflect.Value{}, reflect.StructField{}, false
}

// floatInteger parses s as a float64 (strconv.ParseFloat, so "1e7" and
// "2.5e3") and returns its value as an int64 and true when it is an exact
// integer; false when it is not (1.5); an error wrapping strconv.ErrRange
// when it lies outside the int64 range (1e19, 1e400), or the parse error.
func floatInteger(s string) (int64, bool, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) {
		return 0, false, nil
	}
	if v < -0x1p63 || v >= 0x1p63 {
		return 0, false, fmt.Errorf("%q: %w", s, strconv.ErrRange)
	}
	return int64(v), true, nil
}

// setKnob parses s into the field f: an integer knob takes an integer
// written as such or in float notation when it is exact (1e7, 2.5e3).

func setKnob(f reflect.Value, s string) error {
	if f.CanAddr() {
		switch p := f.Addr().Interface().(type) {
		case interface{ Set(string) error }:
			return p.Set(s)
		case encoding.TextUnmarshaler:
			return p.UnmarshalText([]byte(s))
		}
	}
	switch f.Kind() {
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%q is out of range", s)
		} else if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		f.SetFloat(x)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			// An integer in float notation, as Knobs prints the ranges
			// ("[0, 1e7]"): 1e7 and 2.5e3, not 1.5.
			var ok bool
			if x, ok, err = floatInteger(s); !ok && err == nil {
				return fmt.Errorf("%q is not an integer", s)
			}
		}
		if errors.Is(err, strconv.ErrRange) || (err == nil && f.OverflowInt(x)) {
			return fmt.Errorf("%q is out of range", s)
		} else if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		f.SetInt(x)
	case reflect.Bool:
		x, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not a boolean", s)
		}
		f.SetBool(x)
	case reflect.String:
		f.SetString(s)
	default:
		return fmt.Errorf("knob of type %s cannot be set from text", f.Type())
	}
	return nil
}
