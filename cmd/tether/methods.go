package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/tether-sc/tether/cluster"
)

func runMethods(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("methods", "methods [-json]")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	list := cluster.Methods()
	if *asJSON {
		type row struct {
			Name, Summary, Source, Supervision string
		}
		var rows []row
		for _, i := range list {
			rows = append(rows, row{i.Name, i.Summary, i.Source, i.Supervision.String()})
		}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tSUPERVISION\tSOURCE\tSUMMARY")
	for _, i := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.Name, i.Supervision, i.Source, i.Summary)
	}
	return tw.Flush()
}
