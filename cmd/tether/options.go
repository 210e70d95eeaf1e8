package main

import (
	"encoding"
	"flag"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// bindGraphSpec binds the fields of s to the flags -graph, -knn, -eps,
// -affinity and -sigma of fs, with s's current values as defaults.
func bindGraphSpec(fs *flag.FlagSet, s *graph.Spec) {
	fs.Var(graphKindValue{textVar(&s.Kind)}, "graph", "graph kind: knn (either is a neighbour), mknn (mutual), full, eps, sknn (the edges of scikit-learn's affinity=\"nearest_neighbors\" graph; that graph itself with -affinity binary only: rbf and cosine weight its edges)"+unnamedDefault(s.Kind))
	fs.Var(intIn(&s.K, 1, 1<<30), "knn", "`neighbours` of the k-NN graphs")
	fs.Var(positiveFloat{&s.Eps}, "eps", "radius of the eps graph, a positive number (required by -graph eps)")
	fs.Var(textVar(&s.Affinity), "affinity", "edge weights: rbf, cosine, binary"+unnamedDefault(s.Affinity))
	fs.Var(intIn(&s.MaxFull, 0, min(1<<31, math.MaxInt)), "max-full", "largest `n` of a full graph, and √ of the stored weights of an eps graph (0: 10000)")
	fs.Var(textVar(&s.Search), "knn-search", fmt.Sprintf("k-NN search: auto (approximate from %d points in more than %d dimensions), exact or approx (NN-descent)", graph.ApproxMinN, graph.ApproxMaxExactDim)+unnamedDefault(s.Search))
	fs.Var(textVar(&s.Sigma), "sigma", fmt.Sprintf("RBF scale: a number, median, meanvar, local or local:K (σ_i = distance to the K-th neighbour; local is local:%d)", graph.DefaultLocalK)+unnamedDefault(s.Sigma))
}

// graphKindValue is the flag.Value of -graph, the kind of graph built
// from features: a value that names a file (a path separator or an
// extension, such as sbm.mtx) is refused with the flag that reads one,
// -graph-file, as eval's -graph FILE led users to write (review 118).
type graphKindValue struct{ flag.Value }

// String returns the kind; the zero graphKindValue, which flag.PrintDefaults
// makes to find the zero value, prints as the zero Kind.
func (v graphKindValue) String() string {
	if v.Value == nil {
		return graph.Kind(0).String()
	}
	return v.Value.String()
}

func (v graphKindValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil && strings.ContainsAny(s, "./\\") {
		return fmt.Errorf("%w: -graph is the kind of graph built from features; read a graph file with -graph-file %s", err, s)
	}
	return err
}

// unnamedDefault returns " (default: V)" when v, the default of a flag,
// prints as the zero value of its type, which flag.PrintDefaults leaves
// unnamed (-graph knn, -sigma local), and "" otherwise (PrintDefaults
// names it).
func unnamedDefault[T fmt.Stringer](v T) string {
	var zero T
	if s := v.String(); s == zero.String() {
		return " (default: " + s + ")"
	}
	return ""
}

// boundedInt is an int flag that refuses values outside [lo, hi] at parse
// time, naming the flag's valid range (a -knn 0 used to be replaced by the
// default without a word).
type boundedInt struct {
	p      *int
	lo, hi int
}

// intIn returns p as a flag.Value accepting lo ≤ value ≤ hi.
func intIn(p *int, lo, hi int) flag.Value { return boundedInt{p, lo, hi} }

func (b boundedInt) String() string {
	if b.p == nil {
		return "0"
	}
	return strconv.Itoa(*b.p)
}

func (b boundedInt) Set(s string) error {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	if v < b.lo || v > b.hi {
		return fmt.Errorf("%d is outside [%d, %d]", v, b.lo, b.hi)
	}
	*b.p = v
	return nil
}

// boundedFloat is a float flag that refuses NaN, infinities and values
// outside [lo, hi] at parse time.
type boundedFloat struct {
	p      *float64
	lo, hi float64
}

// floatIn returns p as a flag.Value accepting finite lo ≤ value ≤ hi.
func floatIn(p *float64, lo, hi float64) flag.Value { return boundedFloat{p, lo, hi} }

// positiveFloat is a float flag that refuses values that are not finite
// and positive at parse time (-eps NaN, -eps 0: exit status 2, not the
// graph builder's error after the data were read).
type positiveFloat struct{ p *float64 }

func (f positiveFloat) String() string { return boundedFloat{p: f.p}.String() }

func (f positiveFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%v: want a positive finite number", v)
	}
	*f.p = v
	return nil
}

