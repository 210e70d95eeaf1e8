// Package testpanic holds the one helper the tests of several packages
// use to check a documented panic: the message a function panics with.
package testpanic

import "fmt"

// Message runs f and returns the value it panics with, formatted by
// fmt.Sprint, or "" when f returns normally.
func Message(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
