package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"text/tabwriter"

	"github.com/tether-sc/tether/cluster"
)

// runMethods lists the methods, or with a method name, that method and its
// knobs (the fields -set can change, with their defaults).
func runMethods(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("methods", "methods [-json] [METHOD]")
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	type row struct {
		Name        string `json:"name"`
		Summary     string `json:"summary"`
		Source      string `json:"source"`
		Supervision string `json:"supervision"`
		Knobs       []knob `json:"knobs,omitempty"`
	}
	list := cluster.Methods()
	switch len(rest) {
	case 0:
	case 1:
		// The spellings -method takes (cluster.New: any case, blanks
		// around), and its error for an unknown name, with a suggestion.
		meth, err := cluster.New(rest[0])
		if err != nil {
			return usagef("methods", "%v", err)
		}
		var one []cluster.Info
		for _, i := range list {
			if i.Name == meth.Name() {
				one = append(one, i)
			}
		}
		if one == nil {
			return fmt.Errorf("methods: %s is made by cluster.New but not listed by cluster.Methods", meth.Name())
		}
		list = one
	default:
		return usagef("methods", "want at most one method name, got %q", rest)
	}
	detail := len(rest) == 1
	if *asJSON {
		var rows []row
		for _, i := range list {
			r := row{Name: i.Name, Summary: i.Summary, Source: i.Source, Supervision: i.New().Uses().Supervision.String()}
			if detail {
				r.Knobs = knobsOf(i.New())
			}
			rows = append(rows, r)
		}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if detail {
			return enc.Encode(rows[0])
		}
		return enc.Encode(rows)
	}
	if detail {
		i := list[0]
		fmt.Fprintf(m.Stdout, "%s: %s\nsource: %s\nsupervision: %s\n\n", i.Name, i.Summary, i.Source, i.New().Uses().Supervision)
		tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KNOB\tTYPE\tDEFAULT\tRANGE\tDESCRIPTION")
		for _, k := range knobsOf(i.New()) {
			def := k.Default
			if !k.Settable {
				def += " (Go only)"
			}
			r := k.Range
			if r == "" {
				r = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Name, k.Type, def, r, k.Doc)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "\nSet a knob with: tether cluster -method %s -set Name=value (repeatable). A value\noutside RANGE is refused; 0 means the documented default where RANGE allows it.\n`go doc github.com/tether-sc/tether/cluster.TYPE` describes every knob in full.\n", i.Name)
		if z := zeroValueDiffers(i.New()); z != "" {
			fmt.Fprintf(m.Stdout, "%s\n", z)
		}
		fmt.Fprintf(m.Stdout, "\n%s\n%s\n", supervisionHelp, sourcesHelp)
		return nil
	}
	fmt.Fprintf(m.Stdout, "%s\n\n", supervisionHelp)
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tSUPERVISION\tSOURCE\tSUMMARY")
	for _, i := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.Name, i.New().Uses().Supervision, i.Source, i.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "\n`tether methods METHOD` lists a method's knobs.\n\n%s\n", sourcesHelp)
	return nil
}

// supervisionHelp explains the SUPERVISION column (cluster.Supervision's
// names).
const supervisionHelp = `SUPERVISION is what a method reads: pairs (-constraints; -partial-labels are converted to
pairs), labels (-partial-labels only), labels|pairs (either, or both), none.`

// zeroValueDiffers returns, when the Go zero value of m's type is not the
// DEFAULT column (the registry's value, cluster.New), a line naming the
// knobs in which it differs, with the zero value's values: a library user
// writing cluster.FGPWC{Imprint: true} after -set Imprint=true got another
// method without a word (review 118). "" when they agree. Cost: one
// reflection over the knobs.
func zeroValueDiffers(m cluster.Method) string {
	t := reflect.TypeOf(m)
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	zv := reflect.New(t)
	var zero cluster.Method
	if ptr {
		zero, _ = zv.Interface().(cluster.Method)
	} else {
		zero, _ = zv.Elem().Interface().(cluster.Method)
	}
	if zero == nil {
		return ""
	}
	def := map[string]knob{}
	for _, k := range knobsOf(m) {
		def[k.Name] = k
	}
	var diff []string
	for _, k := range knobsOf(zero) {
		d, ok := def[k.Name]
		if !ok || d.Default == k.Default {
			continue
		}
		if k.Default == "0" && strings.Contains(d.Doc, "0: "+d.Default) {
			// A zero that means the default ("(0: 0.15)").
			continue
		}
		diff = append(diff, k.Name+" "+k.Default)
	}
	if len(diff) == 0 {
		return ""
	}
	return fmt.Sprintf("In Go, the zero value cluster.%s{} is not this DEFAULT: %s; cluster.New(%q) gives the DEFAULT column.", t.Name(), strings.Join(diff, ", "), m.Name())
}