// delimFlag is the -delim flag: a delimiter the table reader accepts
// (dataset.CheckDelimiter), refused at parse time otherwise (-delim
// ab was the reader's error, exit status 1).
type delimFlag struct{ p *string }

func (d delimFlag) String() string {
	if d.p == nil {
		return ""
	}
	return *d.p
}

func (d delimFlag) Set(s string) error {
	if err := dataset.CheckDelimiter(s, cliSpelling); err != nil {
		return userError{err}
	}
	*d.p = s
	return nil
}

func (b boundedFloat) String() string {
	if b.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*b.p, 'g', -1, 64)
}

func (b boundedFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	if !(v >= b.lo && v <= b.hi) {
		return fmt.Errorf("%v is outside [%g, %g]", v, b.lo, b.hi)
	}
	*b.p = v
	return nil
}

// textValue makes a *T with String and UnmarshalText (the enum convention
// of internal/enum) a flag.Value. Unlike flag.TextVar, the help then shows
// a default only when it differs from T's zero value, as for the flag
// package's own types.
type textValue[T any, P interface {
	*T
	fmt.Stringer
	encoding.TextUnmarshaler
}] struct{ p P }

// textVar returns p as a flag.Value for FlagSet.Var.
func textVar[T any, P interface {
	*T
	fmt.Stringer
	encoding.TextUnmarshaler
}](p P) flag.Value {
	return textValue[T, P]{p}
}

func (v textValue[T, P]) String() string {
	if v.p == nil { // the zero flag.Value that PrintDefaults compares with
		var zero T
		return P(&zero).String()
	}
	return v.p.String()
}

// Set parses s; its error loses the library prefixes (userError), as the
// flag package prints it after "invalid value … for flag -name: ".
func (v textValue[T, P]) Set(s string) error {
	if err := v.p.UnmarshalText([]byte(s)); err != nil {
		return userError{err}
	}
	return nil
}

// multiFlag collects repeated -set flags.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// knob is an exported field of a method: its name, its type as the command
// line sees it, its value in the registered method (the default) and
// whether -set can change it.
type knob struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Default  string `json:"default"`
	Settable bool   `json:"settable"`
	Range    string `json:"range,omitempty"` // valid values (cluster.Knob.Range)
	Doc      string `json:"doc"`             // one-line description
}

// knobsOf lists the exported fields of m (fields of embedded structs
// included), in declaration order.
func knobsOf(m cluster.Method) []knob {
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	// A copy, so that the fields are addressable for the interface checks.
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	out := appendKnobs(nil, cp)
	meta := map[string]cluster.Knob{}
	for _, k := range cluster.Knobs(m) {
		meta[k.Name] = k
	}
	for i := range out {
		out[i].Range, out[i].Doc = meta[out[i].Name].Range, meta[out[i].Name].Doc
	}
	return out
}

func appendKnobs(out []knob, v reflect.Value) []knob {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		f := v.Field(i)
		switch {
		case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			out = appendKnobs(out, f)
		case sf.IsExported():
			out = append(out, describeKnob(sf.Name, f))
		}
	}
	return out
}

// describeKnob says how the command line sees field f: the named types
// with Set or UnmarshalText by their name and value, numbers, booleans and
// strings by their kind; anything else (pointers, slices, functions) can
// only be set from Go.
func describeKnob(name string, f reflect.Value) knob {
	k := knob{Name: name, Type: f.Type().String(), Settable: true}
	switch f.Addr().Interface().(type) {
	case flag.Value, encoding.TextUnmarshaler:
		k.Type = f.Type().Name()
		k.Default = fmt.Sprint(f.Interface())
		return k
	}
	// The value as setField parses it (not through a String method).
	switch f.Kind() {
	case reflect.Float32, reflect.Float64:
		k.Type, k.Default = "float", strconv.FormatFloat(f.Float(), 'g', -1, 64)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.Type, k.Default = "int", strconv.FormatInt(f.Int(), 10)
	case reflect.Bool:
		k.Type, k.Default = "bool", strconv.FormatBool(f.Bool())
	case reflect.String:
		k.Type, k.Default = "string", f.String()
	default:
		k.Settable = false
		if f.IsZero() {
			k.Default = "nil"
		}
	}
	return k
}
