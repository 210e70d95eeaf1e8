package jsonpos

import "testing"

// TestPosition checks Position against lines and columns counted by hand
// (a column counts characters: "é" is 2 bytes, "€" 3, "😀" 4, one
// character each).
func TestPosition(t *testing.T) {
	for _, tc := range []struct {
		name      string
		text      string
		off       int
		line, col int
		ok        bool
	}{
		{"start", `{"k": 1}`, 0, 1, 1, true},
		{"mid-line", `{"k": 1}`, 6, 1, 7, true},
		{"end of text", `{"k": 1}`, 8, 1, 9, true},
		{"empty text", ``, 0, 1, 1, true},
		{"after 2-byte é", `{"é": x}`, 7, 1, 7, true},
		{"after 3-byte €", `["€€", x]`, 11, 1, 8, true},
		{"after 4-byte emoji", `["😀", x]`, 9, 1, 7, true},
		{"inside a multi-byte character", `"é"`, 2, 1, 3, true},
		{"invalid UTF-8 byte counts as one", "\xff\xfex", 2, 1, 3, true},
		{"start of second line", "[1,\n2]", 4, 2, 1, true},
		{"at a newline", "[1,\n2]", 3, 1, 4, true},
		{"mid third line", "[1,\n2,\n  x]", 9, 3, 3, true},
		{"CRLF", "[1,\r\n z]", 6, 2, 2, true},
		{"multi-byte on an earlier line only", "[\"é€\",\n x]", 11, 2, 2, true},
		{"multi-byte on the error's line", "[1,\n\"é\", x]", 10, 2, 6, true},
		{"last line without newline, at its end", "[1,\n2]", 6, 2, 3, true},
		{"text ending in a newline, at the end", "[1]\n", 4, 2, 1, true},
		{"negative offset", `{}`, -1, 0, 0, false},
		{"offset past the end", `{}`, 3, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line, col, ok := Position([]byte(tc.text), tc.off)
			if line != tc.line || col != tc.col || ok != tc.ok {
				t.Errorf("Position(%q, %d) = %d, %d, %v, want %d, %d, %v", tc.text, tc.off, line, col, ok, tc.line, tc.col, tc.ok)
			}
		})
	}
}
