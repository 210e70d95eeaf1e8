package main

import (
	"regexp"
	"strings"
	"testing"
)

// helpTexts returns what every command and subcommand prints for -h, by
// the command line that prints it.
func helpTexts(t *testing.T) map[string]string {
	t.Helper()
	var cmds [][]string
	for _, c := range commands() {
		cmds = append(cmds, []string{c.name, "-h"})
	}
	for _, sub := range []string{"constraints gen", "constraints check", "constraints closure", "powerlaw fit", "powerlaw sample"} {
		cmds = append(cmds, append(strings.Fields(sub), "-h"))
	}
	cmds = append(cmds, []string{"help"})
	texts := map[string]string{}
	for _, args := range cmds {
		out, errOut, _ := run(t, args...)
		if text := out + errOut; !strings.Contains(text, "Usage: tether") {
			t.Errorf("%q printed no usage:\n%s", args, text)
		} else {
			texts[strings.Join(args, " ")] = text
		}
	}
	return texts
}

// TestHelpTextsForUsers: the help texts spell flags with one dash, as
// every usage line and the README do.
func TestHelpTextsForUsers(t *testing.T) {
	texts := helpTexts(t)
	doubleDash := regexp.MustCompile(`(^|[\s\[("'])--[a-z]`)
	for cmd, text := range texts {
		if m := doubleDash.FindString(text); m != "" {
			t.Errorf("%s: a flag spelt with two dashes (%q):\n%s", cmd, m, text)
		}
	}
}
